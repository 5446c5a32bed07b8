#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rebuilder {
    /// The newest snapshot of each transaction, by transaction id: rule 1 of the decision table.
    ///
    /// The newest signedDate wins; at equal signedDates the revoking snapshot wins, so a refund is never lost to a
    /// snapshot signed in the same millisecond. Two other snapshots that differ at one signedDate are reported, and
    /// the one whose JSON sorts first is kept, so that order never matters.
    mutating func newestTransactions(_ snapshots: [TransactionPayload]) -> [String: TransactionPayload] {
        var newest: [String: TransactionPayload] = [:]
        for snapshot in snapshots {
            guard let transactionId = snapshot.transactionId else { continue }
            guard let current = newest[transactionId] else {
                newest[transactionId] = snapshot
                continue
            }
            if isNewer(snapshot, than: current, what: "transaction \(transactionId)") {
                newest[transactionId] = snapshot
            }
        }
        return newest
    }

    /// The newest renewal info of each subscription chain, by original transaction id.
    mutating func newestRenewalInfos(_ snapshots: [RenewalInfoPayload]) -> [String: RenewalInfoPayload] {
        var newest: [String: RenewalInfoPayload] = [:]
        for snapshot in snapshots {
            guard let originalId = snapshot.originalTransactionId else { continue }
            guard let current = newest[originalId] else {
                newest[originalId] = snapshot
                continue
            }
            let (new, old) = (snapshot.signedDate ?? .distantPast, current.signedDate ?? .distantPast)
            if new > old
                || (new == old && snapshot != current
                    && tieBreak(snapshot, current, what: "renewal info of original transaction \(originalId)"))
            {
                newest[originalId] = snapshot
            }
        }
        return newest
    }

    private mutating func isNewer(_ candidate: TransactionPayload, than current: TransactionPayload, what: String)
        -> Bool
    {
        let (new, old) = (candidate.signedDate ?? .distantPast, current.signedDate ?? .distantPast)
        if new != old { return new > old }
        if candidate == current { return false }
        let (newRevokes, oldRevokes) = (candidate.revocationDate != nil, current.revocationDate != nil)
        if newRevokes != oldRevokes { return newRevokes }
        return tieBreak(candidate, current, what: what)
    }

    /// Whether `candidate` sorts before `current` by its canonical JSON; reports the conflict.
    private mutating func tieBreak<T: AppStorePayload>(_ candidate: T, _ current: T, what: String) -> Bool {
        report(
            .warning, .conflictingSnapshots,
            "\(what) has two different snapshots with the same signedDate; the one whose JSON sorts first is used")
        let candidateJSON = (try? PayloadJSON.encode(candidate)) ?? Data()
        let currentJSON = (try? PayloadJSON.encode(current)) ?? Data()
        return candidateJSON.lexicographicallyPrecedes(currentJSON)
    }
}
