#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 4 of the rebuild, rules 4 and 10: evaluates non-consumables, non-renewing subscriptions and products of
/// unknown type, each transaction on its own.
struct OneTimePurchases: RebuildStage {
    static let rules: [DecisionRule] = [DecisionRule.oneTimePurchases, .unknownValues]
    let scope: RebuildScope

    var revocations: RevocationCauses { RevocationCauses(scope: scope) }

    /// Evaluates the transaction at `index` of the store, of `type` (from the transaction or the catalog).
    func evaluate(
        at index: Int, in store: Store, type: ProductType?, facts: NotificationFacts, log: inout DiagnosticsLog
    ) -> Candidate {
        evaluate(store[index], at: index, type: type, facts: facts, log: &log)
    }

    /// Evaluates `transaction`, read in place at `index` of the store.
    private func evaluate(
        _ transaction: TransactionPayload, at index: Int, type: ProductType?, facts: NotificationFacts,
        log: inout DiagnosticsLog
    ) -> Candidate {
        let events = facts.events.isEmpty ? [] : transaction.originalTransactionId.flatMap { facts.events[$0] } ?? []
        let purchase = transaction.purchaseDate ?? .distantPast
        func candidate(
            _ state: AccessState, _ reasons: [Reason], expiresDate: Date? = nil, revocation: Revocation? = nil
        ) -> Candidate {
            Candidate(
                index: index, state: state, expiresDate: expiresDate, willRenew: nil, revocation: revocation,
                reasons: reasons)
        }
        if let revocation = revocations.revocation(of: transaction, events: events, log: &log) {
            return candidate(
                .revoked, [revocations.reason(of: revocation, for: transaction)], revocation: revocation)
        }
        let end: Date
        let rule: DecisionRule
        var reasons: [Reason] = []
        switch type {
        case .nonConsumable?:
            return candidate(
                .active,
                [
                    Reason(
                        .oneTimePurchases,
                        .nonConsumableGrants(
                            transactionId: transaction.id, ownership: transaction.inAppOwnershipType, from: purchase))
                ])
        case .nonRenewing?:
            if transaction.inAppOwnershipType == .familyShared {
                log.report(
                    .familySharedNonRenewing,
                    "transaction \(transaction.id) of non-renewing subscription \(transaction.productId ?? "") is "
                        + "FAMILY_SHARED, which Family Sharing never allows; it is invalid data and grants nothing")
                return candidate(
                    .undetermined, [Reason(.oneTimePurchases, .familySharedNonRenewing(transactionId: transaction.id))])
            }
            guard let duration = transaction.productId.flatMap({ catalogProducts[ProductID($0)]?.duration }),
                let computed = duration.added(to: purchase).map({ MillisecondDate.whole($0, .down) })
            else {
                log.report(
                    .missingDuration,
                    "non-renewing subscription \(transaction.productId ?? "(no productId)") (transaction "
                        + "\(transaction.id)) has no duration in the catalog; it grants nothing rather than forever")
                return candidate(.undetermined, [Reason(.oneTimePurchases, .missingDuration)])
            }
            reasons.append(Reason(.oneTimePurchases, .lasts(duration, from: purchase)))
            (end, rule) = (computed, .oneTimePurchases)
        default:
            log.report(
                .unknownProductType,
                "transaction \(transaction.id) of \(transaction.productId ?? "(no productId)") has product type "
                    + "\(type?.rawValue ?? "(absent)") and the catalog gives none; it grants only while its "
                    + "expiresDate bounds it")
            guard let expires = transaction.expiresDate else {
                return candidate(.undetermined, [Reason(.unknownValues, .unknownTypeUnbounded(productType: type))])
            }
            reasons.append(Reason(.unknownValues, .unknownTypeBounded(productType: type)))
            (end, rule) = (expires, .unknownValues)
        }
        let state: AccessState = instant < end ? .active : .expired
        reasons.append(
            Reason(
                rule,
                state == .active
                    ? .grantsUntil(transactionId: transaction.id, ownership: transaction.inAppOwnershipType, until: end)
                    : .ended(transactionId: transaction.id, at: end)))
        return candidate(state, reasons, expiresDate: end)
    }
}
