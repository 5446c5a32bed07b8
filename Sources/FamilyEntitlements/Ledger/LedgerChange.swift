#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which entry of a `CustomerLedger` an absorb concerns: a notification by its `notificationUUID`, or one snapshot
/// (a transaction, a renewal info, Apple's status) by its id and `signedDate`.
public enum LedgerKey: Hashable, Sendable, CustomStringConvertible {
    /// A notification, by `notificationUUID` (nil where it has none).
    case notification(notificationUUID: String?)
    /// A transaction snapshot, by `transactionId` and `signedDate`.
    case transaction(transactionId: String?, signedDate: Date?)
    /// A renewal-info snapshot, by `originalTransactionId` and `signedDate`.
    case renewalInfo(originalTransactionId: String?, signedDate: Date?)
    /// Apple's status of a chain from Get All Subscription Statuses, by `originalTransactionId` and `signedDate`.
    case subscriptionStatus(originalTransactionId: String?, signedDate: Date?)

    public var description: String {
        switch self {
        case .notification(let uuid):
            "notification \(uuid ?? "(no notificationUUID)")"
        case .transaction(let id, let signed):
            "transaction \(id ?? "(no transactionId)") signed \(Self.text(signed))"
        case .renewalInfo(let id, let signed):
            "renewal info of original transaction \(id ?? "(no originalTransactionId)") signed \(Self.text(signed))"
        case .subscriptionStatus(let id, let signed):
            "Apple's status of original transaction \(id ?? "(no originalTransactionId)") signed \(Self.text(signed))"
        }
    }

    private static func text(_ date: Date?) -> String {
        date.map { MillisecondDate.text(milliseconds: ($0.timeIntervalSince1970 * 1000).rounded()) }
            ?? "(no signedDate)"
    }
}

/// What absorbing one entry changed in a `CustomerLedger`: a value a service logs.
///
/// A repeat (an equal notification, an identical snapshot) changes nothing. An entry whose key is already held with
/// other content is kept beside it and reported: a notificationUUID that comes back with other content, or two
/// different snapshots of one transaction signed in the same millisecond, which the rebuild settles for the one that
/// grants less and reports as `conflicting_snapshots`. Nothing absorbed is ever dropped for a conflict.
public enum LedgerChange: Hashable, Sendable, CustomStringConvertible {
    /// The entry was new; the ledger holds it now.
    case added(LedgerKey)
    /// The ledger already held an equal entry: nothing changed.
    case unchanged(LedgerKey)
    /// The entry was new, and the ledger already held other content under the keys listed; both are kept.
    case conflicting(LedgerKey, with: [LedgerKey])
    /// The entry holds a value no reader accepts (a date that is NaN, infinite or beyond the years 1 to 9999, as only
    /// a payload built in code can): the ledger could not be written with it, so it is not held, and the reason says
    /// which value. Log it as an error: the payload is not Apple's.
    case refused(LedgerKey, because: String)

    /// The entry absorbed.
    public var key: LedgerKey {
        switch self {
        case .added(let key), .unchanged(let key), .conflicting(let key, _), .refused(let key, _): key
        }
    }

    /// Whether the ledger changed: false for a repeat and for an entry refused.
    public var changedLedger: Bool {
        switch self {
        case .unchanged, .refused: false
        case .added, .conflicting: true
        }
    }

    /// `added`, `unchanged`, `conflicting` or `refused`, for logs and metrics.
    public var code: String {
        switch self {
        case .added: "added"
        case .unchanged: "unchanged"
        case .conflicting: "conflicting"
        case .refused: "refused"
        }
    }

    public var description: String {
        switch self {
        case .added(let key): "added \(key)"
        case .unchanged(let key): "unchanged: \(key) was already held"
        case .conflicting(let key, let others):
            "conflicting: \(key) kept beside other content for "
                + others.map(\.description).joined(separator: ", ")
        case .refused(let key, let reason): "refused: \(key) is not held, since \(reason)"
        }
    }
}
