#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoded renewal information of a subscription chain; Apple's `JWSRenewalInfoDecodedPayload`.
///
/// It describes the newest transaction of the chain named by `originalTransactionId`. Every field is optional, as on
/// the wire. `renewalPrice` is in milliunits of `currency`.
public struct RenewalInfoPayload: Hashable, Sendable {
    /// The original transaction identifier of the subscription chain.
    public var originalTransactionId: String?
    /// The product of the current period.
    public var productId: String?
    /// The product that renews next; differs from `productId` after a downgrade.
    public var autoRenewProductId: String?
    /// Whether the subscription renews.
    public var autoRenewStatus: AutoRenewStatus?
    /// Why the subscription expired, where it did.
    public var expirationIntent: ExpirationIntent?
    /// Whether the App Store is retrying a failed renewal.
    public var isInBillingRetryPeriod: Bool?
    /// When the billing grace period ends; milliseconds on the wire.
    public var gracePeriodExpiresDate: Date?
    /// Whether the customer consented to a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The kind of offer that applies at the next renewal.
    public var offerType: OfferType?
    /// The identifier of the offer at the next renewal.
    public var offerIdentifier: String?
    /// How the offer at the next renewal is paid.
    public var offerDiscountType: OfferDiscountType?
    /// The duration of the offer at the next renewal, as ISO 8601.
    public var offerPeriod: String?
    /// When the App Store signed this snapshot; milliseconds on the wire.
    public var signedDate: Date?
    /// The environment that signed the renewal information.
    public var environment: Environment?
    /// The start of the most recent run of paid periods without a gap of more than 60 days.
    public var recentSubscriptionStartDate: Date?
    /// When the subscription renews next; milliseconds on the wire.
    public var renewalDate: Date?
    /// The ISO 4217 code of `renewalPrice`.
    public var currency: String?
    /// The price of the next renewal in milliunits of `currency`.
    public var renewalPrice: Int64?
    /// The win-back offers the customer may redeem.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app set to name its own user.
    public var appAccountToken: UUID?
    /// The identifier of the customer's app download.
    public var appTransactionId: String?
    /// The billing plan at the next renewal.
    public var renewalBillingPlanType: String?
    /// The renewal of a commitment.
    public var commitmentInfo: RenewalCommitmentInfo?
    /// Advanced Commerce API information, kept as the JSON Apple sent.
    public var advancedCommerceInfo: JSONValue?

    /// Creates a payload; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        productId: String? = nil,
        autoRenewProductId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil,
        expirationIntent: ExpirationIntent? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        gracePeriodExpiresDate: Date? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        offerPeriod: String? = nil,
        signedDate: Date? = nil,
        environment: Environment? = nil,
        recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: UUID? = nil,
        appTransactionId: String? = nil,
        renewalBillingPlanType: String? = nil,
        commitmentInfo: RenewalCommitmentInfo? = nil,
        advancedCommerceInfo: JSONValue? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.priceIncreaseStatus = priceIncreaseStatus
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.renewalBillingPlanType = renewalBillingPlanType
        self.commitmentInfo = commitmentInfo
        self.advancedCommerceInfo = advancedCommerceInfo
    }
}

