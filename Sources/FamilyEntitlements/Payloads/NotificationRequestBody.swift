/// The body Apple posts to a notification URL; Apple's `ResponseBodyV2`.
public struct NotificationRequestBody: Hashable, Sendable {
    /// The notification, as a JWS.
    public var signedPayload: String?

    /// Creates a payload; every field defaults to absent.
    public init(
        signedPayload: String? = nil
    ) {
        self.signedPayload = signedPayload
    }
}

extension NotificationRequestBody: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case signedPayload
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedPayload = try container.decodeIfPresent(String.self, forKey: .signedPayload)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(signedPayload, forKey: .signedPayload)
    }
}
