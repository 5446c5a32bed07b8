#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a Get Transaction History page, member for member as `init(from:)` reads it.
extension TransactionHistoryResponse {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension TransactionHistoryResponse: FastJSONDecodable {
    /// The fields, with the order Apple writes them in (as in Apple's sample payloads).
    static let fastJSONFields = FastJSONFields<CodingKeys>(
        wireOrder: [
            .revision, .hasMore, .bundleId, .appAppleId, .environment, .signedTransactions,
        ])

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .revision: value.revision = try reader.readString()
        case .hasMore: value.hasMore = try reader.readBool()
        case .bundleId: value.bundleId = try reader.readString()
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .signedTransactions: value.signedTransactions = try reader.readStringArray()
        }
    }
}
