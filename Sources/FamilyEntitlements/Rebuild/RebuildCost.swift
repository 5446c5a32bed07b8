#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a rebuild did, counted in entries rather than timed: the deterministic counter the cost property and the
/// benchmark read. `package`, not public: it describes the engine, not the decision.
///
/// Every piece of work whose size depends on the history is counted by the entries it reads: each evaluation of a
/// subscription chain counts the chain's entries (and the notices and statuses it reads), each evaluation of a one-time purchase one, each report summarised
/// the candidates and products it reads, and each whole rebuild (which `validUntil` may run) everything it does.
package struct RebuildCost: Hashable, Sendable {
    /// Entries admitted, summed over every rebuild of the whole history.
    package var admitted = 0
    /// Chain entries evaluated, with the chain's renewal notices and Apple's statuses that each evaluation reads,
    /// summed over every evaluation of a chain.
    package var chainEntries = 0
    /// One-time purchase entries evaluated (rule 4's non-consumables, non-renewing subscriptions and products of
    /// unknown type), each one entry.
    package var purchaseEntries = 0
    /// Candidates and products read to summarise a report, summed over every summary.
    package var summarised = 0
    /// Whole rebuilds of the history after the first (their work is counted in the fields above too).
    package var wholeRebuilds = 0
    /// Entries read by the plan of `validUntil`'s boundaries.
    package var planned = 0

    package init() {}

    /// The work of one rebuild of `history`: every entry admitted, every one planned where `validUntil` was planned,
    /// what the evaluation says it read, and what its summary read.
    init(history: History, planned: Bool, read: EntriesRead, summarised: Int) {
        admitted = history.count
        self.planned = planned ? history.count : 0
        self.read = read
        self.summarised = summarised
    }

    /// The chain and one-time purchase entries evaluated, as the evaluations said they read them.
    var read: EntriesRead {
        get { EntriesRead(chainEntries: chainEntries, purchaseEntries: purchaseEntries) }
        set { (chainEntries, purchaseEntries) = (newValue.chainEntries, newValue.purchaseEntries) }
    }

    /// All the work, in entries.
    package var total: Int { admitted + chainEntries + purchaseEntries + summarised + planned }

    static func += (lhs: inout RebuildCost, rhs: RebuildCost) {
        lhs.admitted += rhs.admitted
        lhs.chainEntries += rhs.chainEntries
        lhs.purchaseEntries += rhs.purchaseEntries
        lhs.summarised += rhs.summarised
        lhs.wholeRebuilds += rhs.wholeRebuilds
        lhs.planned += rhs.planned
    }
}

/// `rebuildEntitlements(history:asOf:environment:catalog:decodingWarnings:)` with the work it did: for the cost
/// property and the benchmark.
package func rebuildEntitlementsCountingCost(
    history: History, asOf instant: Date, environment: Environment = .production, catalog: ProductCatalog? = nil,
    validUntilBudget: Staleness.Budget = .standard
) -> (report: EntitlementReport, cost: RebuildCost) {
    let scope = RebuildScope(instant: instant, environment: environment, catalog: catalog)
    return Rebuild(scope: scope).report(of: history, findingValidUntil: true, budget: validUntilBudget)
}
