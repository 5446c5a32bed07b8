#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Apple's status of one subscription chain as one Get All Subscription Statuses answer states it: the `status` of a
/// `LastTransactionsItem`, with the instant the answer describes.
///
/// Apple sends `status` over the App Store Server API's own authenticated connection, beside the signed transaction and
/// renewal info, so it is trusted as Apple's word on the chain, but it never grants: the rebuild decides from the
/// transactions and renewal infos, and only compares the latest status with its rebuilt state
/// (`apple_status_disagrees`). `signedDate` is the latest signedDate of the item's verified transaction and renewal
/// info, which Apple signs when it answers. A snapshot without `signedDate` (an item without signed strings) is kept,
/// but never compared: nothing says when it held.
public struct SubscriptionStatusSnapshot: Hashable, Sendable {
    /// The original transaction identifier of the chain.
    public var originalTransactionId: String?
    /// Apple's status of the chain; an unknown value is kept, and never compared.
    public var status: SubscriptionStatus?
    /// The instant the answer describes: the latest signedDate of the item's signed transaction and renewal info;
    /// milliseconds on the wire.
    public var signedDate: Date?
    /// The environment of the answer: its signed transaction's, else its renewal info's, else the response's.
    public var environment: Environment?
    /// The app's bundle identifier: the signed transaction's, else the response's.
    public var bundleId: String?
    /// The subscription group of the item.
    public var subscriptionGroupIdentifier: String?

    /// Creates a snapshot; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        status: SubscriptionStatus? = nil,
        signedDate: Date? = nil,
        environment: Environment? = nil,
        bundleId: String? = nil,
        subscriptionGroupIdentifier: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.status = status
        self.signedDate = signedDate
        self.environment = environment
        self.bundleId = bundleId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    }

    /// The snapshot of one item of a Get All Subscription Statuses answer, from the item's transaction and renewal
    /// info as verified (or decoded) from its signed strings.
    ///
    /// The signed payloads name the chain, the environment and the app before the response does, since their
    /// signatures vouch for them; `signedDate` is the later of their signedDates, nil when neither has one.
    public init(
        item: LastTransactionsItem, in group: SubscriptionGroupStatus? = nil,
        of response: SubscriptionStatusesResponse? = nil, transaction: TransactionPayload?,
        renewalInfo: RenewalInfoPayload?
    ) {
        let dates = [transaction?.signedDate, renewalInfo?.signedDate].compactMap { $0 }
        self.init(
            originalTransactionId: transaction?.originalTransactionId ?? renewalInfo?.originalTransactionId
                ?? item.originalTransactionId,
            status: item.status, signedDate: dates.max(),
            environment: transaction?.environment ?? renewalInfo?.environment ?? response?.environment,
            bundleId: transaction?.bundleId ?? response?.bundleId,
            subscriptionGroupIdentifier: transaction?.subscriptionGroupIdentifier ?? group?.subscriptionGroupIdentifier)
    }
}

extension SubscriptionStatusSnapshot: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, status, signedDate, environment, bundleId, subscriptionGroupIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        status = try container.decodeIfPresent(SubscriptionStatus.self, forKey: .status)
        signedDate = try container.decodeMillisecondDateIfPresent(forKey: .signedDate)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        subscriptionGroupIdentifier = try container.decodeIfPresent(String.self, forKey: .subscriptionGroupIdentifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeMillisecondDateIfPresent(signedDate, forKey: .signedDate)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(subscriptionGroupIdentifier, forKey: .subscriptionGroupIdentifier)
    }
}

extension SubscriptionStatusSnapshot: AppStorePayload {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension SubscriptionStatusSnapshot: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .originalTransactionId: value.originalTransactionId = try reader.readString()
        case .status: value.status = try reader.readValue(SubscriptionStatus.self)
        case .signedDate: value.signedDate = try reader.readDate()
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .bundleId: value.bundleId = try reader.readString()
        case .subscriptionGroupIdentifier: value.subscriptionGroupIdentifier = try reader.readString()
        }
    }
}
