#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One customer's App Store history as a service keeps it over time: what it learns, absorbed in any order and any
/// number of times, and compacted so that it grows with the customer's transactions, not with their notifications.
///
/// A service keeps one ledger per customer (in a database row or a key-value store, as the JSON form of
/// `docs/ledger.md`), absorbs every verified notification, every verified transaction and renewal info from the App
/// Store Server API (with Apple's status of each subscription from Get All Subscription Statuses, which the rebuild
/// only cross-checks), and the app's StoreKit transactions, then decides with `rebuild(asOf:environment:catalog:)`.
/// Each absorb says what it changed (`LedgerChange`): nothing for a repeat, a conflict reported and kept for the same
/// key with other content. `compacted(asOf:)` drops what can no longer change a decision at or after an instant.
///
/// Pure like the rest of the library: no clock, no I/O. Entries are held as sets, so the same entries absorbed in any
/// order make an equal ledger (a transaction that a notification carries unchanged is held once, inside it), and
/// `history` lists them in one canonical order; `merge(_:)` is the union of two ledgers. Absorbing looks keys up in an index, so a ledger of n entries fills in linear time.
public struct CustomerLedger: Hashable, Sendable {
    /// Transaction snapshots held on their own (from the App Store Server API, StoreKit, or kept by compaction).
    public private(set) var transactions: Set<TransactionPayload> = []
    /// Renewal-info snapshots held on their own.
    public private(set) var renewalInfos: Set<RenewalInfoPayload> = []
    /// Notifications, each with its decoded transaction and renewal info and without their signed strings.
    public private(set) var notifications: Set<NotificationPayload> = []
    /// Apple's statuses from Get All Subscription Statuses: compared with the rebuilt state, never granting anything.
    public private(set) var subscriptionStatuses: Set<SubscriptionStatusSnapshot> = []
    /// The entries by the keys absorbing looks up, kept beside them; derived from them alone.
    private var index = LedgerIndex()

    /// An empty ledger.
    public init() {}

    /// A ledger holding every entry of a history.
    public init(_ history: History) {
        absorb(history)
    }

    /// The number of entries held: a measure of the stored size.
    public var count: Int {
        transactions.count + renewalInfos.count + notifications.count + subscriptionStatuses.count
    }

    /// The entries as a history for `rebuildEntitlements(history:asOf:)`, in one canonical order.
    public var history: History {
        History(
            transactions: Self.canonical(transactions, signed: \.signedDate, key: \.transactionId),
            renewalInfos: Self.canonical(renewalInfos, signed: \.signedDate, key: \.originalTransactionId),
            notifications: Self.canonical(notifications, signed: \.signedDate, key: \.notificationUUID),
            subscriptionStatuses: Self.canonical(
                subscriptionStatuses, signed: \.signedDate, key: \.originalTransactionId))
    }

    /// Decides from every entry held, at an instant: `rebuildEntitlements(history:asOf:environment:catalog:)`.
    public func rebuild(
        asOf instant: Date, environment: Environment = .production, catalog: ProductCatalog? = nil
    ) -> EntitlementReport {
        rebuildEntitlements(history: history, asOf: instant, environment: environment, catalog: catalog)
    }

    // MARK: Absorbing

    /// Absorbs a notification that `NotificationIntake` verified and accepted: its own event, with its verified
    /// transaction and renewal info.
    @discardableResult
    public mutating func absorb(_ verified: VerifiedNotification) -> LedgerChange {
        absorb(verified.notification)
    }

    /// Absorbs a decoded notification, with its decoded `data.transactionInfo` and `data.renewalInfo` (verify the
    /// signed strings first: `NotificationIntake` does).
    ///
    /// The signed strings are not kept where their decoded contents are, so that the ledger stays small; they are
    /// never read by the rebuild. An equal notification is a repeat; the same `notificationUUID` with other content,
    /// or a nested snapshot that differs from one held with the same id and signedDate, is kept and reported.
    @discardableResult
    public mutating func absorb(_ notification: NotificationPayload) -> LedgerChange {
        let notification = Self.stored(notification)
        let key = LedgerKey.notification(notificationUUID: notification.notificationUUID)
        if let reason = Self.unwritable(notification) { return .refused(key, because: reason) }
        if notifications.contains(notification) { return .unchanged(key) }
        var conflicts: [LedgerKey] = []
        if let uuid = notification.notificationUUID, index.notificationUUIDs.contains(uuid) {
            conflicts.append(key)
        }
        if let transaction = notification.data?.transactionInfo {
            conflicts += transactionConflicts(with: transaction)
        }
        if let renewalInfo = notification.data?.renewalInfo {
            conflicts += renewalInfoConflicts(with: renewalInfo)
        }
        notifications.insert(notification)
        index.add(notification)
        // The notification vouches for its transaction as the transaction alone would be admitted: a copy held on its
        // own is now a repeat, as it would have been had it come second. So the ledger holds the same entries in any
        // order of arrival, and two writers' ledgers merge to the same value.
        if let transaction = notification.data?.transactionInfo, index.vouchedTransactions.contains(transaction) {
            transactions.remove(transaction)
        }
        return conflicts.isEmpty ? .added(key) : .conflicting(key, with: conflicts)
    }

