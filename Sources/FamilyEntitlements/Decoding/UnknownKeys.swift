/// The check that a document of the library's own (a catalog, a ledger) names no key it does not know.
///
/// Apple's payloads gain fields every year, so their decoders ignore unknown keys; the library's own documents are
/// written by people and by this library, where an unknown key is a misspelling or a document of another kind, which
/// must not be read as an empty one.
enum UnknownKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws `unknown_key` at the path of the first key, in sorted order, that is not among `known`.
    static func refuse(in decoder: any Decoder, known: Set<String>, of what: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        throw DecodingError.dataCorruptedError(
            forKey: AnyKey(stringValue: first), in: container,
            debugDescription: "\(PayloadDecodingError.Code.unknownKey): \(what) has no key \"\(first)\"; it takes "
                + known.sorted().map { "\"\($0)\"" }.joined(separator: ", "))
    }
}
