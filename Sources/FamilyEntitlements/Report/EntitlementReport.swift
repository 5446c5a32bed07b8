#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `rebuildEntitlements(history:asOf:)` decided for one customer at one instant.
public struct EntitlementReport: Hashable, Sendable {
    /// The instant of evaluation.
    public var asOf: Date
    /// The environment the rebuild ran for; entries of other environments never grant.
    public var environment: Environment
    /// New, active, or inactive with why.
    public var customer: CustomerStanding
    /// One decision per product id that a non-consumable, non-renewing or auto-renewable transaction names, sorted
    /// by product id.
    public var products: [ProductDecision]
    /// Whether each entitlement is unlocked, by entitlement id.
    public var entitlements: [EntitlementID: Bool]
    /// What the rebuild noticed, sorted; never dropped.
    public var diagnostics: [Diagnostic]
    /// When the report goes stale: the earliest instant after `asOf` at which the same history gives another
    /// decision (an expiry, the end of a grace period or of the 60-day billing-retry limit, the end of a non-renewing
    /// duration, a purchase or a snapshot dated after `asOf`), or nil when time alone changes nothing. A service may
    /// cache the report until then; a new entry in the history makes it stale at once.
    ///
    /// "Another decision" means another customer status or reason, product state, access, willRenew or revocation
    /// cause, other entitlements or other diagnostic codes; the evidence's wording does not count.
    public var validUntil: Date?
    /// One answer per entitlement id of `entitlements`, with the product and transaction that answer for it; see
    /// `EntitlementDecision` for which product answers where several unlock the entitlement.
    public var entitlementDecisions: [EntitlementID: EntitlementDecision]

    public init(
        asOf: Date, environment: Environment, customer: CustomerStanding, products: [ProductDecision],
        entitlements: [EntitlementID: Bool], diagnostics: [Diagnostic], validUntil: Date? = nil,
        entitlementDecisions: [EntitlementID: EntitlementDecision] = [:]
    ) {
        self.asOf = asOf
        self.environment = environment
        self.customer = customer
        self.products = products
        self.entitlements = entitlements
        self.diagnostics = diagnostics
        self.validUntil = validUntil
        self.entitlementDecisions = entitlementDecisions
    }

    /// New, active or inactive: the customer's standing without its reason.
    public var customerStatus: CustomerStatus { customer.status }

    /// Why an inactive customer has no access; nil unless inactive.
    public var customerReason: InactiveReason? { customer.inactiveReason }

    /// The decision for a product, if the history names it.
    public func decision(for productId: ProductID) -> ProductDecision? {
        products.first { $0.productId == productId }
    }

    /// The answer for an entitlement; nil for one the report does not know.
    public func entitlementDecision(for entitlement: EntitlementID) -> EntitlementDecision? {
        entitlementDecisions[entitlement]
    }

    /// Whether an entitlement is unlocked; false for one the report does not know.
    public func hasAccess(to entitlement: EntitlementID) -> Bool {
        entitlements[entitlement] ?? false
    }
}
