#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a `CustomerLedger` holds, by the keys absorbing looks up: so that absorbing one entry costs the same however
/// many the ledger holds, and a ledger of n entries fills in linear time rather than quadratic.
///
/// Derived from the entries alone (never from the order they came in), so two ledgers holding the same entries have
/// equal indexes.
struct LedgerIndex: Hashable, Sendable {
    /// A snapshot's identity: its id (transactionId, originalTransactionId) and signedDate.
    struct Key: Hashable, Sendable {
        var id: String?
        var signed: Date?
    }

    /// The notificationUUIDs of the notifications held.
    private(set) var notificationUUIDs: Set<String> = []
    /// The distinct contents held of each transaction snapshot, on their own and inside notifications.
    private(set) var transactions: [Key: Set<TransactionPayload>] = [:]
    /// The transactions notifications carry in a wrapper that admits them as they would be admitted alone.
    private(set) var vouchedTransactions: Set<TransactionPayload> = []
    /// The distinct contents held of each renewal-info snapshot, on their own and inside notifications.
    private(set) var renewalInfos: [Key: Set<RenewalInfoPayload>] = [:]
    /// The keys of Apple's statuses held.
    private(set) var statusKeys: Set<Key> = []

    init() {}

    /// The index of every entry of a ledger.
    init(
        transactions: Set<TransactionPayload>, renewalInfos: Set<RenewalInfoPayload>,
        notifications: Set<NotificationPayload>, subscriptionStatuses: Set<SubscriptionStatusSnapshot>
    ) {
        for transaction in transactions { add(transaction) }
        for renewalInfo in renewalInfos { add(renewalInfo) }
        for notification in notifications { add(notification) }
        for snapshot in subscriptionStatuses { add(snapshot) }
    }

    static func key(of transaction: TransactionPayload) -> Key {
        Key(id: transaction.transactionId, signed: transaction.signedDate)
    }

    static func key(of renewalInfo: RenewalInfoPayload) -> Key {
        Key(id: renewalInfo.originalTransactionId, signed: renewalInfo.signedDate)
    }

    static func key(of snapshot: SubscriptionStatusSnapshot) -> Key {
        Key(id: snapshot.originalTransactionId, signed: snapshot.signedDate)
    }

    /// Whether a snapshot with the transaction's key and other content is held.
    func collides(_ transaction: TransactionPayload) -> Bool {
        transactions[Self.key(of: transaction)].map { $0.contains { $0 != transaction } } ?? false
    }

    /// Whether a snapshot with the renewal info's key and other content is held.
    func collides(_ renewalInfo: RenewalInfoPayload) -> Bool {
        renewalInfos[Self.key(of: renewalInfo)].map { $0.contains { $0 != renewalInfo } } ?? false
    }

    mutating func add(_ transaction: TransactionPayload) {
        transactions[Self.key(of: transaction), default: []].insert(transaction)
    }

    mutating func add(_ renewalInfo: RenewalInfoPayload) {
        renewalInfos[Self.key(of: renewalInfo), default: []].insert(renewalInfo)
    }

    mutating func add(_ notification: NotificationPayload) {
        if let uuid = notification.notificationUUID { notificationUUIDs.insert(uuid) }
        if let transaction = notification.data?.transactionInfo {
            add(transaction)
            if CustomerLedger.isTransparent(notification.data, for: transaction) {
                vouchedTransactions.insert(transaction)
            }
        }
        if let renewalInfo = notification.data?.renewalInfo { add(renewalInfo) }
    }

    mutating func add(_ snapshot: SubscriptionStatusSnapshot) {
        statusKeys.insert(Self.key(of: snapshot))
    }
}
