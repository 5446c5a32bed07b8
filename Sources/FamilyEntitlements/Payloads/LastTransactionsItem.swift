/// The newest transaction of one subscription chain; Apple's `LastTransactionsItem`.
public struct LastTransactionsItem: Hashable, Sendable {
    /// The status of the subscription.
    public var status: SubscriptionStatus?
    /// The original transaction identifier of the chain.
    public var originalTransactionId: String?
    /// The newest transaction, as a JWS signed on its own.
    public var signedTransactionInfo: String?
    /// The renewal information, as a JWS signed on its own.
    public var signedRenewalInfo: String?

    /// Creates a payload; every field defaults to absent.
    public init(
        status: SubscriptionStatus? = nil,
        originalTransactionId: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}

extension LastTransactionsItem: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case status, originalTransactionId, signedTransactionInfo, signedRenewalInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(SubscriptionStatus.self, forKey: .status)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        signedTransactionInfo = try container.decodeIfPresent(String.self, forKey: .signedTransactionInfo)
        signedRenewalInfo = try container.decodeIfPresent(String.self, forKey: .signedRenewalInfo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        try container.encodeIfPresent(signedTransactionInfo, forKey: .signedTransactionInfo)
        try container.encodeIfPresent(signedRenewalInfo, forKey: .signedRenewalInfo)
    }
}
