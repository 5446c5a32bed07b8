/// The check that a document of the library's own (a catalog, a ledger) names no key it does not know.
///
/// Apple's payloads gain fields every year, so their decoders ignore unknown keys; the library's own documents are
/// written by people and by this library, where an unknown key is a misspelling or a document of another kind, which
/// must not be read as an empty one.
package enum UnknownKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws `unknown_key` at the path of the first key, in sorted order, that is not among `known`.
    static func refuse(in decoder: any Decoder, known: Set<String>, of what: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard let first = firstUnknown(container.allKeys.map(\.stringValue), known: known) else { return }
        throw DecodingError.dataCorruptedError(
            forKey: AnyKey(stringValue: first), in: container,
            debugDescription: "\(PayloadDecodingError.Code.unknownKey): " + message(first, known: known, of: what))
    }

    /// The same check over the keys of a top-level object read without a `Decoder`: `unknown_key` at the first key, in
    /// sorted order, that is not among `known`, with the message `refuse(in:known:of:)` gives. `package`, so that the
    /// tool's own line formats refuse keys in the same words.
    package static func refuse(_ keys: some Sequence<String>, known: Set<String>, of what: String)
        throws(PayloadDecodingError)
    {
        guard let first = firstUnknown(keys, known: known) else { return }
        throw PayloadDecodingError(code: .unknownKey, path: first, message: message(first, known: known, of: what))
    }

    private static func firstUnknown(_ keys: some Sequence<String>, known: Set<String>) -> String? {
        keys.filter { !known.contains($0) }.min()
    }

    private static func message(_ key: String, known: Set<String>, of what: String) -> String {
        "\(what) has no key \"\(key)\"; it takes " + known.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
