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

    /// When a transaction was revoked by the instant of evaluation, if it was: the one place that decides it, for the
    /// end of a chain's access and for every candidate. From its snapshot's `revocationDate` (`revoked`) and the
    /// chain's REVOKE events without one, whichever is earlier. `grantingUntil` is when the transaction stops granting
    /// otherwise (its expiry or replacement; nil where nothing ends it): a REVOKE only ends what it could still end, so
    /// one signed from then on leaves the transaction its own end.
    func revoked(
        revoked: RuleInstant?, purchased: RuleInstant?, grantingUntil: RuleInstant?, events: ChainEvents
    ) -> RevocationTime? {
        var found: RevocationTime?
        if let date = revoked, instant.hasCome(date) {
            found = RevocationTime(at: date, event: nil, stated: true)
        }
        if let event = revokeEvent(purchased: purchased, grantingUntil: grantingUntil, events: events),
            found.map({ event.signed < $0.at }) ?? true
        {
            found = RevocationTime(at: event.signed, event: event, stated: found != nil)
        }
        return found
    }

    /// The revocation of `transaction` at `time`, with its cause: stated by the snapshot, or inferred from the REVOKE
    /// that revoked it. A stated revocation of a type or reason this library does not know is reported.
    func revocation(
        of transaction: PayloadView, at time: RevocationTime, events: ChainEvents, log: inout DiagnosticsLog
    ) -> Revocation {
        if time.stated {
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
        }
        if let event = time.event, case .revoke(let cause) = event.kind {
            return Revocation(at: time.at, cause: .inferred(cause), event: event)
        }
        let finding = RevocationCauseFinding.of(
            type: transaction.revocationType, reason: transaction.revocationReason,
            ownership: transaction.inAppOwnershipType)
        // A revocation Apple sent without its date is dated by the rebuild: its cause is inferred too.
        let implied = events.impliedRevocations.contains(transaction.id)
        return Revocation(at: time.at, cause: implied ? .inferred(finding.cause) : finding, event: nil)
    }

    /// The revocation of a transaction by the instant of evaluation, with its cause, from the dates admission made of
    /// it: `revoked(revoked:purchased:grantingUntil:events:)`, then `revocation(of:at:events:log:)`.
    func revocation(
        of transaction: PayloadView, dates: TransactionDates, grantingUntil: RuleInstant?, events: ChainEvents,
        log: inout DiagnosticsLog
    ) -> Revocation? {
        revoked(revoked: dates.revocation, purchased: dates.purchase, grantingUntil: grantingUntil, events: events)
            .map { revocation(of: transaction, at: $0, events: events, log: &log) }
    }

    /// The cause of a REVOKE notification (`name`) without revocationDate, carrying `transaction`: Apple sends one
    /// when a family member loses access, so a FAMILY_SHARED transaction's cause is familyRevocation. One that revokes
    /// a transaction Apple never shares is reported, and revokes it with its cause unknown.
    func cause(
        ofRevoke name: String, carrying transaction: borrowing TransactionPayload, log: inout DiagnosticsLog
    ) -> RevocationCause {
        guard transaction.inAppOwnershipType != .familyShared else { return .familyRevocation }
        log.report(
            .unexpectedRevoke,
            "\(name) revokes transaction \(transaction.id), which is not FAMILY_SHARED; it is revoked, cause unknown")
        return .unknown
    }

    /// The evidence of a revocation, as data.
    func reason(of revocation: Revocation, for transaction: PayloadView) -> Reason {
        guard let event = revocation.event else {
            return Reason.found(
                .revocationCause,
                .revoked(
                    transactionId: transaction.id, at: revocation.at.date, cause: revocation.cause.cause,
                    revocationType: transaction.revocationType, revocationReason: transaction.revocationReason,
                    ownership: transaction.inAppOwnershipType))
        }
        return Reason.found(
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

/// When a transaction was revoked, before its cause is read: `RevocationCauses.revoked(...)`.
struct RevocationTime {
    var at: RuleInstant
    /// The REVOKE without revocationDate that revoked it, where one did before its snapshot's revocationDate.
    var event: ChainEvent?
    /// Whether its snapshot's revocationDate counts by the instant (even where a REVOKE came first).
    var stated: Bool
}

extension RevocationCauseFinding {
    /// The cause of a transaction's revocation: stated by `revocationType`, or inferred from older payloads.
    ///
    /// Rule 7 of the decision table. Without `revocationType` (payloads before December 2025): a PURCHASED
    /// transaction is a refund when `revocationReason` is 0, 1 or absent; a FAMILY_SHARED one is a refund only when
    /// the reason is 1, because Apple sets 0 both when a member leaves and when the purchaser is refunded for another
    /// reason. Anything else is `unknown`. Public so that a support tool labels a revocation as the rebuild does.
    public static func of(_ transaction: TransactionPayload) -> RevocationCauseFinding {
        of(
            type: transaction.revocationType, reason: transaction.revocationReason,
            ownership: transaction.inAppOwnershipType)
    }

    /// The cause from a transaction's revocationType, revocationReason and inAppOwnershipType, as `of(_:)` reads them.
    static func of(
        type: RevocationType?, reason: RevocationReason?, ownership: OwnershipType?
    ) -> RevocationCauseFinding {
        if let type {
            switch type {
            case .refundFull: return .stated(.refund)
            case .refundProrated: return .stated(.proratedRefund)
            case .familyRevoke: return .stated(.familyRevocation)
            case .assignmentRevoke: return .stated(.assignmentRevocation)
            default: return .stated(.unknown)
            }
        }
        switch ownership {
        case .purchased?:
            return .inferred(reason == nil || reason == .otherReason || reason == .appIssue ? .refund : .unknown)
        case .familyShared?:
            return .inferred(reason == .appIssue ? .refund : .unknown)
        default:
            return .inferred(.unknown)
        }
    }
}
