/// Objects, arrays and values read whole: payload objects, `JSONValue`, and members skipped after a strict check.
extension FastJSONReader {
    /// Where the reader is in a payload object: which fields it has read, and which it expects next.
    struct ObjectMembers {
        fileprivate var seen: UInt64 = 0
        /// The field read last; past the end before the first, where the successor is the first field Apple writes.
        fileprivate var previous = Int.max
        fileprivate var isAtStart = true
        /// The names of the members read so far that match no field.
        fileprivate var unknownNames = MemberNames()
    }

    /// The names of an object's members read so far, for refusing a name given twice.
    ///
    /// Names compare as `String`s (canonical equivalence), as `JSONDecoder` compares keys, so that `SKU` and `S\u212AU`
    /// (with the Kelvin sign) are the same name: any two names that one reader could take for one member are refused.
    struct MemberNames {
        private var names: [String] = []
        private var lookup: Set<String> = []

        /// Records `name`; false where the object already named it.
        @inline(__always)
        mutating func insert(_ name: String) -> Bool {
            // A handful of names is searched faster than it is hashed; an object of many members gets a set.
            guard lookup.isEmpty else { return lookup.insert(name).inserted }
            if names.contains(name) { return false }
            names.append(name)
            if names.count == 16 {
                lookup = Set(names)
                names = []
            }
            return true
        }
    }

    /// The error for a member named twice in one object: the path is the name, and the enclosing values add theirs.
    static func duplicateMember(_ name: String) -> PayloadDecodingError {
        PayloadDecodingError(
            code: .duplicateMember, path: name,
            message: "the member \"\(name)\" appears twice in one object; JSON readers disagree on which one counts "
                + "(some keep the first, others the last), so the document is refused rather than read either way")
    }

