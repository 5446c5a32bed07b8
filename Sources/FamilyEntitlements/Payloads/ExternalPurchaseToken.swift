#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An external purchase token; Apple's notification `externalPurchaseToken`.
public struct ExternalPurchaseToken: Hashable, Sendable {
    /// The token's identifier; it starts with `SANDBOX_` in the sandbox.
    public var externalPurchaseId: String?
    /// When the token was created; milliseconds on the wire.
    public var tokenCreationDate: Date?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?

    /// Creates a payload; every field defaults to absent.
    public init(
        externalPurchaseId: String? = nil,
        tokenCreationDate: Date? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }
}

extension ExternalPurchaseToken: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case externalPurchaseId, tokenCreationDate, appAppleId, bundleId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        externalPurchaseId = try container.decodeIfPresent(String.self, forKey: .externalPurchaseId)
        tokenCreationDate = try container.decodeMillisecondDateIfPresent(forKey: .tokenCreationDate)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(externalPurchaseId, forKey: .externalPurchaseId)
        try container.encodeMillisecondDateIfPresent(tokenCreationDate, forKey: .tokenCreationDate)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
    }
}
