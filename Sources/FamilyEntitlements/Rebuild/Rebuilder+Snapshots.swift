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
    ///
    /// A transaction whose newest snapshot was left out (another environment, none, or missing fields) grants
    /// nothing: that snapshot may carry a refund, so the older ones are not trusted to grant.
    mutating func newestTransactions(_ admitted: AdmittedEntries) -> [String: TransactionPayload] {
        var newest = newestTransactions(admitted.transactions)
        for (transactionId, rejectedDate) in admitted.rejected {
            guard let kept = newest[transactionId], rejectedDate >= (kept.signedDate ?? .distantPast) else { continue }
            newest[transactionId] = nil
            hasUntrustedTransactions = true
            report(
                .error, .untrustedSnapshot,
                "transaction \(transactionId) has a newer snapshot that was left out; older snapshots are not "
                    + "trusted to grant, so it grants nothing")
        }
        return newest
    }

    private mutating func newestTransactions(_ snapshots: [TransactionPayload]) -> [String: TransactionPayload] {
        var newest: [String: TransactionPayload] = [:]
        var tied: [String: [TransactionPayload]] = [:]
        for snapshot in snapshots {
            guard let transactionId = snapshot.transactionId else { continue }
            guard let current = newest[transactionId] else {
                newest[transactionId] = snapshot
                continue
            }
            switch Self.order(snapshot, current) {
            case .newer:
                newest[transactionId] = snapshot
                tied[transactionId] = nil
            case .tied:
                tied[transactionId, default: [current]].append(snapshot)
            case .older, .same:
                break
            }
        }
        for (transactionId, candidates) in tied {
            report(
                .warning, .conflictingSnapshots,
                "transaction \(transactionId) has different snapshots with the same signedDate; the one whose JSON "
                    + "sorts first is used")
            newest[transactionId] = Self.first(byJSON: candidates)
        }
        return newest
    }

    private enum SnapshotOrder { case newer, older, same, tied }

    /// How a snapshot compares with the newest one so far: by signedDate, then the revoking one first.
    private static func order(_ candidate: TransactionPayload, _ current: TransactionPayload) -> SnapshotOrder {
        let (new, old) = (candidate.signedDate ?? .distantPast, current.signedDate ?? .distantPast)
        if new != old { return new > old ? .newer : .older }
        if candidate == current { return .same }
        let (newRevokes, oldRevokes) = (candidate.revocationDate != nil, current.revocationDate != nil)
        if newRevokes != oldRevokes { return newRevokes ? .newer : .older }
        return .tied
    }

    /// The newest renewal info of each subscription chain, by original transaction id.
    mutating func newestRenewalInfos(_ snapshots: [RenewalInfoPayload]) -> [String: RenewalInfoPayload] {
        var newest: [String: RenewalInfoPayload] = [:]
        var tied: [String: [RenewalInfoPayload]] = [:]
        for snapshot in snapshots {
            guard let originalId = snapshot.originalTransactionId else { continue }
            guard let current = newest[originalId] else {
                newest[originalId] = snapshot
                continue
            }
            let (new, old) = (snapshot.signedDate ?? .distantPast, current.signedDate ?? .distantPast)
            if new > old {
                newest[originalId] = snapshot
                tied[originalId] = nil
            } else if new == old, snapshot != current {
                tied[originalId, default: [current]].append(snapshot)
            }
        }
        for (originalId, candidates) in tied {
            report(
                .warning, .conflictingSnapshots,
                "renewal info of original transaction \(originalId) has different snapshots with the same "
                    + "signedDate; the one whose JSON sorts first is used")
            newest[originalId] = Self.first(byJSON: candidates)
        }
        return newest
    }

    /// The value whose canonical JSON sorts first, so that a tie never depends on the order of arrival.
    private static func first<T: AppStorePayload>(byJSON candidates: [T]) -> T? {
        candidates.map { (value: $0, json: (try? PayloadJSON.encode($0)) ?? Data()) }
            .min { $0.json.lexicographicallyPrecedes($1.json) }?.value
    }
}
