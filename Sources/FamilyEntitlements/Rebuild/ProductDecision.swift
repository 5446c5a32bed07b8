#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The decision for one product: whether the customer has access, in which state, and why.
public struct ProductDecision: Hashable, Sendable {
    /// The product identifier.
    public var productId: String
    /// The product's type, from the transaction or the catalog.
    public var type: ProductType?
    /// Where the product stands.
    public var state: AccessState
    /// Whether the customer may use the product now.
    public var hasAccess: Bool
    /// The ownership of the reported transaction: PURCHASED, FAMILY_SHARED, or a value Apple added.
    public var ownership: OwnershipType?
    /// Why access was revoked, when the state is `revoked`.
    public var revocationCause: RevocationCause?
    /// Whether the cause was inferred from an older payload rather than stated by `revocationType`.
    public var causeInferred: Bool
    /// When access ends (or ended) unless renewed: the expiry, the end of a non-renewing duration, or the end of grace.
    public var expiresDate: Date?
    /// Whether the subscription will renew: nil when unknown or for products that do not renew.
    public var willRenew: Bool?
    /// Whether the customer may cancel or change the plan: false for family members.
    public var canManage: Bool
    /// How the reported transaction's period is paid.
    public var period: PricingPeriod
    /// The price of the reported transaction, where it carries a price and a currency.
    public var price: Money?
    /// The transaction the decision reports: the one that grants (PURCHASED preferred), or else the newest.
    public var transactionId: String
    /// The original transaction identifier of the reported transaction.
    public var originalTransactionId: String
    /// The evidence, in words: which transaction granted or ended access and which rule applied.
    public var because: [String]

    public init(
        productId: String, type: ProductType? = nil, state: AccessState, hasAccess: Bool,
        ownership: OwnershipType? = nil, revocationCause: RevocationCause? = nil, causeInferred: Bool = false,
        expiresDate: Date? = nil, willRenew: Bool? = nil, canManage: Bool = false, period: PricingPeriod = .normal,
        price: Money? = nil, transactionId: String, originalTransactionId: String, because: [String] = []
    ) {
        self.productId = productId
        self.type = type
        self.state = state
        self.hasAccess = hasAccess
        self.ownership = ownership
        self.revocationCause = revocationCause
        self.causeInferred = causeInferred
        self.expiresDate = expiresDate
        self.willRenew = willRenew
        self.canManage = canManage
        self.period = period
        self.price = price
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.because = because
    }
}
