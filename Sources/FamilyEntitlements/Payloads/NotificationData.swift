/// The app, environment and signed contents of a notification; Apple's notification `data`.
///
/// `signedTransactionInfo` and `signedRenewalInfo` are JWS strings signed on their own: verify each one separately.
/// `transactionInfo` and `renewalInfo` hold their decoded contents where they are known (a history file may carry
/// them in place of the signed strings).
public struct NotificationData: Hashable, Sendable {
    /// The environment of the notification.
    public var environment: Environment?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The transaction, as a JWS signed on its own.
    public var signedTransactionInfo: String?
    /// The renewal information, as a JWS signed on its own.
    public var signedRenewalInfo: String?
    /// The decoded transaction, where known; not a field of Apple's.
    public var transactionInfo: TransactionPayload?
    /// The decoded renewal information, where known; not a field of Apple's.
    public var renewalInfo: RenewalInfoPayload?
    /// The status of the subscription.
    public var status: SubscriptionStatus?
    /// Why the customer asked for a refund, in a `CONSUMPTION_REQUEST`.
    public var consumptionRequestReason: ConsumptionRequestReason?

    /// Creates a payload; every field defaults to absent.
    public init(
        environment: Environment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        transactionInfo: TransactionPayload? = nil,
        renewalInfo: RenewalInfoPayload? = nil,
        status: SubscriptionStatus? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.transactionInfo = transactionInfo
        self.renewalInfo = renewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}

extension NotificationData: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case environment, appAppleId, bundleId, bundleVersion, signedTransactionInfo, signedRenewalInfo,
            transactionInfo, renewalInfo, status, consumptionRequestReason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        bundleVersion = try container.decodeIfPresent(String.self, forKey: .bundleVersion)
        signedTransactionInfo = try container.decodeIfPresent(String.self, forKey: .signedTransactionInfo)
        signedRenewalInfo = try container.decodeIfPresent(String.self, forKey: .signedRenewalInfo)
        transactionInfo = try container.decodeIfPresent(TransactionPayload.self, forKey: .transactionInfo)
        renewalInfo = try container.decodeIfPresent(RenewalInfoPayload.self, forKey: .renewalInfo)
        status = try container.decodeIfPresent(SubscriptionStatus.self, forKey: .status)
        consumptionRequestReason = try container.decodeIfPresent(
            ConsumptionRequestReason.self, forKey: .consumptionRequestReason)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(bundleVersion, forKey: .bundleVersion)
        try container.encodeIfPresent(signedTransactionInfo, forKey: .signedTransactionInfo)
        try container.encodeIfPresent(signedRenewalInfo, forKey: .signedRenewalInfo)
        try container.encodeIfPresent(transactionInfo, forKey: .transactionInfo)
        try container.encodeIfPresent(renewalInfo, forKey: .renewalInfo)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(consumptionRequestReason, forKey: .consumptionRequestReason)
    }
}
