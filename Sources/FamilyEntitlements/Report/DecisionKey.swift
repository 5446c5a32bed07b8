/// What a report decides, as a value: every field a service acts on, without the evidence's wording. Two reports
/// decide the same when their keys are equal (`report.decidesTheSame(as:)`), and `validUntil` is the first instant at
/// which the same history's key changes.
///
/// It holds the customer's status and reason; each product's id, state, willRenew, revocation cause and whether that
/// cause was inferred; the entitlements; the per-entitlement answers (`entitlementDecisions`, with their dates and
/// transactions); and the diagnostic codes. It leaves out `asOf`, `validUntil`, the evidence (`because`, diagnostic
/// messages), and each product's dates, price and reported transaction, which a renewal moves without changing what
/// the customer may use (`changes(from:)` lists nothing for such a renewal either).
public struct DecisionKey: Hashable, Sendable {
    /// One product's part of the decision.
    public struct Product: Hashable, Sendable {
        public var productId: ProductID
        public var state: AccessState
        public var willRenew: Bool?
        public var revocationCause: RevocationCause?
        public var causeInferred: Bool
    }

    public var customer: CustomerStanding
    /// The products, in the report's order (by product id).
    public var products: [Product]
    public var entitlements: [EntitlementID: Bool]
    public var diagnostics: Set<Diagnostic.Code>
    public var entitlementDecisions: [EntitlementID: EntitlementDecision]

    /// The decision of a report.
    public init(_ report: EntitlementReport) {
        entitlementDecisions = report.entitlementDecisions
        customer = report.customer
        products = report.products.map {
            Product(
                productId: $0.productId, state: $0.state, willRenew: $0.willRenew,
                revocationCause: $0.revocationCause, causeInferred: $0.causeInferred)
        }
        entitlements = report.entitlements
        diagnostics = Set(report.diagnostics.map(\.code))
    }
}

extension EntitlementReport {
    /// What this report decides, without the evidence's wording: see `DecisionKey`.
    public var decisionKey: DecisionKey { DecisionKey(self) }

    /// Whether two reports decide the same: every field a service acts on is equal, the evidence's wording, the dates
    /// of the decision (`asOf`, `validUntil`) and each product's dates, price and reported transaction aside: the
    /// equality `validUntil` is computed with.
    public func decidesTheSame(as other: EntitlementReport) -> Bool {
        DecisionKey(self) == DecisionKey(other)
    }
}
