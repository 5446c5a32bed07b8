extension KeyedDecodingContainer {
    /// Decodes an integer field, naming its key when the JSON number is not an integer of that width.
    ///
    /// Foundation's `JSONDecoder` (swift-foundation, on Linux and on current Apple platforms) reports such a number,
    /// `9223372036854775808` for an Int64 or `1.5` for any integer, as invalid JSON at the document root, losing the
    /// path; this reports `numberOutOfRange` at the key instead.
    func decodeIntegerIfPresent<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        do {
            return try decodeIfPresent(type, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(PayloadDecodingError.Code.numberOutOfRange): the number is not an integer "
                    + "from \(T.min) to \(T.max)")
        }
    }
}