    /// The name of a checked member name, escapes decoded, as duplicates are compared; a name whose escapes do not
    /// decode (an unpaired UTF-16 surrogate, which a skipped member may have) is compared as written.
    func memberName(_ token: StringToken) -> String {
        if token.hasEscapes, let unescaped = try? unescape(token) {
            return String(decoding: unescaped, as: UTF8.self)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// How many absent fields in a row `nextMember` looks past in Apple's order before it looks a name up.
    static let fieldsSkippedAtMost = 4

    /// Enters a payload object whose opening brace is at `position`; read its members with `nextMember`.
    @inline(__always)
    mutating func enterObject() throws(PayloadDecodingError) -> ObjectMembers {
        try enterContainer()
        return ObjectMembers()
    }

    /// Reads an object member by member: `read` reads the value of each member the payload reads, with the reader at
    /// that value, and an error it throws is placed at the member. Where `keepsUnknown`, `unknown` reads each member whose
    /// name matches no field (see `nextMember`).
    @inline(__always)
    mutating func readMembers<Key>(
        _ fields: FastJSONFields<Key>,
        unknown: (String, inout FastJSONReader) throws(PayloadDecodingError) -> Void = { _, _ in },
        keepsUnknown: Bool = false,
        _ read: (Key, inout FastJSONReader) throws(PayloadDecodingError) -> Void
    ) throws(PayloadDecodingError) {
        var members = try enterObject()
        while let key = try nextMember(fields, &members, unknown: unknown, keepsUnknown: keepsUnknown) {
            do throws(PayloadDecodingError) {
                try read(key, &self)
            } catch {
                throw error.inMember(key.stringValue)
            }
        }
    }

    /// Moves to the value of the next member the payload reads and returns its key, or returns nil past the object.
    ///
    /// Unknown members are skipped after a strict check, or read by `unknown` where `keepsUnknown` (with the reader at
    /// the value, and errors placed at the member). A name given twice, known or not, is a `duplicate_member` error at
    /// the name: readers that keep the first and readers that keep the last would read the same bytes two ways.
    @inline(__always)
    mutating func nextMember<Key>(
        _ fields: FastJSONFields<Key>, _ members: inout ObjectMembers,
        unknown: (String, inout FastJSONReader) throws(PayloadDecodingError) -> Void = { _, _ in },
        keepsUnknown: Bool = false
    ) throws(PayloadDecodingError) -> Key? {
        while true {
            skipWhitespace()
            if members.isAtStart {
                members.isAtStart = false
                if current == ASCII.closeBrace {
                    position += 1
                    depth -= 1
                    return nil
                }
            } else if current == ASCII.comma {
                position += 1
                skipWhitespace()
                if current == ASCII.closeBrace { throw malformed("a trailing comma before } (RFC 8259 section 4)") }
            } else if current == ASCII.closeBrace {
                position += 1
                depth -= 1
                return nil
            } else {
                throw malformed("expected , or } after an object member")
            }
            guard current == ASCII.quote else { throw malformed("expected a member name in double quotes") }
            let nameStart = position
            // Apple leaves out absent fields: the member is likely the next field Apple writes, or one a few after.
            var guess = fields.successors[min(members.previous, fields.keys.count)]
            var isGuessed = fields.isNameAndColon(of: guess, at: position + 1, in: bytes)
            if !isGuessed {
                var candidate = guess
                for _ in 0..<Self.fieldsSkippedAtMost where candidate < fields.keys.count {
                    candidate = fields.successors[candidate]
                    if fields.isNameAndColon(of: candidate, at: position + 1, in: bytes) {
                        guess = candidate
                        isGuessed = true
                        break
                    }
                }
            }
            let field: Int?
            if isGuessed {
                field = guess
                position += fields.nameLength(of: guess) + 3
            } else {
                if fields.isName(of: guess, at: position + 1, in: bytes) {
                    field = guess
                    position += fields.nameLength(of: guess) + 2
                } else {
                    field = try scanMemberName(fields, guess: guess)
                }
                if current == ASCII.colon {
                    position += 1
                } else {
                    try expect(ASCII.colon, "a colon after a member name")
                }
            }
            skipWhitespace()
            if let field {
                guard members.seen & (1 << UInt64(field)) == 0 else {
                    throw Self.duplicateMember(fields.keys[field].stringValue)
                }
                members.seen |= 1 << UInt64(field)
                members.previous = field
                return fields.keys[field]
            }
            try readUnknownMember(from: nameStart, &members, unknown, keepsUnknown: keepsUnknown)
        }
    }

    /// Reads again the name of an unknown member that starts at `nameStart` (its opening quote), refuses it if the
    /// object named it before, then reads its value with `unknown` where `keepsUnknown` or else skips it; the reader is
    /// at the value, and is left past it.
    private mutating func readUnknownMember(
        from nameStart: Int, _ members: inout ObjectMembers,
        _ unknown: (String, inout FastJSONReader) throws(PayloadDecodingError) -> Void, keepsUnknown: Bool
    ) throws(PayloadDecodingError) {
        let valueStart = position
        position = nameStart
        let name = keepsUnknown ? try readStringContents() : memberName(try scanString())
        position = valueStart
        guard members.unknownNames.insert(name) else { throw Self.duplicateMember(name) }
        do throws(PayloadDecodingError) {
            if keepsUnknown {
                try unknown(name, &self)
            } else {
                try skipValue()
            }
        } catch {
            throw error.inMember(name)
        }
    }

    /// Reads a member name at `position` (its opening quote) and returns the index of the field it names, if any.
    @inline(__always)
    private mutating func scanMemberName<Key>(
        _ fields: FastJSONFields<Key>, guess: Int
    ) throws(PayloadDecodingError) -> Int? {
        let start = position + 1
        let end = endOfPlainText(from: start)
        guard byte(at: end) == ASCII.quote else { return try scanUnusualMemberName(fields) }
        position = end + 1
        return fields.index(of: UnsafeBufferPointer(rebasing: bytes[start..<end]), guess: guess)
    }

    /// Reads a member name with escapes or bytes beyond ASCII, which must decode to Unicode text.
    ///
    /// Where its bytes match no field, the name is compared as `JSONDecoder` compares keys, by `String` equality
    /// (canonical equivalence): `S\u212AU`, with the Kelvin sign, is the field `SKU` to both paths.
    private mutating func scanUnusualMemberName<Key>(
        _ fields: FastJSONFields<Key>
    ) throws(PayloadDecodingError) -> Int? {
        let token = try scanString()
        let name = token.hasEscapes ? try unescape(token) : Array(bytes[token.start..<token.end])
        if let field = name.withUnsafeBufferPointer({ name in fields.index(of: name, guess: 0) }) { return field }
        let text = String(decoding: name, as: UTF8.self)
        return fields.keys.firstIndex { $0.stringValue == text }
    }

    /// Moves past any JSON value after checking it strictly against RFC 8259.
    ///
    /// Strings are checked for escapes, control characters and UTF-8, numbers against the grammar, and nesting against
    /// `maximumDepth`; an escaped unpaired surrogate passes (see `scanString`). An object that names a member twice is
    /// a `duplicate_member` error at the path of the second, from the value skipped: every document passes this check
    /// before `JSONDecoder` reads it (`PayloadJSON`), so no reader of the library keeps either occurrence.
    mutating func skipValue() throws(PayloadDecodingError) {
        switch current {
        case ASCII.quote:
            _ = try scanString()
        case ASCII.openBrace:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBrace {
                position += 1
                depth -= 1
                return
            }
            var names = MemberNames()
            while true {
                skipWhitespace()
                guard current == ASCII.quote else { throw malformed("expected a member name in double quotes") }
                let name = memberName(try scanString())
                try expect(ASCII.colon, "a colon after a member name")
                skipWhitespace()
                guard names.insert(name) else { throw Self.duplicateMember(name) }
                do throws(PayloadDecodingError) {
                    try skipValue()
                } catch {
                    throw error.inMember(name)
                }
                guard try closeOrContinue(ASCII.closeBrace, "a trailing comma before } (RFC 8259 section 4)") else {
                    return
                }
            }
        case ASCII.openBracket:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBracket {
                position += 1
                depth -= 1
                return
            }
            var index = 0
            while true {
                skipWhitespace()
                do throws(PayloadDecodingError) {
                    try skipValue()
                } catch {
                    throw error.inElement(index)
                }
                index += 1
                guard try closeOrContinue(ASCII.closeBracket, "a trailing comma before ] (RFC 8259 section 5)") else {
                    return
                }
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBooleanLiteral()
        case UInt8(ascii: "n"):
            try readNull()
        default:
            guard isAtNumber else { throw malformed("expected a JSON value") }
            _ = try scanNumber()
        }
    }

    /// After a member or element: moves past a comma and returns true, or past `close` and returns false.
    @inline(__always)
    mutating func closeOrContinue(
        _ close: UInt8, _ trailingComma: String
    ) throws(PayloadDecodingError) -> Bool {
        skipWhitespace()
        if current == ASCII.comma {
            position += 1
            skipWhitespace()
            if current == close { throw malformed(trailingComma) }
            return true
        }
        guard current == close else {
            throw malformed(close == ASCII.closeBrace ? "expected , or } after an object member" : "expected , or ]")
        }
        position += 1
        depth -= 1
        return false
    }

    /// Reads any JSON value as `JSONValue` does: every string decoded, every number read as Int64 where it can be.
    ///
    /// An object that names a member twice is a `duplicate_member` error at the second.
    mutating func readAnyValue() throws(PayloadDecodingError) -> JSONValue {
        switch current {
        case ASCII.quote:
            return .string(try readStringContents())
        case ASCII.openBrace:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBrace {
                position += 1
                depth -= 1
                return .object([:])
            }
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(8)
            var names = MemberNames()
            while true {
                skipWhitespace()
                guard current == ASCII.quote else { throw malformed("expected a member name in double quotes") }
                let name = try readStringContents()
                try expect(ASCII.colon, "a colon after a member name")
                skipWhitespace()
                guard names.insert(name) else { throw Self.duplicateMember(name) }
                do throws(PayloadDecodingError) {
                    members.append((name, try readAnyValue()))
                } catch {
                    throw error.inMember(name)
                }
                guard try closeOrContinue(ASCII.closeBrace, "a trailing comma before } (RFC 8259 section 4)") else {
                    return .object(Self.dictionary(consuming: &members))
                }
            }
        case ASCII.openBracket:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBracket {
                position += 1
                depth -= 1
                return .array([])
            }
            var array: [JSONValue] = []
            array.reserveCapacity(4)
            while true {
                skipWhitespace()
                do throws(PayloadDecodingError) {
                    array.append(try readAnyValue())
                } catch  where error.isAboutTheWholeDocument {
                    throw error
                } catch  where error.code == .duplicateMember {
                    throw error.inElement(array.count)
                } catch {
                    // `JSONValue` tries an array with `try?`, then fails as an object at the array's own path.
                    throw PayloadDecodingError(
                        code: .wrongType, path: "",
                        message: "an element of this array is no JSON value this library keeps: \(error)")
                }
                guard try closeOrContinue(ASCII.closeBracket, "a trailing comma before ] (RFC 8259 section 5)") else {
                    return .array(array)
                }
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try readBooleanLiteral())
        case UInt8(ascii: "n"):
            try readNull()
            return .null
        default:
            guard isAtNumber else { throw malformed("expected a JSON value") }
            return try jsonNumber(scanNumber())
        }
    }

    /// The dictionary of an object's members, whose names are all different (`readAnyValue` refuses a name given
    /// twice), sized once and hashing each name once.
    ///
    /// The members are moved out rather than copied, so that no name or value is retained and released on the way.
    @inline(__always)
    static func dictionary(consuming members: inout [(String, JSONValue)]) -> [String: JSONValue] {
        var object = [String: JSONValue](minimumCapacity: members.count)
        while let (name, value) = members.popLast() {
            object[name] = value
        }
        return object
    }
}
