#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rebuilder {
    /// Evaluates a non-consumable, a non-renewing subscription, or a product of unknown type: rule 4 and rule 10.
    mutating func evaluateOneTime(
        at index: Int, in store: Store, type: ProductType?, evidence: Evidence
    ) -> Candidate {
        evaluateOneTime(store[index], at: index, type: type, evidence: evidence)
    }

    /// Evaluates `transaction`, read in place at `index` of the store.
    private mutating func evaluateOneTime(
        _ transaction: TransactionPayload, at index: Int, type: ProductType?, evidence: Evidence
    ) -> Candidate {
        let events = evidence.events.isEmpty ? [] : evidence.events[transaction.originalTransactionId ?? ""] ?? []
        var because = snapshotEvidence(transaction, evidence: evidence)
        let purchase = transaction.purchaseDate ?? .distantPast
        func candidate(_ state: AccessState, expiresDate: Date? = nil, revocation: Revocation? = nil) -> Candidate {
            Candidate(
                index: index, origin: .oneTime(type), state: state, expiresDate: expiresDate, willRenew: nil,
                revocation: revocation, because: because)
        }
        if let revocation = revocation(of: transaction, events: events) {
            because.append(text(of: revocation, for: transaction))
            return candidate(.revoked, revocation: revocation)
        }
        let end: Date?
        switch type {
        case .nonConsumable?:
            because.append(
                "rule 4: non-consumable transaction \(transaction.id) (\(ownershipText(transaction))) grants from "
                    + "\(purchase.evidenceText) until revoked")
            return candidate(.active)
        case .nonRenewing?:
            guard let duration = catalogProducts[transaction.productId ?? ""]?.duration,
                let computed = duration.added(to: purchase)
            else {
                report(
                    .error, .missingDuration,
                    "non-renewing subscription \(transaction.productId ?? "") (transaction \(transaction.id)) has no "
                        + "duration in the catalog; it grants nothing rather than forever")
                because.append(
                    "rule 4: non-renewing subscription without a catalog duration: undetermined, never unlimited")
                return candidate(.undetermined)
            }
            because.append("rule 4: non-renewing subscription lasts \(duration) from \(purchase.evidenceText)")
            end = computed
        default:
            let raw = type?.rawValue ?? "(absent)"
            report(
                .warning, .unknownProductType,
                "transaction \(transaction.id) of \(transaction.productId ?? "") has product type \(raw) and the "
                    + "catalog gives none; it grants only while its expiresDate bounds it")
            guard let expires = transaction.expiresDate else {
                because.append("rule 10: product type \(raw) is unknown and no expiresDate bounds it: undetermined")
                return candidate(.undetermined)
            }
            because.append("rule 10: product type \(raw) is unknown; its expiresDate bounds access")
            end = expires
        }
        guard let end else {
            return candidate(.undetermined)
        }
        let state: AccessState = instant < end ? .active : .expired
        because.append(
            state == .active
                ? "transaction \(transaction.id) (\(ownershipText(transaction))) grants until \(end.evidenceText)"
                : "transaction \(transaction.id) ended at \(end.evidenceText)")
        return candidate(state, expiresDate: end)
    }

    /// The evidence every candidate starts with: the snapshot used and the notifications that carried it.
    func snapshotEvidence(_ transaction: TransactionPayload, evidence: Evidence) -> Because {
        var because = Because(recording: isExplaining)
        guard isExplaining else { return because }
        if let signed = transaction.signedDate {
            because.append(
                "rule 1: the newest snapshot of transaction \(transaction.id) is the truth: signed \(signed.evidenceText)"
            )
        }
        let mentions =
            evidence.notifications.isEmpty ? [] : evidence.notifications[transaction.transactionId ?? ""] ?? []
        for mention in mentions.sorted() {
            switch (mention.type, mention.subtype) {
            case (.didRenew, .billingRecovery?):
                because.append(
                    "DID_RENEW BILLING_RECOVERY: transaction \(transaction.id) is a recovery after failed billing, "
                        + "not a new purchase")
            case (.refundReversed, _):
                because.append("REFUND_REVERSED: Apple reversed the refund of transaction \(transaction.id)")
            default:
                because.append(
                    "carried by \(mention.label) notification \(mention.notificationUUID ?? "(no notificationUUID)")")
            }
        }
        return because
    }

    func ownershipText(_ transaction: TransactionPayload) -> String {
        transaction.inAppOwnershipType?.rawValue ?? "no inAppOwnershipType"
    }
}
