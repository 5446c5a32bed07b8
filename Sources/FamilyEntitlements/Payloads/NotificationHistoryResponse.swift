/// A page of Get Notification History; Apple's
/// [NotificationHistoryResponse](https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryresponse).
///
/// Each item holds a notification as Apple signed it (`signedPayload`, the same string Apple posts to the
/// notification URL) and the attempts Apple made to deliver it. Verify each `signedPayload` as a delivered one, for
/// instance through `NotificationIntake`: a page is not signed as a whole.
public struct NotificationHistoryResponse: Hashable, Sendable {
    /// The token to ask for the next page; Apple's
    /// [paginationToken](https://developer.apple.com/documentation/appstoreserverapi/paginationtoken).
    public var paginationToken: String?
    /// Whether more pages follow; Apple's [hasMore](https://developer.apple.com/documentation/appstoreserverapi/hasmore).
    public var hasMore: Bool?
    /// The notifications on this page; Apple's `notificationHistory`.
    public var notificationHistory: [NotificationHistoryResponseItem]?

    /// Creates a payload; every field defaults to absent.
    public init(
        paginationToken: String? = nil,
        hasMore: Bool? = nil,
        notificationHistory: [NotificationHistoryResponseItem]? = nil
    ) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }

    /// The token of the page after this one, or nil on the last page: `paginationToken` where `hasMore` is true.
    public var nextPaginationToken: String? {
        hasMore == true ? paginationToken : nil
    }
}

extension NotificationHistoryResponse: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case paginationToken, hasMore, notificationHistory
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        paginationToken = try container.decodeIfPresent(String.self, forKey: .paginationToken)
        hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore)
        notificationHistory = try container.decodeIfPresent(
            [NotificationHistoryResponseItem].self, forKey: .notificationHistory)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(paginationToken, forKey: .paginationToken)
        try container.encodeIfPresent(hasMore, forKey: .hasMore)
        try container.encodeIfPresent(notificationHistory, forKey: .notificationHistory)
    }
}
