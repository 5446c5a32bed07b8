/// One subscription group of Get All Subscription Statuses; Apple's `SubscriptionGroupIdentifierItem`.
public struct SubscriptionGroupStatus: Hashable, Sendable {
    /// The subscription group.
    public var subscriptionGroupIdentifier: String?
    /// The newest transaction and renewal information of each chain in the group.
    public var lastTransactions: [LastTransactionsItem]?

    /// Creates a payload; every field defaults to absent.
    public init(
        subscriptionGroupIdentifier: String? = nil,
        lastTransactions: [LastTransactionsItem]? = nil
    ) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}

extension SubscriptionGroupStatus: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case subscriptionGroupIdentifier, lastTransactions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subscriptionGroupIdentifier = try container.decodeIfPresent(String.self, forKey: .subscriptionGroupIdentifier)
        lastTransactions = try container.decodeIfPresent([LastTransactionsItem].self, forKey: .lastTransactions)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(subscriptionGroupIdentifier, forKey: .subscriptionGroupIdentifier)
        try container.encodeIfPresent(lastTransactions, forKey: .lastTransactions)
    }
}
