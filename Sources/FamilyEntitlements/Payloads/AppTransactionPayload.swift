#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A decoded app transaction: the customer's purchase of the app itself; Apple's `AppTransaction`.
public struct AppTransactionPayload: Hashable, Sendable {
    /// The environment that signed the app transaction.
    public var receiptType: Environment?
    /// The app's Apple identifier; absent in Xcode and sandbox.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the customer has.
    public var applicationVersion: String?
    /// The identifier of the app version.
    public var versionExternalIdentifier: Int64?
    /// When the App Store created the app transaction.
    public var receiptCreationDate: Date?
    /// When the customer first got the app; a year-1 placeholder in Xcode.
    public var originalPurchaseDate: Date?
    /// The app version the customer first got.
    public var originalApplicationVersion: String?
    /// A base64 value to verify the app transaction on a device.
    public var deviceVerification: String?
    /// The nonce used in `deviceVerification`.
    public var deviceVerificationNonce: UUID?
    /// When the customer pre-ordered the app.
    public var preorderDate: Date?
    /// The identifier of the customer's app download.
    public var appTransactionId: String?
    /// The platform the customer first got the app on, such as `iOS`.
    public var originalPlatform: String?

    /// Creates a payload; every field defaults to absent.
    public init(
        receiptType: Environment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: UUID? = nil,
        preorderDate: Date? = nil,
        appTransactionId: String? = nil,
        originalPlatform: String? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
    }
}

extension AppTransactionPayload: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate,
            originalPurchaseDate, originalApplicationVersion, deviceVerification, deviceVerificationNonce, preorderDate,
            appTransactionId, originalPlatform
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptType = try container.decodeIfPresent(Environment.self, forKey: .receiptType)
        appAppleId = try container.decodeIntegerIfPresent(Int64.self, forKey: .appAppleId)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        applicationVersion = try container.decodeIfPresent(String.self, forKey: .applicationVersion)
        versionExternalIdentifier = try container.decodeIntegerIfPresent(Int64.self, forKey: .versionExternalIdentifier)
        receiptCreationDate = try container.decodeMillisecondDateIfPresent(forKey: .receiptCreationDate)
        originalPurchaseDate = try container.decodeMillisecondDateIfPresent(forKey: .originalPurchaseDate)
        originalApplicationVersion = try container.decodeIfPresent(String.self, forKey: .originalApplicationVersion)
        deviceVerification = try container.decodeIfPresent(String.self, forKey: .deviceVerification)
        deviceVerificationNonce = try container.decodeUUIDIfPresent(forKey: .deviceVerificationNonce)
        preorderDate = try container.decodeMillisecondDateIfPresent(forKey: .preorderDate)
        appTransactionId = try container.decodeIfPresent(String.self, forKey: .appTransactionId)
        originalPlatform = try container.decodeIfPresent(String.self, forKey: .originalPlatform)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(receiptType, forKey: .receiptType)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(applicationVersion, forKey: .applicationVersion)
        try container.encodeIfPresent(versionExternalIdentifier, forKey: .versionExternalIdentifier)
        try container.encodeMillisecondDateIfPresent(receiptCreationDate, forKey: .receiptCreationDate)
        try container.encodeMillisecondDateIfPresent(originalPurchaseDate, forKey: .originalPurchaseDate)
        try container.encodeIfPresent(originalApplicationVersion, forKey: .originalApplicationVersion)
        try container.encodeIfPresent(deviceVerification, forKey: .deviceVerification)
        try container.encodeUUIDIfPresent(deviceVerificationNonce, forKey: .deviceVerificationNonce)
        try container.encodeMillisecondDateIfPresent(preorderDate, forKey: .preorderDate)
        try container.encodeIfPresent(appTransactionId, forKey: .appTransactionId)
        try container.encodeIfPresent(originalPlatform, forKey: .originalPlatform)
    }
}
