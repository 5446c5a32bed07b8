import FamilyEntitlements

/// What "the same decision" means for the ledger's compaction: every field a service acts on, without the wording of
/// the evidence. Kept in one place, so that a change of the report's fields is one change here.
struct DecisionSummary: Hashable, CustomStringConvertible {
    struct Product: Hashable {
        var productId: ProductID
        var state: AccessState
        var hasAccess: Bool
        var willRenew: Bool?
        var revocationCause: RevocationCause?
        var causeInferred: Bool
    }

    var customerStatus: CustomerStatus
    var customerReason: InactiveReason?
    var products: [Product]
    var entitlements: [EntitlementID: Bool]
    var diagnostics: Set<Diagnostic.Code>
    /// The per-entitlement answers, each field of which a service reads directly.
    var entitlementDecisions: [EntitlementID: EntitlementDecision]

    init(_ report: EntitlementReport) {
        entitlementDecisions = report.entitlementDecisions
        customerStatus = report.customerStatus
        customerReason = report.customerReason
        products = report.products.map {
            Product(
                productId: $0.productId, state: $0.state, hasAccess: $0.hasAccess, willRenew: $0.willRenew,
                revocationCause: $0.revocationCause, causeInferred: $0.causeInferred)
        }
        entitlements = report.entitlements
        diagnostics = Set(report.diagnostics.map(\.code))
    }

    var description: String {
        "\(customerStatus) \(customerReason.map { "\($0)" } ?? "-") \(products) \(entitlements) "
            + "\(diagnostics.map(\.rawValue).sorted()) \(entitlementDecisions)"
    }
}
