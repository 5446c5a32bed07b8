#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a report goes stale: the earliest instant after the report's at which the same history gives another
/// decision, or nil when time alone changes nothing.
///
/// Every comparison the rebuild makes against its instant is of the form "a date is at or before the instant" or
/// "the instant is before a date", and every such date is either named by the history (a purchase, an expiry, a
/// revocation, a grace period's end, a snapshot's or a notification's signedDate) or derived from one by a rule (the
/// end of the billing-retry limit, the end of a non-renewing duration). The decision is therefore constant from one
/// of those dates up to the next: the first of them after the instant whose decision differs is where the report
/// goes stale. Only those boundaries are evaluated, in order, stopping at the first change; a history with no date
/// after the instant costs nothing more.
struct Staleness: RebuildStage {
    static let rules: [DecisionRule] = [DecisionRule.customerStatus]
    let scope: RebuildScope

    /// The first boundary after the instant at which `history` gives a decision other than `report`'s.
    func validUntil(of report: EntitlementReport, history: History) -> Date? {
        let boundaries = self.boundaries(of: history)
        guard !boundaries.isEmpty else { return nil }
        let decision = DecisionKey(report)
        for boundary in boundaries {
            let later = Rebuild(
                scope: RebuildScope(instant: boundary, environment: environment, catalog: catalog)
            ).report(of: history)
            if DecisionKey(later) != decision { return boundary }
        }
        return nil
    }

    /// Every date after the instant that the rebuild may compare the instant against, sorted, each once.
    func boundaries(of history: History) -> [Date] {
        var dates: Set<Date> = []
        let instant = self.instant
        func add(_ date: Date?) {
            if let date, date > instant { dates.insert(date) }
        }
        func add(_ transaction: TransactionPayload) {
            add(transaction.purchaseDate)
            add(transaction.signedDate)
            add(transaction.revocationDate)
            if let expires = transaction.expiresDate {
                add(expires)
                add(SubscriptionChains.billingRetryEnd(after: expires))
            }
            if let purchase = transaction.purchaseDate,
                let duration = transaction.productId.flatMap({ catalogProducts[ProductID($0)]?.duration })
            {
                add(duration.added(to: purchase))
            }
        }
        func add(_ renewalInfo: RenewalInfoPayload) {
            add(renewalInfo.signedDate)
            add(renewalInfo.gracePeriodExpiresDate)
        }
        for transaction in history.transactions { add(transaction) }
        for renewalInfo in history.renewalInfos { add(renewalInfo) }
        for notification in history.notifications {
            add(notification.signedDate)
            if let transaction = notification.data?.transactionInfo { add(transaction) }
            if let renewalInfo = notification.data?.renewalInfo { add(renewalInfo) }
        }
        for snapshot in history.subscriptionStatuses { add(snapshot.signedDate) }
        return dates.sorted()
    }
}

/// What "the same decision" means for `validUntil`: every field a service acts on (the per-entitlement answers
/// included), without the evidence's wording.
struct DecisionKey: Equatable {
    struct Product: Equatable {
        var productId: ProductID
        var state: AccessState
        var willRenew: Bool?
        var revocationCause: RevocationCause?
        var causeInferred: Bool
    }

    var customer: CustomerStanding
    var products: [Product]
    var entitlements: [EntitlementID: Bool]
    var diagnostics: Set<Diagnostic.Code>
    var entitlementDecisions: [EntitlementID: EntitlementDecision]

    init(_ report: EntitlementReport) {
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
