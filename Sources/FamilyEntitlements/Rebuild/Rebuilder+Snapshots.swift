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

    /// The newest renewal info of each subscription chain, by original transaction id, by the same rule.
    mutating func newestRenewalInfos(_ snapshots: [RenewalInfoPayload]) -> [String: RenewalInfoPayload] {
        newest(
            snapshots, key: \.originalTransactionId, signed: \.signedDate, revokes: { _ in false },
            name: { "renewal info of original transaction \($0)" })
    }

    private mutating func newestTransactions(_ snapshots: [TransactionPayload]) -> [String: TransactionPayload] {
        newest(
            snapshots, key: \.transactionId, signed: \.signedDate, revokes: { $0.revocationDate != nil },
            name: { "transaction \($0)" })
    }

    /// The newest snapshot by key: the newest signedDate, then a revoking one; a remaining tie is reported and
    /// resolved by canonical JSON, so that the answer never depends on the order of arrival.
    private mutating func newest<T: AppStorePayload>(
        _ snapshots: [T], key: (T) -> String?, signed: (T) -> Date?, revokes: (T) -> Bool, name: (String) -> String
    ) -> [String: T] {
        var newest: [String: T] = [:]
        var tied: [String: [T]] = [:]
        for snapshot in snapshots {
            guard let id = key(snapshot) else { continue }
            guard let current = newest[id] else {
                newest[id] = snapshot
                continue
            }
            let (new, old) = (signed(snapshot) ?? .distantPast, signed(current) ?? .distantPast)
            let (newRevokes, oldRevokes) = (revokes(snapshot), revokes(current))
            if new > old || (new == old && newRevokes && !oldRevokes) {
                newest[id] = snapshot
                tied[id] = nil
            } else if new == old, newRevokes == oldRevokes, snapshot != current {
                tied[id, default: [current]].append(snapshot)
            }
        }
        for (id, candidates) in tied {
            report(
                .warning, .conflictingSnapshots,
                "\(name(id)) has different snapshots with the same signedDate; the one whose JSON sorts first is used")
            newest[id] = Self.first(byJSON: candidates)
        }
        return newest
    }

    /// The value whose canonical JSON sorts first, so that a tie never depends on the order of arrival.
    private static func first<T: AppStorePayload>(byJSON candidates: [T]) -> T? {
        candidates.map { (value: $0, json: (try? PayloadJSON.encode($0)) ?? Data()) }
            .min { $0.json.lexicographicallyPrecedes($1.json) }?.value
    }
}
