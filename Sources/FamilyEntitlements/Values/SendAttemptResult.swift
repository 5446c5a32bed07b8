/// What happened when the App Store sent a notification to the service; Apple's
/// [sendAttemptResult](https://developer.apple.com/documentation/appstoreserverapi/sendattemptresult).
public struct SendAttemptResult: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The service answered with HTTP 200. Raw value `SUCCESS`.
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    /// The service did not answer in time. Raw value `TIMED_OUT`.
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    /// The TLS connection failed. Raw value `TLS_ISSUE`.
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    /// The URL redirected in a circle. Raw value `CIRCULAR_REDIRECT`.
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    /// The service sent no response. Raw value `NO_RESPONSE`.
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    /// The socket failed. Raw value `SOCKET_ISSUE`.
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    /// The response named a character set Apple does not support. Raw value `UNSUPPORTED_CHARSET`.
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    /// The response was not valid. Raw value `INVALID_RESPONSE`.
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    /// The service closed the connection early. Raw value `PREMATURE_CLOSE`.
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    /// The service answered with another status than 200. Raw value `UNSUCCESSFUL_HTTP_RESPONSE_CODE`.
    public static let unsuccessfulHTTPResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    /// Another failure. Raw value `OTHER`.
    public static let other = SendAttemptResult(rawValue: "OTHER")

    public static let documentedValues: [SendAttemptResult] = [
        .success,
        .timedOut,
        .tlsIssue,
        .circularRedirect,
        .noResponse,
        .socketIssue,
        .unsupportedCharset,
        .invalidResponse,
        .prematureClose,
        .unsuccessfulHTTPResponseCode,
        .other,
    ]
}
