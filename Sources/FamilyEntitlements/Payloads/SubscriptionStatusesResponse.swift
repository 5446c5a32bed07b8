/// The body of Get All Subscription Statuses; Apple's `StatusResponse`.
public struct SubscriptionStatusesResponse: Hashable, Sendable {
    /// The environment of the response.
    public var environment: Environment?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The subscription groups, each with the newest transactions of its chains.
    public var data: [SubscriptionGroupStatus]?

    /// Creates a payload; every field defaults to absent.
    public init(
        environment: Environment? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        data: [SubscriptionGroupStatus]? = nil
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}

extension SubscriptionStatusesResponse: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case environment, bundleId, appAppleId, data
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        data = try container.decodeIfPresent([SubscriptionGroupStatus].self, forKey: .data)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(data, forKey: .data)
    }
}
