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
    static let rules: [DecisionRule] = [DecisionRule.revocationCause]
    let scope: RebuildScope

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

    /// The revocation of a transaction by the instant of evaluation, with its cause.
    func revocation(
        of transaction: TransactionPayload, events: ChainEvents, log: inout DiagnosticsLog
    ) -> Revocation? {
        var found: Revocation?
        if let date = transaction.revocationDate, date <= instant {
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
            found = Revocation(date: date, cause: RevocationCauseFinding.of(transaction), event: nil)
        }
        if let event = revokeEvent(purchased: transaction.purchaseDate, events: events),
            case .revoke(let cause) = event.kind,
            found.map({ event.date < $0.date }) ?? true
        {
            found = Revocation(date: event.date, cause: .inferred(cause), event: event)
        }
        return found
    }

    /// The evidence of a revocation, as data.
    func reason(of revocation: Revocation, for transaction: TransactionPayload) -> Reason {
        guard let event = revocation.event else {
            return Reason(
                .revocationCause,
                .revoked(
                    transactionId: transaction.id, at: revocation.date, cause: revocation.cause.cause,
                    revocationType: transaction.revocationType, revocationReason: transaction.revocationReason,
                    ownership: transaction.inAppOwnershipType))
        }
        return Reason(
            .revocationCause,
            .revokedByNotification(
                event.notification, signed: event.date,
                originalTransactionId: OriginalTransactionID(transaction.originalTransactionId ?? transaction.id),
                cause: revocation.cause.cause))
    }

    private func revokeEvent(purchased: Date?, events: ChainEvents) -> ChainEvent? {
        guard let purchase = purchased else { return nil }
        // From the purchase's millisecond taken down, as the events' dates are (rule 1): a REVOKE signed in the
        // millisecond of the purchase revokes it.
        return events.first(.revoke, from: MillisecondDate.whole(purchase, .down), through: instant)
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