    /// Absorbs a verified transaction: from Get Transaction History, Get Transaction Info, Get All Subscription
    /// Statuses, or the app (StoreKit's `Transaction`). A snapshot the ledger already holds, on its own or inside a
    /// notification that vouches for it unchanged, is a repeat.
    @discardableResult
    public mutating func absorb(_ transaction: TransactionPayload) -> LedgerChange {
        let key = LedgerKey.transaction(transactionId: transaction.transactionId, signedDate: transaction.signedDate)
        if let reason = Self.unwritable(transaction) { return .refused(key, because: reason) }
        if transactions.contains(transaction) { return .unchanged(key) }
        if index.vouchedTransactions.contains(transaction) { return .unchanged(key) }
        let conflicts = transactionConflicts(with: transaction)
        transactions.insert(transaction)
        index.add(transaction)
        return conflicts.isEmpty ? .added(key) : .conflicting(key, with: conflicts)
    }

    /// Absorbs a verified renewal info, as from Get All Subscription Statuses.
    @discardableResult
    public mutating func absorb(_ renewalInfo: RenewalInfoPayload) -> LedgerChange {
        let key = LedgerKey.renewalInfo(
            originalTransactionId: renewalInfo.originalTransactionId, signedDate: renewalInfo.signedDate)
        if let reason = Self.unwritable(renewalInfo) { return .refused(key, because: reason) }
        if renewalInfos.contains(renewalInfo) { return .unchanged(key) }
        let conflicts = renewalInfoConflicts(with: renewalInfo)
        renewalInfos.insert(renewalInfo)
        index.add(renewalInfo)
        return conflicts.isEmpty ? .added(key) : .conflicting(key, with: conflicts)
    }

    /// Absorbs Apple's status of a chain from a verified Get All Subscription Statuses answer (see
    /// `absorb(_:verifiedBy:)`, which builds it from the item's verified signed strings). An equal snapshot is a
    /// repeat; one with the same originalTransactionId and signedDate but other content is kept and reported.
    @discardableResult
    public mutating func absorb(_ snapshot: SubscriptionStatusSnapshot) -> LedgerChange {
        let key = LedgerKey.subscriptionStatus(
            originalTransactionId: snapshot.originalTransactionId, signedDate: snapshot.signedDate)
        if let reason = Self.unwritable(snapshot) { return .refused(key, because: reason) }
        if subscriptionStatuses.contains(snapshot) { return .unchanged(key) }
        let held = index.statusKeys.contains(LedgerIndex.key(of: snapshot))
        subscriptionStatuses.insert(snapshot)
        index.add(snapshot)
        return held ? .conflicting(key, with: [key]) : .added(key)
    }

    /// Absorbs a StoreKit `Transaction.jsonRepresentation` (or any decoded transaction's JSON), naming the JSON path
    /// of anything wrong.
    @discardableResult
    public mutating func absorb(transactionJSON: some DataProtocol) throws(PayloadDecodingError) -> LedgerChange {
        absorb(try TransactionPayload(jsonData: transactionJSON))
    }

    /// Absorbs every entry of a history: its transactions, then its renewal infos, then its notifications, then
    /// Apple's statuses.
    @discardableResult
    public mutating func absorb(_ history: History) -> [LedgerChange] {
        history.transactions.map { absorb($0) } + history.renewalInfos.map { absorb($0) }
            + history.notifications.map { absorb($0) } + history.subscriptionStatuses.map { absorb($0) }
    }

    // MARK: Keys and conflicts

