#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A rebuild's evaluation after admission, with the entries of some original transaction ids (`groups`) kept apart,
/// evaluated each on its own: admission and the newest snapshots do not depend on the instant between two of the
/// dates they compare it against, so `Staleness` evaluates only those groups again at a later instant. Valid only
/// while `store` is.
struct Evaluation {
    let store: PayloadStore
    /// The dates admission made of each transaction of `store`, position by position.
    let dates: [TransactionDates]
    let facts: NotificationFacts
    /// What admission, the newest snapshots, the consumables, the other groups and the products no group names
    /// noticed.
    let log: DiagnosticsLog
    /// The decisions of the products no group names, sorted by product id, and their facts, position by position.
    let products: [ProductDecision]
    let productFacts: [ProductFacts]
    /// The candidates of the other entries, for the products a group names.
    let candidates: [String: [Candidate]]
    /// The products a group names, sorted.
    let apartProducts: [String]
    var groups: [String: EvaluationGroup]
    let namesAPurchase: Bool
    let mixedBundles: Bool
    /// The paths of the signed strings the history's notifications hold without decoded contents (rule 10).
    let undecoded: [String]
    /// The entries the evaluation read, its groups' included.
    let read: EntriesRead

    /// The candidates and products a summary of this evaluation reads.
    var summaryRead: Int {
        products.count + candidates.values.reduce(0) { $0 + $1.count }
            + groups.values.reduce(0) { $0 + $1.candidates.count }
    }
}

/// The entries of one original transaction id that take part (its subscription chain, its one-time purchases), and
/// their candidates and diagnostics as last evaluated.
struct EvaluationGroup {
    var chain: (originalId: String, context: ChainContext)?
    var oneTime: [(index: Int, dates: TransactionDates, productId: String, type: ProductType?)] = []
    var candidates: [(productId: String, candidate: Candidate)] = []
    var log = DiagnosticsLog()

    /// How many of Apple's statuses name the group's chain.
    var statuses = 0

    /// The entries an evaluation of the group's chain reads.
    var chainSize: Int { chain?.context.readCount(statuses: statuses) ?? 0 }

    /// The entries an evaluation of the group reads, but for the chain read again where the cross-check evaluates it
    /// at the instant Apple signed its status (which `read` holds once it is evaluated).
    var size: Int { chainSize + oneTime.count }

    /// The entries the group's last evaluation read.
    private(set) var read = EntriesRead()

    /// Evaluates the group at `rebuild`'s instant, noting in `read` the entries it read.
    mutating func evaluate(by rebuild: Rebuild, store: PayloadStore, facts: NotificationFacts) {
        var log = DiagnosticsLog()
        var candidates: [(productId: String, candidate: Candidate)] = []
        read = EntriesRead(chainEntries: 0, purchaseEntries: oneTime.count)
        if let chain {
            let evaluated = rebuild.evaluate(chain.context, originalId: chain.originalId, facts: facts, log: &log)
            (candidates, read.chainEntries) = (evaluated.candidates, evaluated.read)
        }
        if !oneTime.isEmpty {
            let evaluator = OneTimePurchases(scope: rebuild.scope)
            for (index, dates, productId, type) in oneTime {
                candidates.append(
                    (
                        productId,
                        evaluator.evaluate(at: index, in: store, dates: dates, type: type, facts: facts, log: &log)
                    ))
            }
        }
        (self.candidates, self.log) = (candidates, log)
    }
}

/// The entries an evaluation read: each chain's (with its notices and Apple's statuses, and the chain again where the
/// cross-check evaluates it at the instant of Apple's status) and each one-time purchase's. Stated by the evaluation
/// that read them; `RebuildCost` counts the work from them.
struct EntriesRead: Hashable {
    var chainEntries = 0
    var purchaseEntries = 0

    static func += (lhs: inout EntriesRead, rhs: EntriesRead) {
        lhs.chainEntries += rhs.chainEntries
        lhs.purchaseEntries += rhs.purchaseEntries
    }
}
