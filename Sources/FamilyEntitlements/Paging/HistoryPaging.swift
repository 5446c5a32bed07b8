/// Every page of Get Transaction History for one customer, in order, from `revision` on (nil: from the first page).
///
/// `fetch` asks Apple for one page with the `revision` it is given (nil for the first page) and throws an
/// `AppStoreServerAPIFailure` when the request fails; any other error it throws is kept in words as `underlying(_:)`.
/// The helper follows each page's `revision` while `hasMore` is true; the last page's `revision` is the one to store
/// and pass next time, to fetch only what changed since. It does no networking, reads no clock and never waits: a
/// failure stops it with a `PagingError` holding the pages fetched so far, the revision to resume from and the
/// failure's retry time. A server that gives a revision already followed, or `hasMore` without a revision, stops it
/// with `token_repeated` or `token_missing`, never a loop.
public func allTransactionHistoryPages(
    from revision: String? = nil,
    fetch: (_ revision: String?) async throws -> TransactionHistoryResponse
) async throws(PagingError<TransactionHistoryResponse>) -> [TransactionHistoryResponse] {
    try await allPages(
        of: "Get Transaction History", token: "revision", from: revision, after: [], fetch: fetch,
        next: { page in (page.hasMore == true, page.revision) })
}

/// Every page of Get Transaction History: the pages of a `fetch_failed` error, then the rest, fetched from its
/// `resumeToken` on.
///
/// An error of another code is thrown again as it is: the server broke the paging contract, and asking again would
/// loop. A new failure carries every page fetched, those of `failure` first.
public func allTransactionHistoryPages(
    resuming failure: PagingError<TransactionHistoryResponse>,
    fetch: (_ revision: String?) async throws -> TransactionHistoryResponse
) async throws(PagingError<TransactionHistoryResponse>) -> [TransactionHistoryResponse] {
    guard failure.code == .fetchFailed else { throw failure }
    return try await allPages(
        of: "Get Transaction History", token: "revision", from: failure.resumeToken, after: failure.pages,
        fetch: fetch, next: { page in (page.hasMore == true, page.revision) })
}

/// Every page of Get Notification History for one request body, in order, from `paginationToken` on (nil: from the
/// first page).
///
/// `fetch` posts `body` to Apple with the `paginationToken` query parameter it is given (nil for the first page) and
/// throws an `AppStoreServerAPIFailure` when the request fails; any other error it throws is kept in words as
/// `underlying(_:)`. The helper follows each page's `paginationToken` while `hasMore` is true (its
/// `nextPaginationToken`). It does no networking, reads no clock and never waits: a failure stops it with a
/// `PagingError` holding the pages fetched so far, the token to resume from and the failure's retry time. A token
/// already followed, or `hasMore` without a token, stops it with `token_repeated` or `token_missing`, never a loop.
public func allNotificationHistoryPages(
    _ body: NotificationHistoryRequestBody,
    from paginationToken: String? = nil,
    fetch: (_ body: NotificationHistoryRequestBody, _ paginationToken: String?) async throws
        -> NotificationHistoryResponse
) async throws(PagingError<NotificationHistoryResponse>) -> [NotificationHistoryResponse] {
    try await allPages(
        of: "Get Notification History", token: "paginationToken", from: paginationToken, after: [],
        fetch: { token in try await fetch(body, token) },
        next: { page in (page.hasMore == true, page.paginationToken) })
}

/// Every page of Get Notification History for one request body: the pages of a `fetch_failed` error, then the rest,
/// fetched from its `resumeToken` on with the same body.
///
/// An error of another code is thrown again as it is. A new failure carries every page fetched, those of `failure`
/// first.
public func allNotificationHistoryPages(
    _ body: NotificationHistoryRequestBody,
    resuming failure: PagingError<NotificationHistoryResponse>,
    fetch: (_ body: NotificationHistoryRequestBody, _ paginationToken: String?) async throws
        -> NotificationHistoryResponse
) async throws(PagingError<NotificationHistoryResponse>) -> [NotificationHistoryResponse] {
    guard failure.code == .fetchFailed else { throw failure }
    return try await allPages(
        of: "Get Notification History", token: "paginationToken", from: failure.resumeToken, after: failure.pages,
        fetch: { token in try await fetch(body, token) },
        next: { page in (page.hasMore == true, page.paginationToken) })
}

/// The paging loop both endpoints share: fetch from `start`, follow each page's next token while it says more pages
/// follow, and stop with a `PagingError` on a failed fetch or a token that cannot end the loop.
private func allPages<Page: Hashable & Sendable>(
    of endpoint: String, token name: String, from start: String?, after earlier: [Page],
    fetch: (String?) async throws -> Page, next: (Page) -> (hasMore: Bool, token: String?)
) async throws(PagingError<Page>) -> [Page] {
    var pages = earlier
    var token = start
    var followed: Set<String> = start.map { [$0] } ?? []
    while true {
        let page: Page
        do {
            page = try await fetch(token)
        } catch {
            let failure = AppStoreServerAPIFailure(error)
            throw PagingError(
                code: .fetchFailed,
                message: "\(endpoint) failed at \(token.map { "\(name) \($0)" } ?? "the first page") after "
                    + "\(pages.count) page(s): \(failure)",
                failure: failure, pages: pages, resumeToken: token)
        }
        pages.append(page)
        let (hasMore, following) = next(page)
        guard hasMore else { return pages }
        guard let following else {
            throw PagingError(
                code: .tokenMissing,
                message: "\(endpoint) page \(pages.count) says more pages follow (hasMore) but has no \(name)",
                pages: pages, resumeToken: nil)
        }
        guard followed.insert(following).inserted else {
            throw PagingError(
                code: .tokenRepeated,
                message: "\(endpoint) page \(pages.count) gives \(name) \(following), already followed: the server "
                    + "would send the same pages forever",
                pages: pages, resumeToken: following)
        }
        token = following
    }
}