    /// The snapshots held of the transaction, on their own and inside notifications, that share its transactionId
    /// and signedDate with other content.
    private func transactionConflicts(with transaction: TransactionPayload) -> [LedgerKey] {
        let key = LedgerKey.transaction(transactionId: transaction.transactionId, signedDate: transaction.signedDate)
        return index.collides(transaction) ? [key] : []
    }

    private func renewalInfoConflicts(with renewalInfo: RenewalInfoPayload) -> [LedgerKey] {
        let key = LedgerKey.renewalInfo(
            originalTransactionId: renewalInfo.originalTransactionId, signedDate: renewalInfo.signedDate)
        return index.collides(renewalInfo) ? [key] : []
    }

    /// Whether a notification's wrapper admits its transaction exactly when the transaction alone would be admitted:
    /// the same environment and bundle id.
    static func isTransparent(_ data: NotificationData?, for transaction: TransactionPayload) -> Bool {
        guard let data else { return true }
        return data.environment == transaction.environment && data.bundleId == transaction.bundleId
    }

    /// Why the ledger could not write `entry` so that its reader reads it back, or nil where it can: the one door every
    /// absorbed entry passes. Written as the ledger writes it, so that a value its reader refuses (a date that is NaN,
    /// infinite or beyond the years 1 to 9999, anywhere in the entry) is found wherever it stands. Such a value never
    /// equals itself, so held, it would make every repeat a new entry too.
    static func unwritable(_ entry: some Encodable) -> String? {
        do {
            _ = try PayloadJSON.encode(entry)
            return nil
        } catch {
            return "\(error.path.isEmpty ? "the entry" : error.path) cannot be written: \(error.message)"
        }
    }

    /// The notification as the ledger keeps it: without the signed strings whose decoded contents it carries.
    static func stored(_ notification: NotificationPayload) -> NotificationPayload {
        var stored = notification
        if stored.data?.transactionInfo != nil { stored.data?.signedTransactionInfo = nil }
        if stored.data?.renewalInfo != nil { stored.data?.signedRenewalInfo = nil }
        return stored
    }

    mutating func replace(
        transactions: Set<TransactionPayload>, renewalInfos: Set<RenewalInfoPayload>,
        notifications: Set<NotificationPayload>, subscriptionStatuses: Set<SubscriptionStatusSnapshot>
    ) {
        self.renewalInfos = renewalInfos
        self.notifications = notifications
        self.subscriptionStatuses = subscriptionStatuses
        index = LedgerIndex(
            transactions: transactions, renewalInfos: renewalInfos, notifications: notifications,
            subscriptionStatuses: subscriptionStatuses)
        // As absorbing holds them: a transaction a notification vouches for is held inside it alone (a ledger stored
        // by an earlier release may hold both).
        self.transactions = transactions.subtracting(index.vouchedTransactions)
    }

    /// The entries ordered by signedDate, then key, then JSON: the same for any order of arrival.
    ///
    /// An entry's JSON is read only where its signedDate and key tie with another's, and then encoded once, the first
    /// time a comparison needs it, however many comparisons do: n entries tied on both cost n encodings and n log n
    /// comparisons of bytes, not an encoding at every comparison.
    static func canonical<Entry: AppStorePayload>(
        _ entries: Set<Entry>, signed: KeyPath<Entry, Date?>, key: KeyPath<Entry, String?>
    ) -> [Entry] {
        let keyed = entries.map { entry in
            (entry: entry, signed: entry[keyPath: signed] ?? .distantPast, key: entry[keyPath: key] ?? "")
        }
        // The bytes as an array, which compares byte by byte without going through `Data`'s iterator.
        var encoded = [[UInt8]?](repeating: nil, count: keyed.count)
        func json(_ position: Int) -> [UInt8] {
            if let bytes = encoded[position] { return bytes }
            let bytes = [UInt8]((try? keyed[position].entry.jsonData()) ?? Data())
            encoded[position] = bytes
            return bytes
        }
        return keyed.indices.sorted { lhs, rhs in
            if keyed[lhs].signed != keyed[rhs].signed { return keyed[lhs].signed < keyed[rhs].signed }
            if keyed[lhs].key != keyed[rhs].key { return keyed[lhs].key < keyed[rhs].key }
            return json(lhs).lexicographicallyPrecedes(json(rhs))
        }.map { keyed[$0].entry }
    }
}
