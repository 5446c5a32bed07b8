/// One notification in a Get Notification History page; Apple's
/// [notificationHistoryResponseItem](https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponseitem).
public struct NotificationHistoryResponseItem: Hashable, Sendable {
    /// The notification as Apple signed it, the `signedPayload` of a delivered notification; Apple's
    /// [signedPayload](https://developer.apple.com/documentation/appstoreservernotifications/signedpayload).
    public var signedPayload: String?
    /// Apple's attempts to deliver it (six at most), oldest first; Apple's `sendAttempts`.
    public var sendAttempts: [SendAttemptItem]?

    /// Creates a payload; every field defaults to absent.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}

extension NotificationHistoryResponseItem: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case signedPayload, sendAttempts
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedPayload = try container.decodeIfPresent(String.self, forKey: .signedPayload)
        sendAttempts = try container.decodeIfPresent([SendAttemptItem].self, forKey: .sendAttempts)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(signedPayload, forKey: .signedPayload)
        try container.encodeIfPresent(sendAttempts, forKey: .sendAttempts)
    }
}
