#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The decision for one product: whether the customer has access, in which state, and why.
public struct ProductDecision: Hashable, Sendable {
    /// The product identifier.
    public var productId: ProductID
    /// The product's type, from the transaction or the catalog.
    public var type: ProductType?
    /// Where the product stands; whether the customer has access follows from it.
    public var state: AccessState
    /// The ownership of the reported transaction: PURCHASED, FAMILY_SHARED, or a value Apple added.
    public var ownership: OwnershipType?
    /// Why access was revoked, and whether that was stated or inferred, when the state is `revoked`.
    public var revocation: RevocationCauseFinding?
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
    public var transactionId: TransactionID
    /// The original transaction identifier of the reported transaction.
    public var originalTransactionId: OriginalTransactionID
    /// The evidence as data: which transaction, snapshot, notification and instant, and the rule that applied.
    public var reasons: [Reason]

    public init(
        productId: ProductID, type: ProductType? = nil, state: AccessState, ownership: OwnershipType? = nil,
        revocation: RevocationCauseFinding? = nil, expiresDate: Date? = nil, willRenew: Bool? = nil,
        canManage: Bool = false, period: PricingPeriod = .normal, price: Money? = nil, transactionId: TransactionID,
        originalTransactionId: OriginalTransactionID, reasons: [Reason] = []
    ) {
        self.productId = productId
        self.type = type
        self.state = state
        self.ownership = ownership
        self.revocation = revocation
        self.expiresDate = expiresDate
        self.willRenew = willRenew
        self.canManage = canManage
        self.period = period
        self.price = price
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.reasons = reasons
    }

    /// Whether the customer may use the product now: whether its state grants access.
    public var hasAccess: Bool { state.grantsAccess }

    /// Why access was revoked, when the state is `revoked`.
    public var revocationCause: RevocationCause? { revocation?.cause }

    /// Whether the cause was inferred from an older payload rather than stated by `revocationType`.
    public var causeInferred: Bool { revocation?.isInferred ?? false }

    /// The evidence in words, written from `reasons` when read.
    public var because: [String] { reasons.map(\.text) }
}
