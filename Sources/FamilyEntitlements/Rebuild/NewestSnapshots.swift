#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 2 of the rebuild, rule 1: the snapshot of each transaction and renewal info that speaks for it at the instant.
struct NewestSnapshots: RebuildStage {
    let scope: RebuildScope

    /// The snapshot of each transaction that speaks for it at the instant, by transaction id: rule 1 of the decision
    /// table.
    ///
    /// The newest snapshot signed by the instant wins; a snapshot signed after it is used only where nothing signed
    /// by then is known (Get Transaction History signs every snapshot when it answers), the earliest such first. A
    /// snapshot signed later never undoes a revocation or an expiry known at the instant, but one whose
    /// revocationDate is at or before the instant is used instead of a snapshot that shows no revocation by then: a
    /// later snapshot may only take access away. At equal signedDates the snapshot that grants less wins (a
    /// revocation, then the earlier revocation, an upgrade, the earlier expiry), and between equals the one whose
    /// JSON sorts first, so that order never matters; different snapshots at one signedDate are reported.
    ///
    /// A transaction grants nothing, and its purchase is noted as hidden for its chain, where a snapshot that was left
    /// out (another environment or app, none, missing or impossible fields) might have spoken for the instant, or
    /// where its snapshots disagree on what never changes (originalTransactionId, productId, purchaseDate).
    /// Returns, position by position in `admitted.transactions`, whether the snapshot there is the one used, and how
    /// many are.
    func newestTransactions(
        _ admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) -> (isNewest: [Bool], count: Int) {
        // Admission noted each transaction id's first snapshot, by the id's value, as it read the history: only the
        // others are offered, with the transactions that notifications added after the history's own, where their ids
        // are numbers too. The first snapshots are taken, not copied: their positions are changed in place.
        var seeded = admitted.firstSnapshots.map {
            (positions: $0.positions, signedAfterInstant: $0.signedAfterInstant)
        }
        let transactions = admitted.transactions
        let offered = admitted.firstSnapshots.map { $0.others + transactions.indices.dropFirst($0.historyCount) }
        let added = admitted.firstSnapshots.map { transactions.dropFirst($0.historyCount) } ?? []
        admitted.firstSnapshots = nil
        if let offered, added.allSatisfy({ $0.transactionId.map { TransactionKey.value(of: $0) != nil } ?? true }) {
            return newestTransactions(&admitted, offered: offered, seeded: &seeded, log: &log)
        }
        var none: (positions: [TransactionKey: Int], signedAfterInstant: [Int])?
        return newestTransactions(&admitted, offered: admitted.admittedIndices, seeded: &none, log: &log)
    }

    /// `newestTransactions(_:log:)` with the transactions keyed by `Positions.Key`, which gives two ids the same key
    /// exactly where they are the same string; `seeded` holds the first snapshots admission noted, in which case
    /// `offered` holds only the others.
    private func newestTransactions<Positions: SnapshotPositions>(
        _ admitted: inout AdmittedEntries, offered: [Int],
        seeded: inout (positions: Positions, signedAfterInstant: [Int])?, log: inout DiagnosticsLog
    ) -> (isNewest: [Bool], count: Int) where Positions.Key: TransactionIDKey {
        typealias Key = Positions.Key
        let snapshots = TransactionSnapshots<Key>(store: admitted.transactions, dates: admitted.dates, instant: instant)
        let (store, dates) = (snapshots.store, snapshots.dates)
        var inconsistent: Set<Key> = []
        var newest = newest(offered, of: snapshots, seeded: &seeded, inconsistent: &inconsistent, log: &log)
        if !admitted.undated.isEmpty {
            settleUndated(admitted.undated, of: snapshots, in: &newest, log: &log)
        }
        if !inconsistent.isEmpty {
            // Every snapshot of such a transaction hides its purchase: any of its chains may be the one it renews.
            for index in admitted.admittedIndices where snapshots.key(index).map({ inconsistent.contains($0) }) ?? false
            {
                admitted.hide(store[index], purchased: dates[index].purchase)
            }
            for transaction in inconsistent.sorted(by: { $0.transactionId < $1.transactionId }) {
                newest[transaction] = nil
                admitted.hasUntrustedTransactions = true
                log.report(
                    .inconsistentTransaction,
                    "transaction \(transaction.transactionId) has snapshots that disagree on its originalTransactionId, "
                        + "productId or purchaseDate, which never change; it grants nothing")
            }
        }
        for (transactionId, rejectedDate) in admitted.rejected {
            // An id that has no key names no admitted snapshot.
            guard let transaction = Key(transactionId: transactionId), let kept = newest[transaction],
                distrusts(kept: dates[kept].signed, leftOut: rejectedDate)
            else { continue }
            admitted.hide(store[kept], purchased: dates[kept].purchase)
            newest[transaction] = nil
            admitted.hasUntrustedTransactions = true
            log.report(
                .untrustedSnapshot,
                "transaction \(transactionId) has a newer snapshot that was left out; older snapshots are not "
                    + "trusted to grant, so it grants nothing")
        }
        return (newest.takeFlags(count: store.count), newest.count)
    }

