#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a Get Notification History page, member for member as `init(from:)` reads it.
extension NotificationHistoryResponse {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension NotificationHistoryResponse: FastJSONDecodable {
    /// The fields, with the order Apple writes them in (as in Apple's sample payloads).
    static let fastJSONFields = FastJSONFields<CodingKeys>(
        wireOrder: [.paginationToken, .hasMore, .notificationHistory])

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .paginationToken: value.paginationToken = try reader.readString()
        case .hasMore: value.hasMore = try reader.readBool()
        case .notificationHistory:
            value.notificationHistory = try reader.readArray(of: NotificationHistoryResponseItem.self)
        }
    }
}

extension NotificationHistoryResponseItem: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>(wireOrder: [.sendAttempts, .signedPayload])

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .signedPayload: value.signedPayload = try reader.readString()
        case .sendAttempts: value.sendAttempts = try reader.readArray(of: SendAttemptItem.self)
        }
    }
}

extension SendAttemptItem: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .attemptDate: value.attemptDate = try reader.readDate()
        case .sendAttemptResult: value.sendAttemptResult = try reader.readValue(SendAttemptResult.self)
        }
    }
}
