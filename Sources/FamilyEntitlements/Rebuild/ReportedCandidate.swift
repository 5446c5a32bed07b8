#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 6 of the rebuild, rules 5, 8 and 12: chooses the candidate each product reports and writes its decision.
///
/// The product is granted while any transaction grants, PURCHASED preferred (then the longest access); where none
/// grants, the newest transaction is reported. The decision's evidence is the reported candidate's, after what the
/// snapshots and notifications say of its transaction.
struct ReportedCandidate: RebuildStage {
    let scope: RebuildScope

    /// The decision for one product from every candidate that names it; `dates` holds the dates admission made of
    /// each transaction of `store`, position by position.
    func decision(
        for productId: String, from candidates: [Candidate], store: PayloadStore, dates: [TransactionDates],
        facts: NotificationFacts, log: inout DiagnosticsLog
    ) -> (decision: ProductDecision, facts: ProductFacts)? {
        // One pass: the granting candidate to report (PURCHASED first, then the longest access, then the lowest
        // transaction id), and the newest candidate, for where none grants.
        // Positions in `candidates`, compared by their fields: a candidate is copied only once chosen.
        var granting: Int?
        var newest: Int?
        for position in candidates.indices {
            let (index, ends) = (candidates[position].index, candidates[position].expires)
            if candidates[position].state.grantsAccess {
                if let best = granting,
                    !Self.grantsLonger(
                        index, until: ends, than: candidates[best].index, until: candidates[best].expires,
                        store: store)
                {
                    continue
                }
                granting = position
            } else if granting == nil {
                if let best = newest, !Self.isNewer(index, than: candidates[best].index, store: store, dates: dates) {
                    continue
                }
                newest = position
            }
        }
        guard let position = granting ?? newest else { return nil }
        let chosen = candidates[position]
        let decision = decision(
            for: productId, reporting: chosen, of: store[chosen.index], dates: dates[chosen.index],
            granting: granting != nil, candidates: candidates, facts: facts, log: &log)
        // Field by field: a copy of the payload would retain every one of its strings.
        return (
            decision,
            ProductFacts(
                originalPurchaseDate: store[chosen.index].originalPurchaseDate,
                latestPurchaseDate: dates[chosen.index].purchase?.date, revocationDate: chosen.revocation?.at.date,
                renewal: chosen.renewal, end: chosen.expires, purchase: dates[chosen.index].purchase)
        )
    }

    /// Whether the candidate of the transaction at `index`, granting until `ends`, is reported rather than the best
    /// so far among granting candidates.
    private static func grantsLonger(
        _ index: Int, until ends: RuleInstant?, than best: Int, until bestEnds: RuleInstant?, store: PayloadStore
    ) -> Bool {
        // Compared one key at a time, so that the transaction ids are read only between equals.
        let isPurchased = store[index].inAppOwnershipType == .purchased
        let bestIsPurchased = store[best].inAppOwnershipType == .purchased
        if isPurchased != bestIsPurchased { return isPurchased }
        let (ends, bestEnds) = (ends ?? .distantFuture, bestEnds ?? .distantFuture)
        if ends != bestEnds { return ends > bestEnds }
        return store[index].id < store[best].id
    }

    /// Whether the transaction at `index` is newer than the one at `best`: purchased later, or at once with a greater
    /// transaction id.
    private static func isNewer(_ index: Int, than best: Int, store: PayloadStore, dates: [TransactionDates]) -> Bool {
        (dates[best].purchase ?? .distantPast, store[best].id)
            < (dates[index].purchase ?? .distantPast, store[index].id)
    }