extension RenewalInfoPayload: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, productId, autoRenewProductId, autoRenewStatus, expirationIntent,
            isInBillingRetryPeriod, gracePeriodExpiresDate, priceIncreaseStatus, offerType, offerIdentifier,
            offerDiscountType, offerPeriod, signedDate, environment, recentSubscriptionStartDate, renewalDate, currency,
            renewalPrice, eligibleWinBackOfferIds, appAccountToken, appTransactionId, renewalBillingPlanType,
            commitmentInfo, advancedCommerceInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        productId = try container.decodeIfPresent(String.self, forKey: .productId)
        autoRenewProductId = try container.decodeIfPresent(String.self, forKey: .autoRenewProductId)
        autoRenewStatus = try container.decodeIfPresent(AutoRenewStatus.self, forKey: .autoRenewStatus)
        expirationIntent = try container.decodeIfPresent(ExpirationIntent.self, forKey: .expirationIntent)
        isInBillingRetryPeriod = try container.decodeIfPresent(Bool.self, forKey: .isInBillingRetryPeriod)
        gracePeriodExpiresDate = try container.decodeMillisecondDateIfPresent(forKey: .gracePeriodExpiresDate)
        priceIncreaseStatus = try container.decodeIfPresent(PriceIncreaseStatus.self, forKey: .priceIncreaseStatus)
        offerType = try container.decodeIfPresent(OfferType.self, forKey: .offerType)
        offerIdentifier = try container.decodeIfPresent(String.self, forKey: .offerIdentifier)
        offerDiscountType = try container.decodeIfPresent(OfferDiscountType.self, forKey: .offerDiscountType)
        offerPeriod = try container.decodeIfPresent(String.self, forKey: .offerPeriod)
        signedDate = try container.decodeMillisecondDateIfPresent(forKey: .signedDate)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        recentSubscriptionStartDate = try container.decodeMillisecondDateIfPresent(forKey: .recentSubscriptionStartDate)
        renewalDate = try container.decodeMillisecondDateIfPresent(forKey: .renewalDate)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        renewalPrice = try container.decodeIntegerIfPresent(Int64.self, forKey: .renewalPrice)
        eligibleWinBackOfferIds = try container.decodeIfPresent([String].self, forKey: .eligibleWinBackOfferIds)
        appAccountToken = try container.decodeUUIDIfPresent(forKey: .appAccountToken)
        appTransactionId = try container.decodeIfPresent(String.self, forKey: .appTransactionId)
        renewalBillingPlanType = try container.decodeIfPresent(String.self, forKey: .renewalBillingPlanType)
        commitmentInfo = try container.decodeIfPresent(RenewalCommitmentInfo.self, forKey: .commitmentInfo)
        advancedCommerceInfo = try container.decodeIfPresent(JSONValue.self, forKey: .advancedCommerceInfo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        try container.encodeIfPresent(productId, forKey: .productId)
        try container.encodeIfPresent(autoRenewProductId, forKey: .autoRenewProductId)
        try container.encodeIfPresent(autoRenewStatus, forKey: .autoRenewStatus)
        try container.encodeIfPresent(expirationIntent, forKey: .expirationIntent)
        try container.encodeIfPresent(isInBillingRetryPeriod, forKey: .isInBillingRetryPeriod)
        try container.encodeMillisecondDateIfPresent(gracePeriodExpiresDate, forKey: .gracePeriodExpiresDate)
        try container.encodeIfPresent(priceIncreaseStatus, forKey: .priceIncreaseStatus)
        try container.encodeIfPresent(offerType, forKey: .offerType)
        try container.encodeIfPresent(offerIdentifier, forKey: .offerIdentifier)
        try container.encodeIfPresent(offerDiscountType, forKey: .offerDiscountType)
        try container.encodeIfPresent(offerPeriod, forKey: .offerPeriod)
        try container.encodeMillisecondDateIfPresent(signedDate, forKey: .signedDate)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeMillisecondDateIfPresent(recentSubscriptionStartDate, forKey: .recentSubscriptionStartDate)
        try container.encodeMillisecondDateIfPresent(renewalDate, forKey: .renewalDate)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(renewalPrice, forKey: .renewalPrice)
        try container.encodeIfPresent(eligibleWinBackOfferIds, forKey: .eligibleWinBackOfferIds)
        try container.encodeUUIDIfPresent(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(appTransactionId, forKey: .appTransactionId)
        try container.encodeIfPresent(renewalBillingPlanType, forKey: .renewalBillingPlanType)
        try container.encodeIfPresent(commitmentInfo, forKey: .commitmentInfo)
        try container.encodeIfPresent(advancedCommerceInfo, forKey: .advancedCommerceInfo)
    }
}
