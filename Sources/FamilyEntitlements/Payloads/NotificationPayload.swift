#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A decoded App Store Server Notification V2; Apple's `ResponseBodyV2DecodedPayload`.
///
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` is present in what Apple sends.
public struct NotificationPayload: Hashable, Sendable {
    /// The kind of notification.
    public var notificationType: NotificationType?
    /// The detail of the kind, where it has one.
    public var subtype: NotificationSubtype?
    /// The notification's unique identifier; the same on every retry.
    public var notificationUUID: String?
    /// The notification's version, `2.0`.
    public var version: String?
    /// When the App Store signed the notification; milliseconds on the wire.
    public var signedDate: Date?
    /// The app, environment and signed transaction and renewal information.
    public var data: NotificationData?
    /// The result of a renewal-date extension for all subscribers.
    public var summary: NotificationSummary?
    /// An external purchase token.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app data of a `RESCIND_CONSENT` notification.
    public var appData: NotificationAppData?

    /// Creates a payload; every field defaults to absent.
    public init(
        notificationType: NotificationType? = nil,
        subtype: NotificationSubtype? = nil,
        notificationUUID: String? = nil,
        version: String? = nil,
        signedDate: Date? = nil,
        data: NotificationData? = nil,
        summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: NotificationAppData? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.version = version
        self.signedDate = signedDate
        self.data = data
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
    }
}

extension NotificationPayload: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case notificationType, subtype, notificationUUID, version, signedDate, data, summary, externalPurchaseToken,
            appData
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        notificationType = try container.decodeIfPresent(NotificationType.self, forKey: .notificationType)
        subtype = try container.decodeIfPresent(NotificationSubtype.self, forKey: .subtype)
        notificationUUID = try container.decodeIfPresent(String.self, forKey: .notificationUUID)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        signedDate = try container.decodeMillisecondDateIfPresent(forKey: .signedDate)
        data = try container.decodeIfPresent(NotificationData.self, forKey: .data)
        summary = try container.decodeIfPresent(NotificationSummary.self, forKey: .summary)
        externalPurchaseToken = try container.decodeIfPresent(
            ExternalPurchaseToken.self, forKey: .externalPurchaseToken)
        appData = try container.decodeIfPresent(NotificationAppData.self, forKey: .appData)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(notificationType, forKey: .notificationType)
        try container.encodeIfPresent(subtype, forKey: .subtype)
        try container.encodeIfPresent(notificationUUID, forKey: .notificationUUID)
        try container.encodeIfPresent(version, forKey: .version)
        try container.encodeMillisecondDateIfPresent(signedDate, forKey: .signedDate)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(summary, forKey: .summary)
        try container.encodeIfPresent(externalPurchaseToken, forKey: .externalPurchaseToken)
        try container.encodeIfPresent(appData, forKey: .appData)
    }
}
