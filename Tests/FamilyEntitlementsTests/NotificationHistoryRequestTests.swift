import FamilyEntitlements
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Get Notification History body as Apple's library writes it: the same member names and millisecond dates as in
/// its `testGetNotificationHistory` (app-store-server-library-swift 8468d10).
struct NotificationHistoryRequestTests {
    static let start = Date(timeIntervalSince1970: 1_698_148_900)
    static let end = Date(timeIntervalSince1970: 1_698_148_950)

    struct EncodingCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var body: NotificationHistoryRequestBody
        var json: String
    }

    static let encodings: [EncodingCase] = [
        EncodingCase(
            testDescription: "dates only -> startDate and endDate in whole milliseconds, nothing else",
            body: NotificationHistoryRequestBody(startDate: start, endDate: end),
            json: #"{"endDate":1698148950000,"startDate":1698148900000}"#),
        EncodingCase(
            testDescription: "failures since the last notification seen -> onlyFailures true",
            body: .failures(from: start, to: end),
            json: #"{"endDate":1698148950000,"onlyFailures":true,"startDate":1698148900000}"#),
        EncodingCase(
            testDescription: "one type with its subtype -> notificationType and notificationSubtype",
            body: NotificationHistoryRequestBody(
                startDate: start, endDate: end, filter: .notificationType(.subscribed, subtype: .initialBuy)),
            json: #"{"endDate":1698148950000,"notificationSubtype":"INITIAL_BUY","#
                + #""notificationType":"SUBSCRIBED","startDate":1698148900000}"#),
        EncodingCase(
            testDescription: "one type without subtype -> notificationType alone",
            body: NotificationHistoryRequestBody(startDate: start, endDate: end, filter: .notificationType(.revoke)),
            json: #"{"endDate":1698148950000,"notificationType":"REVOKE","startDate":1698148900000}"#),
        EncodingCase(
            testDescription: "one customer's failures -> transactionId and onlyFailures",
            body: NotificationHistoryRequestBody(
                startDate: start, endDate: end, filter: .transactionId("999733843"), onlyFailures: true),
            json: #"{"endDate":1698148950000,"onlyFailures":true,"startDate":1698148900000,"#
                + #""transactionId":"999733843"}"#),
        EncodingCase(
            testDescription: "microseconds are truncated toward zero, as Apple's library writes them",
            body: NotificationHistoryRequestBody(
                startDate: start.addingTimeInterval(0.000_9), endDate: end.addingTimeInterval(0.000_001)),
            json: #"{"endDate":1698148950000,"startDate":1698148900000}"#),
        EncodingCase(
            testDescription: "a type Apple added later is written as it is",
            body: NotificationHistoryRequestBody(
                startDate: start, endDate: end, filter: .notificationType(NotificationType(rawValue: "NEW_TYPE"))),
            json: #"{"endDate":1698148950000,"notificationType":"NEW_TYPE","startDate":1698148900000}"#),
    ]

    @Test(arguments: encodings)
    func encodesApplesBody(_ row: EncodingCase) throws {
        #expect(String(decoding: try row.body.jsonData(), as: UTF8.self) == row.json)
        let decoded = try NotificationHistoryRequestBody(jsonData: Data(row.json.utf8))
        #expect(try decoded.jsonData() == row.body.jsonData(), "reads back to the same body")
    }

    struct DecodingCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var json: String
        var code: PayloadDecodingError.Code
        var path: String
    }

    static let refusals: [DecodingCase] = [
        DecodingCase(
            testDescription: "no startDate -> missing_value at startDate", json: #"{"endDate":1698148950000}"#,
            code: .missingValue, path: "startDate"),
        DecodingCase(
            testDescription: "no endDate -> missing_value at endDate", json: #"{"startDate":1698148900000}"#,
            code: .missingValue, path: "endDate"),
        DecodingCase(
            testDescription: "a transactionId and a notificationType -> invalid_value, Apple takes one",
            json: #"{"startDate":1,"endDate":2,"notificationType":"REFUND","transactionId":"1"}"#,
            code: .invalidValue, path: "transactionId"),
        DecodingCase(
            testDescription: "a subtype without its type -> invalid_value at notificationSubtype",
            json: #"{"startDate":1,"endDate":2,"notificationSubtype":"INITIAL_BUY"}"#, code: .invalidValue,
            path: "notificationSubtype"),
        DecodingCase(
            testDescription: "a date as text -> wrong_type at startDate",
            json: #"{"startDate":"2026-01-01","endDate":2}"#, code: .wrongType, path: "startDate"),
    ]

    @Test(arguments: refusals)
    func refusesWhatAppleWouldRefuse(_ row: DecodingCase) {
        let error = decodingError { try NotificationHistoryRequestBody(jsonData: Data(row.json.utf8)) }
        #expect(error?.code == row.code, "\(String(describing: error))")
        #expect(error?.path == row.path)
    }
}
