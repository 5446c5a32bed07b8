#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 5 of the rebuild, rule 7: when each transaction was revoked by the instant of evaluation, and why.
///
/// A snapshot's revocationDate revokes from that date. A REVOKE notification without revocationDate revokes the
/// chain's transactions purchased up to its signedDate; a later transaction (the member rejoins) grants again, and a
/// stale snapshot cannot undo it because the notification is not a snapshot.
struct RevocationCauses: RebuildStage {
    let scope: RebuildScope

    /// When a transaction stopped granting because of a revocation, if it had by the instant of evaluation: from its
    /// snapshot's `revocationDate` and the chain's events. Takes the dates rather than the payload, so that a
    /// long chain is read in place. `grantingUntil` is when the transaction stops granting otherwise (its expiry or
    /// replacement): a REVOKE from then on finds nothing left to end.
    func revokedAt(
        revoked: RuleInstant?, purchased: RuleInstant?, grantingUntil: RuleInstant?, events: ChainEvents
    ) -> RuleInstant? {
        var earliest: RuleInstant?
        if let date = revoked, date <= instant {
            earliest = date
        }
        if !events.isEmpty,
            let event = revokeEvent(purchased: purchased, grantingUntil: grantingUntil, events: events)
        {
            earliest = min(earliest ?? event.signed, event.signed)
        }
        return earliest
    }

    /// The revocation of a transaction by the instant of evaluation, with its cause, from the dates admission made of it
    /// (`dates`) and the chain's events. `grantingUntil` is when the
    /// transaction stops granting otherwise (its expiry or replacement; nil where nothing ends it): a REVOKE only ends
    /// what it could still end, so one signed from then on leaves the transaction its own end.
    func revocation(
        of transaction: TransactionPayload, dates: TransactionDates, grantingUntil: RuleInstant?, events: ChainEvents,
        log: inout DiagnosticsLog
    ) -> Revocation? {
        var found: Revocation?
        if let date = dates.revocation, date <= instant {
            if let type = transaction.revocationType, !type.isKnown {
                log.report(
                    .unknownRevocationType,
                    "transaction \(transaction.id) has revocationType \"\(type.rawValue)\", which this library "
                        + "does not know; it is revoked, cause unknown")
            }
            if let reason = transaction.revocationReason, !reason.isKnown {
                log.report(
                    .unknownRevocationReason,
                    "transaction \(transaction.id) has revocationReason \(reason.rawValue), which this library "
                        + "does not know")
            }
            let finding = RevocationCauseFinding.of(transaction)
            // A revocation Apple sent without its date is dated by the rebuild: its cause is inferred too.
            let implied = transaction.transactionId.map(events.impliedRevocations.contains) ?? false
            found = Revocation(at: date, cause: implied ? .inferred(finding.cause) : finding, event: nil)
        }
        if let event = revokeEvent(purchased: dates.purchase, grantingUntil: grantingUntil, events: events),
            case .revoke(let cause) = event.kind,
            found.map({ event.signed < $0.at }) ?? true
        {
            found = Revocation(at: event.signed, cause: .inferred(cause), event: event)
        }
        return found
    }

    /// The evidence of a revocation, as data.
    func reason(of revocation: Revocation, for transaction: TransactionPayload) -> Reason {
        guard let event = revocation.event else {
            return Reason(
                .revocationCause,
                .revoked(
                    transactionId: transaction.id, at: revocation.at.date, cause: revocation.cause.cause,
                    revocationType: transaction.revocationType, revocationReason: transaction.revocationReason,
                    ownership: transaction.inAppOwnershipType))
        }
        return Reason(
            .revocationCause,
            .revokedByNotification(
                event.notification, signed: event.signed.date,
                originalTransactionId: OriginalTransactionID(transaction.originalTransactionId ?? transaction.id),
                cause: revocation.cause.cause))
    }

    /// The earliest REVOKE without revocationDate that ends the transaction: signed from its purchase, by the instant,
    /// and before it stopped granting otherwise (rule 7: a revocation ends only what it could still end).
    private func revokeEvent(purchased: RuleInstant?, grantingUntil: RuleInstant?, events: ChainEvents) -> ChainEvent? {
        guard let purchase = purchased else { return nil }
        // From the purchase's millisecond taken down, as the events' dates are (rule 1): a REVOKE signed in the
        // millisecond of the purchase revokes it.
        guard let event = events.first(.revoke, from: purchase.whole(.down), through: instant) else {
            return nil
        }
        // The events come in order of date: where the earliest comes after the end, so do the others.
        if let end = grantingUntil, !(event.signed < end) { return nil }
        return event
    }
}

extension RevocationCauseFinding {
    /// The cause of a transaction's revocation: stated by `revocationType`, or inferred from older payloads.
    ///
    /// Rule 7 of the decision table. Without `revocationType` (payloads before December 2025): a PURCHASED
    /// transaction is a refund when `revocationReason` is 0, 1 or absent; a FAMILY_SHARED one is a refund only when
    /// the reason is 1, because Apple sets 0 both when a member leaves and when the purchaser is refunded for another
    /// reason. Anything else is `unknown`. Public so that a support tool labels a revocation as the rebuild does.
    public static func of(_ transaction: TransactionPayload) -> RevocationCauseFinding {
        if let type = transaction.revocationType {
            switch type {
            case .refundFull: return .stated(.refund)
            case .refundProrated: return .stated(.proratedRefund)
            case .familyRevoke: return .stated(.familyRevocation)
            case .assignmentRevoke: return .stated(.assignmentRevocation)
            default: return .stated(.unknown)
            }
        }
        let reason = transaction.revocationReason
        switch transaction.inAppOwnershipType {
        case .purchased?:
            return .inferred(reason == nil || reason == .otherReason || reason == .appIssue ? .refund : .unknown)
        case .familyShared?:
            return .inferred(reason == .appIssue ? .refund : .unknown)
        default:
            return .inferred(.unknown)
        }
    }
}
