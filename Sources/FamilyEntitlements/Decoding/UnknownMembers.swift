/// The members of an Apple object that this version of the library does not know, kept as sent.
///
/// Apple adds fields to its objects over time. The payloads of the decision path ignore them, as Apple asks; the
/// Advanced Commerce objects, whose fields a service reads for money, keep them in `unknownMembers` instead, so that a
/// new field is seen, reported and written back rather than dropped. A name given twice never reaches them: the
/// strict reader refuses the document (`duplicate_member`).
enum UnknownMembers {
    /// Any member name: the key `UnknownKeys` reads the library's own documents with.
    private typealias AnyKey = UnknownKeys.AnyKey

    /// The members of the object `decoder` holds whose names are not among `known`'s, each as a `JSONValue`.
    static func decode<Known: CodingKey & CaseIterable>(
        from decoder: any Decoder, known _: Known.Type
    ) throws -> [String: JSONValue] {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let names = Set(Known.allCases.map(\.stringValue))
        var members: [String: JSONValue] = [:]
        for key in container.allKeys where !names.contains(key.stringValue) && members[key.stringValue] == nil {
            members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return members
    }

    /// Writes `members` beside the object's known members. A member named like a known one (which decoding never
    /// keeps, but a caller may set) is not written: the known field is, so that encoding never changes a field.
    static func encode<Known: CodingKey & CaseIterable>(
        _ members: [String: JSONValue], to encoder: any Encoder, known _: Known.Type
    ) throws {
        guard !members.isEmpty else { return }
        let names = Set(Known.allCases.map(\.stringValue))
        var container = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in members where !names.contains(name) {
            try container.encode(value, forKey: AnyKey(stringValue: name))
        }
    }
}

extension FastJSONReader {
    /// Reads the value of a member named `name` that the payload does not know into `members`, as
    /// `UnknownMembers.decode` reads it; `nextMember` has refused a name given twice.
    mutating func keepUnknownMember(named name: String, in members: inout [String: JSONValue])
        throws(PayloadDecodingError)
    {
        members[name] = try readAnyValue()
    }
}