    /// Rule 1: an undated snapshot cannot be placed before or after a dated one of its transaction, so where the
    /// snapshot chosen among the dated ones meets undated ones, an undated one that grants less at every instant
    /// (`grantsLess`: less as at a tie, revoked, then the earlier revocation, upgraded, the earlier expiry; of the same
    /// product type; its access ending, by revocation or expiry, no later than the dated one's) is used instead, the
    /// least of them (`precedes`, the JSON between equals), and the meeting is reported. An undated snapshot revoked
    /// after the dated one's access ends, or of a type the dated one does not state, would grant more somewhere, so it
    /// is not used. Where they grant alike, the dated one, placed in time, stays: an undated snapshot never decides by
    /// the order of its JSON alone. Where only undated snapshots are known by the instant, they were chosen among as
    /// before, each counting as signed at the beginning of time.
    private func settleUndated<Positions: SnapshotPositions>(
        _ undated: [Int], of snapshots: TransactionSnapshots<Positions.Key>, in newest: inout Positions,
        log: inout DiagnosticsLog
    ) where Positions.Key: TransactionIDKey {
        var byKey: [Positions.Key: [Int]] = [:]
        for index in undated {
            if let snapshotKey = snapshots.key(index) { byKey[snapshotKey, default: []].append(index) }
        }
        for (snapshotKey, indices) in byKey {
            guard let chosen = newest[snapshotKey], snapshots.signed(chosen) != nil else { continue }
            log.report(
                .undatedEntry,
                "transaction \(snapshotKey.transactionId) has a snapshot without signedDate beside dated ones, so it "
                    + "cannot be placed in time; it is used only where it grants less than the dated one")
            if let least = indices.filter({ snapshots.grantsLessAtEveryInstant($0, than: chosen) }).min(
                by: snapshots.precedes)
            {
                newest[snapshotKey] = least
            }
        }
    }

    /// The renewal info of each subscription chain that speaks for it at the instant, by original transaction id, by
    /// the same rule; at equal signedDates the one that grants less wins (no billing retry, then billing retry
    /// without grace, then the earlier grace end).
    ///
    /// A chain whose newest renewal info was left out has none: its transactions grant on their own, with no grace
    /// period, since the renewal info left out may say that billing retry ended.
    func newestRenewalInfos(_ admitted: AdmittedEntries, log: inout DiagnosticsLog) -> [String: AdmittedRenewalInfo] {
        let snapshots = admitted.renewalInfos
        // Without a renewal info there is none to use, and none left out is newer than one used.
        guard !snapshots.isEmpty else { return [:] }
        let instant = instant
        // Only where a renewal info is signed after the instant: the chains with a purchase by then, whose renewal
        // info set aside is worth reporting.
        let purchased: Set<String> =
            snapshots.contains { instant.precedes($0.signed ?? .distantPast) }
            ? Set(
                admitted.admittedIndices.compactMap { index in
                    admitted.dates[index].purchase.flatMap {
                        instant.hasCome($0) ? admitted.transactions[index].originalTransactionId : nil
                    }
                }) : []
        var unused: Set<String> = []
        var none: (positions: [String: Int], signedAfterInstant: [Int])?
        var newest = newest(
            Array(snapshots.indices), of: RenewalInfoSnapshots(snapshots: snapshots, purchased: purchased),
            seeded: &none, inconsistent: &unused, log: &log)
        for (originalId, rejectedDate) in admitted.rejectedRenewalInfos {
            guard let kept = newest[originalId], distrusts(kept: snapshots[kept].signed, leftOut: rejectedDate)
            else { continue }
            newest[originalId] = nil
            log.report(
                .untrustedSnapshot,
                "renewal info of original transaction \(originalId) has a newer snapshot that was left out; older "
                    + "ones are not trusted, so the chain grants only what its transactions grant on their own")
        }
        return newest.mapValues { snapshots[$0] }
    }

