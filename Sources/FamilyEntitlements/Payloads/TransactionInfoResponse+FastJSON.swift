#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a Get Transaction Info body, member for member as `init(from:)` reads it.
extension TransactionInfoResponse {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension TransactionInfoResponse: FastJSONDecodable {
    private static let fastJSONFields = FastJSONFields<CodingKeys>()

    static var empty: Self { Self(fieldsAbsent: ()) }

    /// Every field absent: each optional stored property starts as nil (see `TransactionPayload`'s).
    private init(fieldsAbsent: ()) {}

    static func decodeFastJSON(
        from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        try reader.readMembers(fastJSONFields) { key, reader throws(PayloadDecodingError) in
            switch key {
            case .signedTransactionInfo: value.signedTransactionInfo = try reader.readString()
            }
        }
    }
}
