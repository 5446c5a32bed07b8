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
    /// Returns positions in `admitted.transactions`.
    mutating func newestTransactions(_ admitted: AdmittedEntries) -> [String: Int] {
        let store = admitted.transactions
        var newest = newest(
            admitted.admittedIndices, key: { store[$0].transactionId }, signed: { store[$0].signedDate },
            revokes: { store[$0].revocationDate != nil }, same: { store[$0] == store[$1] },
            json: { (try? PayloadJSON.encode(store[$0])) ?? Data() }, name: { "transaction \($0)" })
        for (transactionId, rejectedDate) in admitted.rejected {
            guard let kept = newest[transactionId],
                rejectedDate >= (admitted.transactions[kept].signedDate ?? .distantPast)
            else { continue }
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
            Array(snapshots.indices), key: { snapshots[$0].originalTransactionId },
            signed: { snapshots[$0].signedDate },
            revokes: { _ in false }, same: { snapshots[$0] == snapshots[$1] },
            json: { (try? PayloadJSON.encode(snapshots[$0])) ?? Data() },
            name: { "renewal info of original transaction \($0)" }
        ).mapValues { snapshots[$0] }
    }

    /// The newest snapshot by key: the newest signedDate, then a revoking one; a remaining tie is reported and
    /// resolved by canonical JSON, so that the answer never depends on the order of arrival.
    private mutating func newest(
        _ indices: [Int], key: (Int) -> String?, signed: (Int) -> Date?, revokes: (Int) -> Bool,
        same: (Int, Int) -> Bool, json: (Int) -> Data, name: (String) -> String
    ) -> [String: Int] {
        var newest: [String: Int] = [:]
        newest.reserveCapacity(indices.count)
        var tied: [String: [Int]] = [:]
        for index in indices {
            guard let id = key(index) else { continue }
            // One lookup per snapshot: the slot is judged and updated in place.
            let offer = Self.offer(index, to: &newest[id]) { current in
                let (new, old) = (signed(index) ?? .distantPast, signed(current) ?? .distantPast)
                let (newRevokes, oldRevokes) = (revokes(index), revokes(current))
                if new > old || (new == old && newRevokes && !oldRevokes) { return .replaces }
                if new == old, newRevokes == oldRevokes, !same(index, current) { return .ties(current) }
                return .yields
            }
            switch offer {
            case .first, .yields: break
            case .replaces: if !tied.isEmpty { tied[id] = nil }
            case .ties(let current): tied[id, default: [current]].append(index)
            }
        }
        for (id, candidates) in tied {
            report(
                .warning, .conflictingSnapshots,
                "\(name(id)) has different snapshots with the same signedDate; the one whose JSON sorts first is used")
            newest[id] =
                candidates.map { (index: $0, json: json($0)) }
                .min { $0.json.lexicographicallyPrecedes($1.json) }?.index
        }
        return newest
    }

    /// What a snapshot offered for a key did: took an empty slot, replaced the one there, tied with it, or yielded.
    private enum Offer {
        case first, replaces, ties(Int), yields
    }

    /// Offers the snapshot at `index` to a slot of the newest snapshots, judged against the one already there.
    private static func offer(_ index: Int, to slot: inout Int?, judge: (Int) -> Offer) -> Offer {
        guard let current = slot else {
            slot = index
            return .first
        }
        let offer = judge(current)
        if case .replaces = offer { slot = index }
        return offer
    }
}
