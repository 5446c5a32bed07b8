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

    /// The decision for one product from every candidate that names it.
    func decision(
        for productId: String, from candidates: [Candidate], store: Store, facts: NotificationFacts,
        log: inout DiagnosticsLog
    ) -> ProductDecision? {
        let granting = candidates.filter(\.grants)
        let reported: Candidate?
        if granting.isEmpty {
            reported = candidates.max { lhs, rhs in
                (store[lhs.index].purchaseDate ?? .distantPast, store[lhs.index].id)
                    < (store[rhs.index].purchaseDate ?? .distantPast, store[rhs.index].id)
            }
        } else {
            reported = granting.max { lhs, rhs in
                (
                    store[lhs.index].inAppOwnershipType == .purchased ? 1 : 0, lhs.expiresDate ?? .distantFuture,
                    store[rhs.index].id
                )
                    < (
                        store[rhs.index].inAppOwnershipType == .purchased ? 1 : 0, rhs.expiresDate ?? .distantFuture,
                        store[lhs.index].id
                    )
            }
        }
        guard let chosen = reported else { return nil }
        let transaction = store[chosen.index]
        var reasons = Self.snapshotReasons(transaction, facts: facts)
        reasons += chosen.reasons
        let distinct = candidates.count > 1 ? Set(candidates.map(\.index)).count : candidates.count
        if distinct > 1 {
            reasons.append(
                Reason(
                    .familySharing,
                    granting.isEmpty
                        ? .noneGrants(transactions: distinct, productId: ProductID(productId))
                        : .anyGrants(
                            transactions: distinct, productId: ProductID(productId), reported: transaction.id,
                            ownership: transaction.inAppOwnershipType)))
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
            canManage: transaction.inAppOwnershipType == .purchased,
            period: period(of: transaction, log: &log),
            price: price(of: transaction, log: &log),
            transactionId: transaction.id,
            originalTransactionId: OriginalTransactionID(transaction.originalTransactionId ?? transaction.id),
            reasons: reasons)
    }

    /// The evidence every decision starts with: the snapshot used and the notifications that carried it.
    static func snapshotReasons(_ transaction: TransactionPayload, facts: NotificationFacts) -> [Reason] {
        var reasons: [Reason] = []
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
