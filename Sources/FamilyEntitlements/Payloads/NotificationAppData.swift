/// The app data of a notification without transaction data; Apple's notification `appData`.
public struct NotificationAppData: Hashable, Sendable {
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The environment of the notification.
    public var environment: Environment?
    /// The app transaction, as a JWS signed on its own.
    public var signedAppTransactionInfo: String?

    /// Creates a payload; every field defaults to absent.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        environment: Environment? = nil,
        signedAppTransactionInfo: String? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}

extension NotificationAppData: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case appAppleId, bundleId, environment, signedAppTransactionInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        signedAppTransactionInfo = try container.decodeIfPresent(String.self, forKey: .signedAppTransactionInfo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(signedAppTransactionInfo, forKey: .signedAppTransactionInfo)
    }
}