    /// Whether a snapshot left out, the newest of them signed at `leftOut`, makes the one kept untrusted: unless the
    /// kept one was signed by the instant and after every one left out, the left-out one might have spoken for the
    /// instant (or, signed later, taken access away), so the kept one cannot be trusted to grant.
    private func distrusts(kept: RuleInstant?, leftOut: RuleInstant) -> Bool {
        let kept = kept ?? .distantPast
        return instant.precedes(kept) || leftOut >= kept
    }

    fileprivate static func json(of payload: some Encodable) -> Data {
        (try? PayloadJSON.encode(payload)) ?? Data()
    }

    /// The snapshot that speaks for each key at the instant; see `newestTransactions(_:)`.
    private func newest<Positions: SnapshotPositions, Kind: Snapshots>(
        _ indices: [Int], of snapshots: Kind, seeded: inout (positions: Positions, signedAfterInstant: [Int])?,
        inconsistent: inout Set<Positions.Key>, log: inout DiagnosticsLog
    ) -> Positions where Kind.Key == Positions.Key {
        typealias Key = Positions.Key
        let instant = self.instant
        var newest = Positions(minimumCapacity: 0)
        var tied: [Key: [Int]] = [:]
        /// The keys with different snapshots at the signedDate of the one used.
        var conflicted: Set<Key> = []
        /// The snapshots signed after the instant, by key: rare outside an audit of the past.
        var later: [Key: [Int]] = [:]
        if var first = seeded {
            // Taken, not copied: the positions are changed below.
            seeded = nil
            swap(&newest, &first.positions)
            for index in first.signedAfterInstant {
                if let id = snapshots.key(index) { later[id, default: []].append(index) }
            }
        } else {
            newest = Positions(minimumCapacity: indices.count)
        }
        for index in indices {
            guard let id = snapshots.key(index) else { continue }
            let new = snapshots.signed(index) ?? .distantPast
            if instant.precedes(new) { later[id, default: []].append(index) }
            // One lookup for a key seen first, as most are: the slot is taken at once, and given back to the
            // snapshot that was there where the new one does not replace it.
            let offer: Offer
            if let current = newest.updateValue(index, forKey: id) {
                // Each snapshot meets the one in the slot: one that disagrees with any is seen disagreeing with it.
                if !snapshots.hasSameIdentity(index, as: current) { inconsistent.insert(id) }
                let old = snapshots.signed(current) ?? .distantPast
                if new != old {
                    let (isKnown, wasKnown) = (instant.hasCome(new), instant.hasCome(old))
                    // What was signed by the instant first; by then the newest, after it the earliest.
                    let replaces = isKnown != wasKnown ? isKnown : (new > old) == isKnown
                    offer = replaces ? .replaces : .yields
                } else if snapshots.isSame(index, as: current) {
                    offer = .yields
                } else if snapshots.grantsLess(index, than: current) {
                    offer = .settles
                } else if snapshots.grantsLess(current, than: index) {
                    offer = .outweighed
                } else {
                    offer = .ties(current)
                }
                switch offer {
                case .replaces, .settles: break
                default: newest[id] = current
                }
            } else {
                offer = .first
            }
            switch offer {
            case .first, .yields: break
            case .replaces:
                if !tied.isEmpty { tied[id] = nil }
                if !conflicted.isEmpty { conflicted.remove(id) }
            case .settles:
                if !tied.isEmpty { tied[id] = nil }
                conflicted.insert(id)
            case .outweighed: conflicted.insert(id)
            case .ties(let current):
                tied[id, default: [current]].append(index)
                conflicted.insert(id)
            }
        }
        for (id, candidates) in tied {
            newest[id] =
                candidates.map { (index: $0, json: snapshots.json($0)) }
                .min { $0.json.lexicographicallyPrecedes($1.json) }?.index
        }
        for id in conflicted {
            log.report(
                .conflictingSnapshots,
                "\(snapshots.name(id)) has different snapshots with the same signedDate; the one that grants less is used, and "
                    + "between equals the one whose JSON sorts first")
        }
        for (id, signedLater) in later {
            guard let used = newest[id] else { continue }
            let usedSigned = snapshots.signed(used) ?? .distantPast
            // A later snapshot may only take access away: a revocation by the instant that the used one lacks.
            let revokesByThen = signedLater.filter { snapshots.revoked($0).map { instant.hasCome($0) } ?? false }
            if snapshots.revoked(used).map({ instant.precedes($0) }) ?? true, !revokesByThen.isEmpty {
                func order(_ index: Int) -> (RuleInstant, RuleInstant) {
                    (snapshots.revoked(index) ?? .distantPast, snapshots.signed(index) ?? .distantPast)
                }
                let revoking = revokesByThen.min {
                    order($0) != order($1)
                        ? order($0) < order($1) : snapshots.json($0).lexicographicallyPrecedes(snapshots.json($1))
                }
                guard let revoking else { continue }
                newest[id] = revoking
                log.report(
                    .signedAfterInstant,
                    "\(snapshots.name(id)) has a snapshot signed \((snapshots.signed(revoking) ?? .distantPast).evidenceText), after "
                        + "the instant, revoking it by then; it is used, since a later snapshot may take access away "
                        + "but never give it")
                continue
            }
            guard snapshots.isRelevant(used), signedLater.contains(where: { !snapshots.hasSameFacts($0, as: used) })
            else { continue }
            log.report(
                .signedAfterInstant,
                instant.hasCome(usedSigned)
                    ? "\(snapshots.name(id)) has other snapshots signed after the instant; they are set aside and the newest "
                        + "signed by then (\(usedSigned.evidenceText)) is used"
                    : "\(snapshots.name(id)) is known only from snapshots signed after the instant; the earliest "
                        + "(\(usedSigned.evidenceText)) is used and the later ones set aside")
        }
        return newest
    }

