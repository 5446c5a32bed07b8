/// Why fetching every page of a paged App Store Server API endpoint stopped, with what a caller needs to resume: the
/// pages fetched before it, in order, and the token to continue from.
///
/// `fetch_failed` carries the fetch's `failure` and its `retry` time: wait until then (the library reads no clock),
/// then pass the error to the `resuming:` form of the helper, which fetches the rest from `resumeToken` and returns
/// every page, those of this error first. `token_repeated` and `token_missing` mean the server broke the paging
/// contract; asking again would loop, so they are not resumed.
public struct PagingError<Page: Hashable & Sendable>: Error, CodedProblem {
    /// The kind of stop: `PagingErrorCode`.
    public typealias Code = PagingErrorCode

    /// Why the paging stopped.
    public var code: Code
    /// What happened, naming the endpoint, the token and the number of pages fetched.
    public var message: String
    /// The fetch's failure, for `fetch_failed`; nil when the server's answers were at fault.
    public var failure: AppStoreServerAPIFailure?
    /// The pages fetched before the stop, in the order they were asked for.
    public var pages: [Page]
    /// The token that asks for the page after the last of `pages` (a `revision` or a `paginationToken`), nil for the
    /// first page; for `token_repeated` the token the server gave again.
    public var resumeToken: String?

    /// Creates an error; the helpers make them.
    public init(
        code: Code, message: String, failure: AppStoreServerAPIFailure? = nil, pages: [Page] = [],
        resumeToken: String? = nil
    ) {
        self.code = code
        self.message = message
        self.failure = failure
        self.pages = pages
        self.resumeToken = resumeToken
    }

    /// When the failed fetch may be tried again, where the failure says (Apple's `Retry-After` on a 429).
    public var retry: RetryTime? { failure?.retry }
}

/// The codes of `PagingError`: an open set, so later versions may add codes.
public struct PagingErrorCode: OpenCode {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A page could not be fetched: `failure` says why and `retry` when to try again.
    public static let fetchFailed = PagingErrorCode(rawValue: "fetch_failed")
    /// A page gave as its next token one already followed in this run: the server would send the same pages forever.
    public static let tokenRepeated = PagingErrorCode(rawValue: "token_repeated")
    /// A page said more pages follow (`hasMore` true) without a token to ask for them.
    public static let tokenMissing = PagingErrorCode(rawValue: "token_missing")
}
