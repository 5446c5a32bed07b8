#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One answer per entitlement: whether it is unlocked and the product and transaction that answer for it, with what
/// a service shows its customer (when it ends, whether it renews, a billing issue, a pending change of plan).
///
/// Where several products unlock an entitlement, one answers for it: a granting product first, PURCHASED before
/// FAMILY_SHARED (then any other ownership), then the one whose access lasts longest (no end before any end), then the
/// lowest product id. Where none grants, the product purchased last answers, then the lowest product id. An
/// entitlement of the catalog that no product of the history unlocks has every field but `isActive` null.
public struct EntitlementDecision: Hashable, Sendable {
    /// Whether the entitlement is unlocked; the same as `EntitlementReport.entitlements` says.
    public var isActive: Bool
    /// The answering product's state; nil when no product of the history unlocks the entitlement.
    public var state: AccessState?
    /// The product that answers for the entitlement.
    public var productId: ProductID?
    /// The transaction the product's decision reports.
    public var transactionId: TransactionID?
    public var originalTransactionId: OriginalTransactionID?
    /// When access ends, as the product's decision says (a grace period's end while in one).
    public var expiresDate: Date?
    /// Whether the subscription will renew; nil where unknown or not a subscription.
    public var willRenew: Bool?
    /// The pricing period of the reported transaction: normal, free trial, introductory, promotional, ...
    public var period: PricingPeriod?
    public var ownership: OwnershipType?
    /// The reported transaction's originalPurchaseDate: the start of its subscription chain or purchase.
    public var originalPurchaseDate: Date?
    /// The reported transaction's purchaseDate: the latest purchase or renewal.
    public var latestPurchaseDate: Date?
    /// When the reported transaction was revoked, where it was.
    public var revocationDate: Date?
    /// The end of the grace period the newest renewal info states while billing fails.
    public var gracePeriodExpiresDate: Date?
    /// While the subscription is in a grace period or billing retry: the earliest DID_FAIL_TO_RENEW signed since the
    /// reported transaction's purchase, or else its expiresDate (when the renewal failed). Nil otherwise.
    public var billingIssueDetectedAt: Date?
    /// While the subscription will not renew: when the latest DID_CHANGE_RENEWAL_STATUS, an AUTO_RENEW_DISABLED,
    /// was signed. Nil otherwise, or where the history holds no such notification.
    public var unsubscribeDetectedAt: Date?
    /// The product the subscription renews into, where the newest renewal info names another product than the
    /// reported one: a pending downgrade or crossgrade.
    public var autoRenewProductId: ProductID?

    public init(
        isActive: Bool, state: AccessState? = nil, productId: ProductID? = nil, transactionId: TransactionID? = nil,
        originalTransactionId: OriginalTransactionID? = nil, expiresDate: Date? = nil, willRenew: Bool? = nil,
        period: PricingPeriod? = nil, ownership: OwnershipType? = nil, originalPurchaseDate: Date? = nil,
        latestPurchaseDate: Date? = nil, revocationDate: Date? = nil, gracePeriodExpiresDate: Date? = nil,
        billingIssueDetectedAt: Date? = nil, unsubscribeDetectedAt: Date? = nil, autoRenewProductId: ProductID? = nil
    ) {
        self.isActive = isActive
        self.state = state
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.expiresDate = expiresDate
        self.willRenew = willRenew
        self.period = period
        self.ownership = ownership
        self.originalPurchaseDate = originalPurchaseDate
        self.latestPurchaseDate = latestPurchaseDate
        self.revocationDate = revocationDate
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.billingIssueDetectedAt = billingIssueDetectedAt
        self.unsubscribeDetectedAt = unsubscribeDetectedAt
        self.autoRenewProductId = autoRenewProductId
    }

    /// The answer of `product`, with the facts of its reported transaction.
    init(_ product: ProductDecision, facts: ProductFacts?) {
        self.init(
            isActive: product.hasAccess, state: product.state, productId: product.productId,
            transactionId: product.transactionId, originalTransactionId: product.originalTransactionId,
            expiresDate: product.expiresDate, willRenew: product.willRenew, period: product.period,
            ownership: product.ownership, originalPurchaseDate: facts?.originalPurchaseDate,
            latestPurchaseDate: facts?.latestPurchaseDate, revocationDate: facts?.revocationDate,
            gracePeriodExpiresDate: facts?.renewal.gracePeriodExpiresDate,
            billingIssueDetectedAt: facts?.renewal.billingIssueDetectedAt,
            unsubscribeDetectedAt: facts?.renewal.unsubscribeDetectedAt,
            autoRenewProductId: facts?.renewal.autoRenewProductId)
    }
}

extension EntitlementDecision: Codable {
    enum CodingKeys: String, CodingKey {
        case isActive, state, productId, transactionId, originalTransactionId, expiresDate, willRenew, period
        case ownership, originalPurchaseDate, latestPurchaseDate, revocationDate, gracePeriodExpiresDate
        case billingIssueDetectedAt, unsubscribeDetectedAt, autoRenewProductId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isActive = try container.decode(Bool.self, forKey: .isActive)
        state = try container.decodeIfPresent(AccessState.self, forKey: .state)
        productId = try container.decodeIfPresent(ProductID.self, forKey: .productId)
        transactionId = try container.decodeIfPresent(TransactionID.self, forKey: .transactionId)
        originalTransactionId = try container.decodeIfPresent(
            OriginalTransactionID.self, forKey: .originalTransactionId)
        expiresDate = try container.decodeMillisecondDateIfPresent(forKey: .expiresDate)
        willRenew = try container.decodeIfPresent(Bool.self, forKey: .willRenew)
        period = try container.decodeIfPresent(PricingPeriod.self, forKey: .period)
        ownership = try container.decodeIfPresent(OwnershipType.self, forKey: .ownership)
        originalPurchaseDate = try container.decodeMillisecondDateIfPresent(forKey: .originalPurchaseDate)
        latestPurchaseDate = try container.decodeMillisecondDateIfPresent(forKey: .latestPurchaseDate)
        revocationDate = try container.decodeMillisecondDateIfPresent(forKey: .revocationDate)
        gracePeriodExpiresDate = try container.decodeMillisecondDateIfPresent(forKey: .gracePeriodExpiresDate)
        billingIssueDetectedAt = try container.decodeMillisecondDateIfPresent(forKey: .billingIssueDetectedAt)
        unsubscribeDetectedAt = try container.decodeMillisecondDateIfPresent(forKey: .unsubscribeDetectedAt)
        autoRenewProductId = try container.decodeIfPresent(ProductID.self, forKey: .autoRenewProductId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isActive, forKey: .isActive)
        try container.encode(state, forKey: .state)
        try container.encode(productId, forKey: .productId)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        let dates: [(Date?, CodingKeys)] = [
            (expiresDate, .expiresDate), (originalPurchaseDate, .originalPurchaseDate),
            (latestPurchaseDate, .latestPurchaseDate), (revocationDate, .revocationDate),
            (gracePeriodExpiresDate, .gracePeriodExpiresDate), (billingIssueDetectedAt, .billingIssueDetectedAt),
            (unsubscribeDetectedAt, .unsubscribeDetectedAt),
        ]
        for (date, key) in dates {
            if let date {
                try container.encodeWholeMillisecondDateIfPresent(date, forKey: key)
            } else {
                try container.encodeNil(forKey: key)
            }
        }
        try container.encode(willRenew, forKey: .willRenew)
        try container.encode(period, forKey: .period)
        try container.encode(ownership, forKey: .ownership)
        try container.encode(autoRenewProductId, forKey: .autoRenewProductId)
    }
}