    /// What a snapshot offered for a key did: took an empty slot, replaced the one there, or yielded to it; at the
    /// same signedDate, replaced it because it grants less (settles), yielded because it grants more (outweighed),
    /// or tied with it.
    private enum Offer {
        case first, replaces, yields, settles, outweighed, ties(Int)
    }

}

/// What rule 1 asks of a kind of snapshot, read by position: its key (the thing it is a snapshot of), when it was
/// signed, which of two signed together grants less, its revocation, and how it is named and compared.
protocol Snapshots {
    associatedtype Key: Hashable

    /// The key of the snapshot at `index`; nil for one that names none, which takes no part.
    func key(_ index: Int) -> Key?
    func signed(_ index: Int) -> RuleInstant?
    /// Whether, signed at the same instant as the one at `other`, the snapshot at `index` grants less.
    func grantsLess(_ index: Int, than other: Int) -> Bool
    /// When the snapshot says its access was revoked; nil where it says none was.
    func revoked(_ index: Int) -> RuleInstant?
    /// Whether a snapshot set aside beside the one at `index` is worth reporting.
    func isRelevant(_ index: Int) -> Bool
    /// Whether two snapshots are the same payload.
    func isSame(_ index: Int, as other: Int) -> Bool
    /// Whether two snapshots state the same facts, their signing aside.
    func hasSameFacts(_ index: Int, as other: Int) -> Bool
    /// Whether two snapshots agree on what never changes for their key.
    func hasSameIdentity(_ index: Int, as other: Int) -> Bool
    /// The snapshot's JSON, which breaks ties between equals.
    func json(_ index: Int) -> Data
    /// The key in words, as a diagnostic names it.
    func name(_ key: Key) -> String
}

/// The admitted transactions' snapshots, keyed by transaction id.
struct TransactionSnapshots<Key: TransactionIDKey>: Snapshots {
    let store: [TransactionPayload]
    let dates: [TransactionDates]
    let instant: RebuildInstant

    func key(_ index: Int) -> Key? { store[index].transactionId.flatMap(Key.init(transactionId:)) }

    func signed(_ index: Int) -> RuleInstant? { dates[index].signed }

