/// A page of Get Transaction History; Apple's `HistoryResponse`.
public struct TransactionHistoryResponse: Hashable, Sendable {
    /// The token to ask for the next page.
    public var revision: String?
    /// Whether more pages follow.
    public var hasMore: Bool?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The environment of the response.
    public var environment: Environment?
    /// The transactions, each a JWS signed on its own.
    public var signedTransactions: [String]?

    /// Creates a payload; every field defaults to absent.
    public init(
        revision: String? = nil,
        hasMore: Bool? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        environment: Environment? = nil,
        signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}

extension TransactionHistoryResponse: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case revision, hasMore, bundleId, appAppleId, environment, signedTransactions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        revision = try container.decodeIfPresent(String.self, forKey: .revision)
        hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        signedTransactions = try container.decodeIfPresent([String].self, forKey: .signedTransactions)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(revision, forKey: .revision)
        try container.encodeIfPresent(hasMore, forKey: .hasMore)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(signedTransactions, forKey: .signedTransactions)
    }
}
