/// The result of a renewal-date extension for all subscribers; Apple's notification `summary`.
public struct NotificationSummary: Hashable, Sendable {
    /// The identifier of the extension request.
    public var requestIdentifier: String?
    /// The environment of the notification.
    public var environment: Environment?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product whose subscriptions were extended.
    public var productId: String?
    /// The storefronts the request covered.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions failed to extend.
    public var failedCount: Int64?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?

    /// Creates a payload; every field defaults to absent.
    public init(
        requestIdentifier: String? = nil,
        environment: Environment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        failedCount: Int64? = nil,
        succeededCount: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.storefrontCountryCodes = storefrontCountryCodes
        self.failedCount = failedCount
        self.succeededCount = succeededCount
    }
}

extension NotificationSummary: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case requestIdentifier, environment, appAppleId, bundleId, productId, storefrontCountryCodes, failedCount,
            succeededCount
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestIdentifier = try container.decodeIfPresent(String.self, forKey: .requestIdentifier)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        productId = try container.decodeIfPresent(String.self, forKey: .productId)
        storefrontCountryCodes = try container.decodeIfPresent([String].self, forKey: .storefrontCountryCodes)
        failedCount = try container.decodeIntegerIfPresent(Int64.self, forKey: .failedCount)
        succeededCount = try container.decodeIntegerIfPresent(Int64.self, forKey: .succeededCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(requestIdentifier, forKey: .requestIdentifier)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(productId, forKey: .productId)
        try container.encodeIfPresent(storefrontCountryCodes, forKey: .storefrontCountryCodes)
        try container.encodeIfPresent(failedCount, forKey: .failedCount)
        try container.encodeIfPresent(succeededCount, forKey: .succeededCount)
    }
}
