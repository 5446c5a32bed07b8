#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON body a service posts to Get Notification History; Apple's
/// [`NotificationHistoryRequest`](https://developer.apple.com/documentation/appstoreserverapi/notificationhistoryrequest).
///
/// `startDate` and `endDate` are required and travel as whole milliseconds since 1970, truncated toward zero as Apple's
/// library writes them. Apple keeps notification history for a limited window (180 days in production) and wants
/// `startDate` before `endDate`; an `endDate` in the future stands for now. Apple takes at most one filter, a
/// notification type (with its subtype, if any) or a transaction, so `filter` is one or the other. Encode it with
/// `jsonData()`; the page token is a query parameter, not part of the body.
public struct NotificationHistoryRequestBody: Hashable, Sendable {
    /// The start of the time span; Apple's
    /// [`startDate`](https://developer.apple.com/documentation/appstoreserverapi/startdate).
    public var startDate: Date
    /// The end of the time span; Apple's
    /// [`endDate`](https://developer.apple.com/documentation/appstoreserverapi/enddate).
    public var endDate: Date
    /// The one filter Apple accepts, or nil for every notification of the time span.
    public var filter: Filter?
    /// Only the notifications that did not reach the service, and those Apple is still retrying; Apple's
    /// [`onlyFailures`](https://developer.apple.com/documentation/appstoreserverapi/onlyfailures). Written only when true.
    public var onlyFailures: Bool

    public init(startDate: Date, endDate: Date, filter: Filter? = nil, onlyFailures: Bool = false) {
        self.startDate = startDate
        self.endDate = endDate
        self.filter = filter
        self.onlyFailures = onlyFailures
    }

    /// The notifications Apple failed to deliver, or is still retrying, from `startDate` to `endDate`: the body of the
    /// recovery after an outage.
    public static func failures(from startDate: Date, to endDate: Date) -> NotificationHistoryRequestBody {
        NotificationHistoryRequestBody(startDate: startDate, endDate: endDate, onlyFailures: true)
    }

    /// What a Get Notification History request is limited to: Apple takes one of these, never both.
    public enum Filter: Hashable, Sendable {
        /// The notifications of one type, and of one of its subtypes where `subtype` is set; Apple's
        /// [`notificationType`](https://developer.apple.com/documentation/appstoreserverapi/notificationtype) and
        /// [`notificationSubtype`](https://developer.apple.com/documentation/appstoreserverapi/notificationsubtype).
        case notificationType(NotificationType, subtype: NotificationSubtype? = nil)
        /// One customer's notifications, by any of their transaction identifiers; Apple's
        /// [`transactionId`](https://developer.apple.com/documentation/appstoreserverapi/transactionid).
        case transactionId(String)
    }
}

extension NotificationHistoryRequestBody: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case startDate, endDate, notificationType, notificationSubtype, transactionId, onlyFailures
    }

    /// Reads a body back; a body with both filters, or a subtype without its type, is an `invalid_value` error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let startDate = try container.decodeMillisecondDateIfPresent(forKey: .startDate) else {
            throw DecodingError.keyNotFound(
                CodingKeys.startDate,
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "startDate is required"))
        }
        guard let endDate = try container.decodeMillisecondDateIfPresent(forKey: .endDate) else {
            throw DecodingError.keyNotFound(
                CodingKeys.endDate,
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "endDate is required"))
        }
        let type = try container.decodeIfPresent(NotificationType.self, forKey: .notificationType)
        let subtype = try container.decodeIfPresent(NotificationSubtype.self, forKey: .notificationSubtype)
        let transactionId = try container.decodeIfPresent(String.self, forKey: .transactionId)
        switch (type, subtype, transactionId) {
        case (nil, nil, nil):
            filter = nil
        case (let type?, _, nil):
            filter = .notificationType(type, subtype: subtype)
        case (nil, nil, let transactionId?):
            filter = .transactionId(transactionId)
        case (nil, _?, _):
            throw DecodingError.dataCorruptedError(
                forKey: .notificationSubtype, in: container,
                debugDescription: "\(PayloadDecodingError.Code.invalidValue): a notificationSubtype needs its "
                    + "notificationType")
        case (_, _, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .transactionId, in: container,
                debugDescription: "\(PayloadDecodingError.Code.invalidValue): Apple takes a transactionId or a "
                    + "notificationType, not both")
        }
        self.startDate = startDate
        self.endDate = endDate
        onlyFailures = try container.decodeIfPresent(Bool.self, forKey: .onlyFailures) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.wholeMilliseconds(startDate), forKey: .startDate)
        try container.encode(Self.wholeMilliseconds(endDate), forKey: .endDate)
        switch filter {
        case .notificationType(let type, let subtype):
            try container.encode(type, forKey: .notificationType)
            try container.encodeIfPresent(subtype, forKey: .notificationSubtype)
        case .transactionId(let transactionId):
            try container.encode(transactionId, forKey: .transactionId)
        case nil:
            break
        }
        if onlyFailures {
            try container.encode(true, forKey: .onlyFailures)
        }
    }

    /// Milliseconds since 1970 truncated toward zero, as Apple's library writes request dates.
    private static func wholeMilliseconds(_ date: Date) throws -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.towardZero)
        guard MillisecondDate.isValid(milliseconds), let whole = Int64(exactly: milliseconds) else {
            throw EncodingError.invalidValue(
                date, EncodingError.Context(codingPath: [], debugDescription: "not a date between the years 1 and 9999")
            )
        }
        return whole
    }
}

extension NotificationHistoryRequestBody: AppStorePayload {}
