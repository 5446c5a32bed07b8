#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Counts of a window of notifications by type and ownership, for the dashboards that catch a broken handler early.
///
/// The ownership of a notification is its transaction's `inAppOwnershipType` (`data.transactionInfo`); notifications
/// without a decoded transaction count with no ownership. A sudden rise of `familySharedRevokeRate` or
/// `didFailToRenewRate`, or any `unknownTypes`, is worth a look before customers notice.
public struct NotificationCounts: Hashable, Sendable {
    /// A notification type and ownership pair; either may be absent.
    public struct Key: Hashable, Sendable {
        /// The notification's `notificationType`.
        public var notificationType: NotificationType?
        /// The nested transaction's `inAppOwnershipType`.
        public var ownership: OwnershipType?

        public init(notificationType: NotificationType?, ownership: OwnershipType?) {
            self.notificationType = notificationType
            self.ownership = ownership
        }
    }

    /// How many notifications had each type and ownership.
    public private(set) var counts: [Key: Int]
    /// How many notifications were counted.
    public private(set) var total: Int

    /// Counts the notifications, or only those whose `signedDate` falls in `window` when one is given.
    public init(_ notifications: some Sequence<NotificationPayload>, signedIn window: Range<Date>? = nil) {
        counts = [:]
        total = 0
        for notification in notifications {
            if let window {
                guard let signedDate = notification.signedDate, window.contains(signedDate) else { continue }
            }
            let key = Key(
                notificationType: notification.notificationType,
                ownership: notification.data?.transactionInfo?.inAppOwnershipType)
            counts[key, default: 0] += 1
            total += 1
        }
    }

    /// Notifications of a type, whatever their ownership.
    public func count(of type: NotificationType) -> Int {
        counts.reduce(0) { $0 + ($1.key.notificationType == type ? $1.value : 0) }
    }

    /// Notifications of a type for transactions of an ownership.
    public func count(of type: NotificationType, ownership: OwnershipType) -> Int {
        counts[Key(notificationType: type, ownership: ownership)] ?? 0
    }

    /// Notifications for transactions of an ownership, whatever their type.
    public func count(ownership: OwnershipType) -> Int {
        counts.reduce(0) { $0 + ($1.key.ownership == ownership ? $1.value : 0) }
    }

    /// The share of all notifications that are of a type.
    public func rate(of type: NotificationType) -> NotificationRate {
        NotificationRate(count: count(of: type), total: total)
    }

    /// The share of the notifications for one ownership that are of a type.
    public func rate(of type: NotificationType, among ownership: OwnershipType) -> NotificationRate {
        NotificationRate(count: count(of: type, ownership: ownership), total: count(ownership: ownership))
    }

    /// The share of notifications about `FAMILY_SHARED` transactions that are `REVOKE`.
    public var familySharedRevokeRate: NotificationRate {
        rate(of: .revoke, among: .familyShared)
    }

    /// The share of renewal attempts that failed: `DID_FAIL_TO_RENEW` among `DID_RENEW` and `DID_FAIL_TO_RENEW`.
    public var didFailToRenewRate: NotificationRate {
        let failed = count(of: .didFailToRenew)
        return NotificationRate(count: failed, total: failed + count(of: .didRenew))
    }

    /// Notification types this version of the library does not know, with their counts: log them loudly.
    public var unknownTypes: [NotificationType: Int] {
        var unknown: [NotificationType: Int] = [:]
        for (key, value) in counts {
            if let type = key.notificationType, !type.isKnown {
                unknown[type, default: 0] += value
            }
        }
        return unknown
    }
}