    /// The decision reporting `chosen`, whose transaction is read in place, field by field.
    private func decision(
        for productId: String, reporting chosen: Candidate, of transaction: PayloadView,
        dates: TransactionDates, granting: Bool, candidates: [Candidate], facts: NotificationFacts,
        log: inout DiagnosticsLog
    ) -> ProductDecision {
        var reasons = Self.snapshotReasons(
            transaction, signed: dates.signed, facts: facts, capacity: chosen.reasons.count + 2)
        reasons += chosen.reasons
        let distinct = Self.distinctTransactions(candidates)
        if distinct > 1 {
            reasons.append(
                Reason.found(
                    .familySharing,
                    granting
                        ? .anyGrants(
                            transactions: distinct, productId: ProductID(productId), reported: transaction.id,
                            ownership: transaction.inAppOwnershipType)
                        : .noneGrants(transactions: distinct, productId: ProductID(productId))))
        }
        let type = transaction.type ?? catalogProducts[ProductID(productId)]?.type
        return ProductDecision(
            productId: ProductID(productId),
            type: type,
            state: chosen.state,
            ownership: transaction.inAppOwnershipType,
            revocation: chosen.revocation?.cause,
            expiresDate: chosen.expires?.date,
            willRenew: type == .autoRenewable ? chosen.willRenew : nil,
            // Only an auto-renewable subscription has a plan to cancel or change, and only its purchaser manages it.
            canManage: type == .autoRenewable && transaction.inAppOwnershipType == .purchased,
            period: period(of: transaction, log: &log),
            price: price(of: transaction, log: &log),
            transactionId: TransactionID(transaction.id),
            originalTransactionId: OriginalTransactionID(
                transaction.originalTransactionId ?? transaction.id),
            reasons: reasons)
    }

    /// How many distinct transactions the candidates name. Today each candidate names its own (a chain lists its newest
    /// transaction beside the granting one only where they differ, and groups are disjoint by original transaction
    /// id), but the count does not rest on it. Counted without hashing: the positions are usually increasing already.
    private static func distinctTransactions(_ candidates: [Candidate]) -> Int {
        // Each position read in place: a candidate passed or mapped whole would be copied.
        guard candidates.count > 1,
            !(1..<candidates.count).allSatisfy({ candidates[$0 - 1].index < candidates[$0].index })
        else { return candidates.count }
        var indices: [Int] = []
        indices.reserveCapacity(candidates.count)
        for position in candidates.indices { indices.append(candidates[position].index) }
        indices.sort()
        return zip(indices, indices.dropFirst()).reduce(1) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }

    /// The evidence every decision starts with: the snapshot used and the notifications that carried it.
    static func snapshotReasons(
        _ transaction: PayloadView, signed: RuleInstant?, facts: NotificationFacts,
        capacity: Int = 0
    ) -> [Reason] {
        var reasons: [Reason] = []
        reasons.reserveCapacity(capacity + 1)
        if let signed {
            reasons.append(
                Reason.found(.snapshots, .newestSnapshot(transactionId: transaction.id, signed: signed.date)))
        }
        guard !facts.notifications.isEmpty, let transactionId = transaction.transactionId,
            let mentions = facts.notifications[transactionId]
        else { return reasons }
        for mention in mentions.sorted() {
            switch (mention.type, mention.subtype) {
            case (.didRenew, .billingRecovery?):
                reasons.append(
                    Reason.found(.autoRenewableSubscriptions, .billingRecovery(transactionId: transactionId)))
            case (.refundReversed, _):
                reasons.append(Reason.found(.snapshots, .refundReversed(transactionId: transactionId)))
            default:
                reasons.append(Reason.found(.evidence, .carriedBy(mention)))
            }
        }
        return reasons
    }

    private func period(of transaction: PayloadView, log: inout DiagnosticsLog) -> PricingPeriod {
        if let period = PricingPeriod.of(transaction) { return period }
        log.report(
            .unknownOfferType,
            "transaction \(transaction.id) has offerType \(transaction.offerType?.rawValue ?? 0), which this library "
                + "does not know; its period is reported as normal")
        return .normal
    }

    private func price(of transaction: PayloadView, log: inout DiagnosticsLog) -> Money? {
        guard let milliunits = transaction.price, let currency = transaction.currency else {
            return nil
        }
        let money = Money(milliunits: milliunits, currency: CurrencyCode(rawValue: currency))
        if money.exactMinorUnits == nil {
            log.report(
                .inexactPrice,
                "transaction \(transaction.id) has price \(milliunits) milliunits of \(currency), which is not a whole "
                    + "number of the currency's ISO 4217 minor units (or the currency is unknown)")
        }
        return money
    }
}
