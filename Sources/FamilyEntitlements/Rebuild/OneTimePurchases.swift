#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 4 of the rebuild, rules 4 and 10: evaluates non-consumables, non-renewing subscriptions and products of
/// unknown type, each transaction on its own, and checks consumables, which never grant.
struct OneTimePurchases: RebuildStage {
    let scope: RebuildScope

    var revocations: RevocationCauses { RevocationCauses(scope: scope) }

    /// Rule 4: a consumable is used up, never an entitlement, so it makes no candidate. One that is FAMILY_SHARED is
    /// invalid data, since Family Sharing never shares a consumable: reported, and it still grants nothing.
    func consumable(at index: Int, in store: PayloadStore, log: inout DiagnosticsLog) {
        guard store[index].inAppOwnershipType == .familyShared else { return }
        log.report(
            .familySharedConsumable,
            "transaction \(store[index].id) of consumable \(store[index].productId ?? "") is FAMILY_SHARED, which "
                + "Family Sharing never allows; it is invalid data and grants nothing")
    }

    /// Evaluates the transaction at `index` of the store, of `type` (from the transaction or the catalog), with the
    /// `dates` admission made of it, read in place field by field: a copy of the payload would retain every one of its
    /// strings.
    func evaluate(
        at index: Int, in store: PayloadStore, dates: TransactionDates, type: ProductType?, facts: NotificationFacts,
        log: inout DiagnosticsLog
    ) -> Candidate {
        let events =
            facts.events.isEmpty ? [] : store[index].originalTransactionId.flatMap { facts.events[$0] } ?? []
        let purchase = dates.purchase ?? .distantPast
        func candidate(
            _ state: AccessState, _ reasons: [Reason], expires: RuleInstant? = nil, revocation: Revocation? = nil
        ) -> Candidate {
            Candidate(
                index: index, state: state, expires: expires, willRenew: nil, revocation: revocation,
                reasons: reasons)
        }
        // Without a revocationDate or an event there is no revocation to find.
        if dates.revocation != nil || !events.isEmpty {
            let transaction = store[index]
            if let revocation = revocations.revocation(
                of: transaction, dates: dates, grantingUntil: nil, events: events, log: &log)
            {
                return candidate(
                    .revoked, [revocations.reason(of: revocation, for: transaction)], revocation: revocation)
            }
        }
        let end: RuleInstant
        let rule: DecisionRule
        var reasons: [Reason] = []
        switch type {
        case .nonConsumable?:
            return candidate(
                .active,
                [
                    Reason.found(
                        .oneTimePurchases,
                        .nonConsumableGrants(
                            transactionId: store[index].id, ownership: store[index].inAppOwnershipType,
                            from: purchase.date))
                ])
        case .nonRenewing?:
            if store[index].inAppOwnershipType == .familyShared {
                log.report(
                    .familySharedNonRenewing,
                    "transaction \(store[index].id) of non-renewing subscription \(store[index].productId ?? "") is "
                        + "FAMILY_SHARED, which Family Sharing never allows; it is invalid data and grants nothing")
                return candidate(
                    .undetermined,
                    [Reason.found(.oneTimePurchases, .familySharedNonRenewing(transactionId: store[index].id))]
                )
            }
            guard let duration = store[index].productId.flatMap({ catalogProducts[ProductID($0)]?.duration }) else {
                log.report(
                    .missingDuration,
                    "non-renewing subscription \(store[index].productId ?? "(no productId)") (transaction "
                        + "\(store[index].id)) has no duration in the catalog; it grants nothing rather than forever")
                return candidate(.undetermined, [Reason.found(.oneTimePurchases, .missingDuration)])
            }
            // Rule 10: an end after 9999 is one no report can hold, so it grants nothing rather than until then.
            guard let computed = duration.added(to: purchase.date).flatMap({ RuleInstant($0)?.whole(.down) }) else {
                let text =
                    "rule 10: non-renewing subscription whose duration \(duration) from \(purchase.evidenceText) ends "
                    + "after the year 9999: undetermined, never unlimited"
                log.report(
                    .impossibleValue,
                    "non-renewing subscription \(store[index].productId ?? "(no productId)") (transaction "
                        + "\(store[index].id)) lasts \(duration) from \(purchase.evidenceText), which ends after the "
                        + "year 9999, which no real payload carries; it grants nothing")
                return candidate(.undetermined, [Reason.found(.unknownValues, .text(text))])
            }
            reasons.append(Reason.found(.oneTimePurchases, .lasts(duration, from: purchase.date)))
            (end, rule) = (computed, .oneTimePurchases)
        default:
            log.report(
                .unknownProductType,
                "transaction \(store[index].id) of \(store[index].productId ?? "(no productId)") has product type "
                    + "\(type?.rawValue ?? "(absent)") and the catalog gives none; it grants only while its "
                    + "expiresDate bounds it")
            guard let expires = dates.expires else {
                return candidate(
                    .undetermined, [Reason.found(.unknownValues, .unknownTypeUnbounded(productType: type))])
            }
            reasons.append(Reason.found(.unknownValues, .unknownTypeBounded(productType: type)))
            (end, rule) = (expires, .unknownValues)
        }
        let state: AccessState = instant.hasEnded(end) ? .expired : .active
        reasons.append(
            Reason.found(
                rule,
                state == .active
                    ? .grantsUntil(
                        transactionId: store[index].id, ownership: store[index].inAppOwnershipType, until: end.date)
                    : .ended(transactionId: store[index].id, at: end.date)))
        return candidate(state, reasons, expires: end)
    }
}
