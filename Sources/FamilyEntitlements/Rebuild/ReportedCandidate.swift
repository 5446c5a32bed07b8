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
    static let rules: [DecisionRule] = [DecisionRule.familySharing, .offers, .evidence]
    let scope: RebuildScope

    /// The decision for one product from every candidate that names it.
    func decision(
        for productId: String, from candidates: [Candidate], store: Store, facts: NotificationFacts,
        log: inout DiagnosticsLog
    ) -> (decision: ProductDecision, facts: ProductFacts)? {
        // One pass: the granting candidate to report (PURCHASED first, then the longest access, then the lowest
        // transaction id), and the newest candidate, for where none grants.
        var granting: Candidate?
        var newest: Candidate?
        for candidate in candidates {
            if candidate.grants {
                if let best = granting, !Self.grantsLonger(candidate, than: best, store: store) { continue }
                granting = candidate
            } else if granting == nil {
                if let best = newest, !Self.isNewer(candidate, than: best, store: store) { continue }
                newest = candidate
            }
        }
        guard let chosen = granting ?? newest else { return nil }
        let decision = decision(
            for: productId, reporting: chosen, of: store[chosen.index], granting: granting != nil,
            candidates: candidates, facts: facts, log: &log)
        let transaction = store[chosen.index]
        return (
            decision,
            ProductFacts(
                originalPurchaseDate: transaction.originalPurchaseDate, latestPurchaseDate: transaction.purchaseDate,
                revocationDate: chosen.revocation?.date, renewal: chosen.renewal)
        )
    }

    /// Whether `candidate` is reported rather than `best` among granting candidates.
    private static func grantsLonger(_ candidate: Candidate, than best: Candidate, store: Store) -> Bool {
        (
            store[best.index].inAppOwnershipType == .purchased ? 1 : 0, best.expiresDate ?? .distantFuture,
            store[candidate.index].id
        )
            < (
                store[candidate.index].inAppOwnershipType == .purchased ? 1 : 0,
                candidate.expiresDate ?? .distantFuture, store[best.index].id
            )
    }

    /// Whether `candidate` is newer than `best`: purchased later, or at once with a greater transaction id.
    private static func isNewer(_ candidate: Candidate, than best: Candidate, store: Store) -> Bool {
        (store[best.index].purchaseDate ?? .distantPast, store[best.index].id)
            < (store[candidate.index].purchaseDate ?? .distantPast, store[candidate.index].id)
    }

    /// The decision reporting `chosen`, whose transaction is read in place.
    private func decision(
        for productId: String, reporting chosen: Candidate, of transaction: TransactionPayload, granting: Bool,
        candidates: [Candidate], facts: NotificationFacts, log: inout DiagnosticsLog
    ) -> ProductDecision {
        var reasons = Self.snapshotReasons(transaction, facts: facts, capacity: chosen.reasons.count + 2)
        reasons += chosen.reasons
        let distinct = candidates.count > 1 ? Set(candidates.map(\.index)).count : candidates.count
        if distinct > 1 {
            reasons.append(
                Reason(
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
            expiresDate: chosen.expiresDate,
            willRenew: type == .autoRenewable ? chosen.willRenew : nil,
            // Only an auto-renewable subscription has a plan to cancel or change, and only its purchaser manages it.
            canManage: type == .autoRenewable && transaction.inAppOwnershipType == .purchased,
            period: period(of: transaction, log: &log),
            price: price(of: transaction, log: &log),
            transactionId: TransactionID(transaction.id),
            originalTransactionId: OriginalTransactionID(transaction.originalTransactionId ?? transaction.id),
            reasons: reasons)
    }

    /// The evidence every decision starts with: the snapshot used and the notifications that carried it.
    static func snapshotReasons(
        _ transaction: TransactionPayload, facts: NotificationFacts, capacity: Int = 0
    ) -> [Reason] {
        var reasons: [Reason] = []
        reasons.reserveCapacity(capacity + 1)
        if let signed = transaction.signedDate {
            reasons.append(Reason(.snapshots, .newestSnapshot(transactionId: transaction.id, signed: signed)))
        }
        guard !facts.notifications.isEmpty, let transactionId = transaction.transactionId,
            let mentions = facts.notifications[transactionId]
        else { return reasons }
        for mention in mentions.sorted() {
            switch (mention.type, mention.subtype) {
            case (.didRenew, .billingRecovery?):
                reasons.append(Reason(.autoRenewableSubscriptions, .billingRecovery(transactionId: transactionId)))
            case (.refundReversed, _):
                reasons.append(Reason(.snapshots, .refundReversed(transactionId: transactionId)))
            default:
                reasons.append(Reason(.evidence, .carriedBy(mention)))
            }
        }
        return reasons
    }

    private func period(of transaction: TransactionPayload, log: inout DiagnosticsLog) -> PricingPeriod {
        if let period = PricingPeriod.of(transaction) { return period }
        log.report(
            .unknownOfferType,
            "transaction \(transaction.id) has offerType \(transaction.offerType?.rawValue ?? 0), which this library "
                + "does not know; its period is reported as normal")
        return .normal
    }

    private func price(of transaction: TransactionPayload, log: inout DiagnosticsLog) -> Money? {
        guard let milliunits = transaction.price, let currency = transaction.currency else { return nil }
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
