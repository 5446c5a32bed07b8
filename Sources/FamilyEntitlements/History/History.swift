/// Everything known about one customer's purchases: transaction snapshots, renewal-info snapshots, notifications, and
/// Apple's statuses from Get All Subscription Statuses.
///
/// Entries may come in any order and repeat: the same transaction arrives in Get Transaction History, in several
/// notifications and again after a refund. `rebuildEntitlements(history:asOf:)` reads the newest snapshot of each and
/// gives the same answer for any order. A notification's `data.transactionInfo` and `data.renewalInfo` count as
/// snapshots too; its signed strings are not read here (decode or verify them first).
public struct History: Hashable, Sendable {
    /// Transaction snapshots, as from Get Transaction History.
    public var transactions: [TransactionPayload]
    /// Renewal-info snapshots, as from Get All Subscription Statuses.
    public var renewalInfos: [RenewalInfoPayload]
    /// V2 notifications whose nested transaction and renewal information are already decoded.
    public var notifications: [NotificationPayload]
    /// Apple's status of each chain, as from Get All Subscription Statuses: compared with the rebuilt state
    /// (`apple_status_disagrees`), never granting anything. Encoded only when there is one, as `subscriptionStatuses`.
    public var subscriptionStatuses: [SubscriptionStatusSnapshot]

    public init(
        transactions: [TransactionPayload] = [],
        renewalInfos: [RenewalInfoPayload] = [],
        notifications: [NotificationPayload] = [],
        subscriptionStatuses: [SubscriptionStatusSnapshot] = []
    ) {
        self.transactions = transactions
        self.renewalInfos = renewalInfos
        self.notifications = notifications
        self.subscriptionStatuses = subscriptionStatuses
    }

    /// The number of entries of every kind.
    public var count: Int {
        transactions.count + renewalInfos.count + notifications.count + subscriptionStatuses.count
    }

    /// This history followed by the entries of another.
    public func merging(_ other: History) -> History {
        History(
            transactions: transactions + other.transactions,
            renewalInfos: renewalInfos + other.renewalInfos,
            notifications: notifications + other.notifications,
            subscriptionStatuses: subscriptionStatuses + other.subscriptionStatuses)
    }
}

extension History: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case transactions, renewalInfos, notifications, subscriptionStatuses
    }

    /// The names of the history document's keys.
    static let keyNames = Set(CodingKeys.allCases.map(\.rawValue))

    /// Reads the library's history document. Like a catalog or a ledger it is the library's own, so a key it does not
    /// know (a misspelt `"notifcations"`) is `unknown_key` naming it, never a history read without what it held;
    /// Apple's payloads inside it stay lenient.
    public init(from decoder: any Decoder) throws {
        try UnknownKeys.refuse(in: decoder, known: Self.keyNames, of: "a history")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        transactions = try container.decodeIfPresent([TransactionPayload].self, forKey: .transactions) ?? []
        renewalInfos = try container.decodeIfPresent([RenewalInfoPayload].self, forKey: .renewalInfos) ?? []
        notifications = try container.decodeIfPresent([NotificationPayload].self, forKey: .notifications) ?? []
        subscriptionStatuses =
            try container.decodeIfPresent([SubscriptionStatusSnapshot].self, forKey: .subscriptionStatuses) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactions, forKey: .transactions)
        try container.encode(renewalInfos, forKey: .renewalInfos)
        try container.encode(notifications, forKey: .notifications)
        if !subscriptionStatuses.isEmpty {
            try container.encode(subscriptionStatuses, forKey: .subscriptionStatuses)
        }
    }
}

extension History: AppStorePayload {}
