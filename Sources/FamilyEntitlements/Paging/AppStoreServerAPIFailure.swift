/// Why a request to the App Store Server API failed: the error a page-fetching closure throws to the paging helpers
/// (`allTransactionHistoryPages(from:fetch:)`, `allNotificationHistoryPages(_:from:fetch:)`), and that
/// `FakeAppStore` in the test-support module throws.
///
/// Map your HTTP client's errors onto it: Apple's 429 (`RateLimitExceededError`, errorCode 4290000) is
/// `rateLimited(retry:)` with the instant of its `Retry-After` header (`RetryTime(retryAfterHeader:)`); any other error
/// status is `server(httpStatus:errorCode:errorMessage:)` with the `errorCode` and `errorMessage` of Apple's JSON body
/// where it has one; anything else (no connection, a timeout, a body that does not decode) is `underlying(_:)`, in
/// words. The library decides nothing from it: it hands it back to the caller, who decides when to try again.
public enum AppStoreServerAPIFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Apple answered with an HTTP error status other than 429; `errorCode` and `errorMessage` are those of Apple's
    /// [error body](https://developer.apple.com/documentation/appstoreserverapi/error_codes), where there is one
    /// (`4040010`, `Transaction id not found.`).
    case server(httpStatus: Int, errorCode: Int64? = nil, errorMessage: String? = nil)
    /// Apple refused the request as over its rate limit (HTTP 429); `retry` is when to ask again, nil when the answer
    /// did not say.
    case rateLimited(retry: RetryTime?)
    /// The request failed without an answer from Apple, or with one that could not be read: the underlying error, in
    /// words.
    case underlying(String)

    /// Apple's `errorCode` for a request over the rate limit
    /// ([RateLimitExceededError](https://developer.apple.com/documentation/appstoreserverapi/ratelimitexceedederror)).
    public static let rateLimitExceededErrorCode: Int64 = 4_290_000

    /// The errorCodes Apple documents as worth retrying: `AccountNotFoundRetryableError`,
    /// `AppNotFoundRetryableError`, `OriginalTransactionIdNotFoundRetryableError` and `GeneralInternalRetryableError`.
    public static let retryableErrorCodes: Set<Int64> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]

    /// The failure an error thrown by a fetch stands for: itself where it is one, else `underlying(_:)` describing it.
    public init(_ error: any Error) {
        self = (error as? AppStoreServerAPIFailure) ?? .underlying(String(describing: error))
    }

    /// When to try again, where the failure says: the retry time of `rateLimited(retry:)`, else nil.
    public var retry: RetryTime? {
        if case .rateLimited(let retry) = self { retry } else { nil }
    }

    /// Whether the same request may succeed later: a rate limit, an HTTP 5xx, an errorCode in `retryableErrorCodes`,
    /// or a failure without Apple's answer. A 4xx with another errorCode (a bad revision, an unknown transaction) fails
    /// again however long one waits.
    public var isRetryable: Bool {
        switch self {
        case .rateLimited, .underlying:
            true
        case .server(let status, let errorCode, _):
            status >= 500 || errorCode.map(Self.retryableErrorCodes.contains) == true
        }
    }

    /// `HTTP 404, errorCode 4040010: Transaction id not found.`, `rate limited, retry at ...`, or the underlying error.
    public var description: String {
        switch self {
        case .server(let status, let errorCode, let errorMessage):
            "HTTP \(status)" + (errorCode.map { ", errorCode \($0)" } ?? "") + (errorMessage.map { ": \($0)" } ?? "")
        case .rateLimited(let retry?):
            "rate limited (HTTP 429), retry \(retry)"
        case .rateLimited(nil):
            "rate limited (HTTP 429), without a retry time"
        case .underlying(let description):
            description
        }
    }
}
