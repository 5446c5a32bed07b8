#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a Get All Subscription Statuses body, member for member as `init(from:)` reads it.
extension SubscriptionStatusesResponse {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension SubscriptionStatusesResponse: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .bundleId: value.bundleId = try reader.readString()
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .data: value.data = try reader.readArray(of: SubscriptionGroupStatus.self)
        }
    }
}

extension SubscriptionGroupStatus: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .subscriptionGroupIdentifier: value.subscriptionGroupIdentifier = try reader.readString()
        case .lastTransactions: value.lastTransactions = try reader.readArray(of: LastTransactionsItem.self)
        }
    }
}

extension LastTransactionsItem: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .status: value.status = try reader.readValue(SubscriptionStatus.self)
        case .originalTransactionId: value.originalTransactionId = try reader.readString()
        case .signedTransactionInfo: value.signedTransactionInfo = try reader.readString()
        case .signedRenewalInfo: value.signedRenewalInfo = try reader.readString()
        }
    }
}
