#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rebuilder {
    /// When a transaction stopped granting because of a revocation, if it had by the instant of evaluation: from its
    /// snapshot's `revocationDate` and the chain's events. Takes the two dates rather than the payload, so that a
    /// long chain is read in place.
    func revocationDate(revoked: Date?, purchased: Date?, events: ChainEvents) -> Date? {
        var earliest: Date?
        if let date = revoked, date <= instant {
            earliest = date
        }
        if !events.isEmpty, let event = revokeEvent(purchased: purchased, events: events) {
            earliest = min(earliest ?? event.date, event.date)
        }
        return earliest
    }

    /// The revocation of a transaction by the instant of evaluation, with its cause: rule 7 of the decision table.
    ///
    /// A snapshot's revocationDate revokes from that date. A REVOKE notification without revocationDate revokes the
    /// chain's transactions purchased up to its signedDate; a later transaction (the member rejoins) grants again,
    /// and a stale snapshot cannot undo it because the notification is not a snapshot.
    mutating func revocation(of transaction: TransactionPayload, events: ChainEvents) -> Revocation? {
        var found: Revocation?
        if let date = transaction.revocationDate, date <= instant {
            let (cause, inferred) = RevocationCause.of(transaction)
            if let type = transaction.revocationType, !type.isKnown {
                report(
                    .warning, .unknownRevocationType,
                    "transaction \(transaction.id) has revocationType \"\(type.rawValue)\", which this library "
                        + "does not know; it is revoked, cause unknown")
            }
            if let reason = transaction.revocationReason, !reason.isKnown {
                report(
                    .warning, .unknownRevocationReason,
                    "transaction \(transaction.id) has revocationReason \(reason.rawValue), which this library "
                        + "does not know")
            }
            found = Revocation(date: date, cause: cause, inferred: inferred, event: nil)
        }
        if let event = revokeEvent(purchased: transaction.purchaseDate, events: events),
            case .revoke(let cause) = event.kind,
            found.map({ event.date < $0.date }) ?? true
        {
            found = Revocation(date: event.date, cause: cause, inferred: true, event: event)
        }
        return found
    }

    /// The evidence of a revocation, in words.
    func text(of revocation: Revocation, for transaction: TransactionPayload) -> String {
        guard let event = revocation.event else {
            return "rule 7: transaction \(transaction.id) was revoked at \(revocation.date.evidenceText): "
                + causeText(transaction, cause: revocation.cause, inferred: revocation.inferred)
        }
        return "rule 7: \(event.notification) signed \(event.date.evidenceText) carries no revocationDate; it revokes "
            + "original transaction \(transaction.originalTransactionId ?? "") as purchased up to then, cause "
            + "inferred as \(revocation.cause.rawValue)"
    }

    private func revokeEvent(purchased: Date?, events: ChainEvents) -> ChainEvent? {
        guard let purchase = purchased else { return nil }
        return events.first(.revoke, from: purchase, through: instant)
    }

    private func causeText(_ transaction: TransactionPayload, cause: RevocationCause, inferred: Bool) -> String {
        if let type = transaction.revocationType {
            return "revocationType \(type.rawValue) says \(cause.rawValue)"
        }
        let reason = transaction.revocationReason.map { "revocationReason \($0.rawValue)" } ?? "no revocationReason"
        let ownership = transaction.inAppOwnershipType?.rawValue ?? "unknown ownership"
        let why =
            transaction.inAppOwnershipType == .familyShared && cause == .unknown
            ? " (on a member's copy, 0 is set both when the member leaves and when the purchaser is refunded)" : ""
        return "no revocationType; \(reason) on a \(ownership) transaction, cause inferred as \(cause.rawValue)\(why)"
    }
}