    /// At equal signedDates, what grants less comes first: revoked, then the earlier revocation, upgraded, then the
    /// earlier expiry.
    func restriction(_ index: Int) -> (Int, RuleInstant, Int, RuleInstant) {
        let snapshot = dates[index]
        return (
            snapshot.revocation == nil ? 1 : 0, snapshot.revocation ?? .distantFuture,
            store[index].isUpgraded == true ? 0 : 1, snapshot.expires ?? .distantPast
        )
    }

    func grantsLess(_ index: Int, than other: Int) -> Bool { restriction(index) < restriction(other) }

    func revoked(_ index: Int) -> RuleInstant? { dates[index].revocation }

    /// A transaction purchased by the instant.
    func isRelevant(_ index: Int) -> Bool { dates[index].purchase.map { instant.hasCome($0) } ?? false }

    func isSame(_ index: Int, as other: Int) -> Bool { store[index] == store[other] }

    func hasSameFacts(_ index: Int, as other: Int) -> Bool { store[index].unsigned == store[other].unsigned }

    /// The same originalTransactionId, productId and purchaseDate.
    func hasSameIdentity(_ index: Int, as other: Int) -> Bool {
        store[index].originalTransactionId == store[other].originalTransactionId
            && store[index].productId == store[other].productId && dates[index].purchase == dates[other].purchase
    }

    func json(_ index: Int) -> Data { NewestSnapshots.json(of: store[index]) }

    func name(_ key: Key) -> String { "transaction \(key.transactionId)" }

    /// Where the snapshot's access ends at the latest: its revocation or its expiry, whichever comes first; nil for
    /// none (a lifetime purchase never revoked).
    func end(_ index: Int) -> RuleInstant? {
        let snapshot = dates[index]
        guard let revocation = snapshot.revocation else { return snapshot.expires }
        return snapshot.expires.map { min($0, revocation) } ?? revocation
    }

    /// Whether an undated snapshot grants less than a dated one at every instant, wherever it stands in time: less as
    /// at a tie, of the same product type, its access ending no later (rule 1).
    func grantsLessAtEveryInstant(_ undated: Int, than dated: Int) -> Bool {
        restriction(undated) < restriction(dated) && store[undated].type == store[dated].type
            && end(dated).map { dated in end(undated).map { $0 <= dated } ?? false } ?? true
    }

    /// The order among undated snapshots: what grants less first, then the JSON.
    func precedes(_ index: Int, _ other: Int) -> Bool {
        restriction(index) != restriction(other)
            ? restriction(index) < restriction(other) : json(index).lexicographicallyPrecedes(json(other))
    }
}

/// The admitted renewal infos' snapshots, keyed by original transaction id.
struct RenewalInfoSnapshots: Snapshots {
    let snapshots: [AdmittedRenewalInfo]
    /// The original transaction ids with a purchase by the instant, where a renewal info is signed after it.
    let purchased: Set<String>

    func key(_ index: Int) -> String? { snapshots[index].originalTransactionId }

    func signed(_ index: Int) -> RuleInstant? { snapshots[index].signed }

    /// At equal signedDates, what grants less comes first: no billing retry, then billing retry without grace, then
    /// the earlier grace end.
    private func restriction(_ index: Int) -> (RuleInstant, Int) {
        let info = snapshots[index]
        let inRetry = info.isInBillingRetryPeriod == true
        return (inRetry ? info.graceEnd ?? .distantPast : .distantPast, inRetry ? 1 : 0)
    }

    func grantsLess(_ index: Int, than other: Int) -> Bool { restriction(index) < restriction(other) }

    /// A renewal info revokes nothing.
    func revoked(_ index: Int) -> RuleInstant? { nil }

    func isRelevant(_ index: Int) -> Bool { snapshots[index].originalTransactionId.map(purchased.contains) ?? false }

    func isSame(_ index: Int, as other: Int) -> Bool { snapshots[index].payload == snapshots[other].payload }

    func hasSameFacts(_ index: Int, as other: Int) -> Bool {
        snapshots[index].payload.unsigned == snapshots[other].payload.unsigned
    }

    /// A renewal info's snapshots have no fields that never change beside their key.
    func hasSameIdentity(_ index: Int, as other: Int) -> Bool { true }

    func json(_ index: Int) -> Data { NewestSnapshots.json(of: snapshots[index].payload) }

    func name(_ key: String) -> String { "renewal info of original transaction \(key)" }
}
