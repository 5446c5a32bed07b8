import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The paging helpers of Get Transaction History and Get Notification History, against `FakeAppStore` and against
/// hand-written servers that break the paging contract.
struct PagingTests {
    /// A subscriber of the demo app who renewed `renewals` times, each renewal with its DID_RENEW.
    static func subscriber(renewals: Int, from start: Date = DemoApp.date("2026-01-02T10:15:00Z")) -> History {
        var transactions = [TransactionBuilder.subscription(.premiumMonthly, purchased: start)]
        for _ in 0..<renewals {
            transactions.append(TransactionBuilder.renewal(of: transactions[transactions.count - 1]))
        }
        return History(
            transactions: transactions,
            notifications: [NotificationBuilder.subscribed(transactions[0])]
                + transactions.dropFirst().map { NotificationBuilder.didRenew($0) })
    }

    static let everything = NotificationHistoryRequestBody(
        startDate: DemoApp.date("2025-01-01T00:00:00Z"), endDate: DemoApp.date("2028-01-01T00:00:00Z"))

    static func transactionId(_ history: History) throws -> String {
        try #require(history.transactions.first?.transactionId)
    }

    struct PageSizeCase: CustomTestStringConvertible, Sendable {
        var transactions: Int
        var pageSize: Int
        var testDescription: String { "\(transactions) transactions, \(pageSize) a page" }

        /// Generated sizes: every page size from 1 to one past the count, for counts drawn from a fixed seed.
        static let all: [PageSizeCase] = {
            var random = SeededRandom(seed: 20_260_302)
            let counts = [1, 2] + (0..<3).map { _ in Int.random(in: 3...25, using: &random) }
            return counts.flatMap { count in
                Set([1, 2, 3, count - 1, count, count + 1, Int.random(in: 1...count + 1, using: &random)])
                    .filter { $0 >= 1 }.sorted().map { PageSizeCase(transactions: count, pageSize: $0) }
            }
        }()
    }

    @Test(arguments: PageSizeCase.all)
    func transactionHistoryCollectsEveryPageInOrder(_ row: PageSizeCase) async throws {
        let history = Self.subscriber(renewals: row.transactions - 1)
        let store = FakeAppStore(customers: [history], pageSize: row.pageSize)
        let id = try Self.transactionId(history)
        let pages = try await allTransactionHistoryPages { revision in
            try await store.getTransactionHistory(transactionId: id, revision: revision)
        }
        let expectedPages = (row.transactions + row.pageSize - 1) / row.pageSize
        #expect(pages.count == expectedPages)
        #expect(pages.map(\.hasMore) == Array(repeating: true, count: expectedPages - 1) + [false])
        let fetched = try pages.flatMap { try $0.decodeTransactionsUnverified() }
        #expect(fetched == history.transactions, "every transaction once, oldest first")
        // Each request after the first carried the revision of the page before it.
        let calls = await store.calls
        #expect(calls.map(\.request.token) == [nil] + pages.dropLast().map(\.revision))
        #expect(calls.allSatisfy { $0.failure == nil })
    }

    @Test(arguments: PageSizeCase.all)
    func notificationHistoryCollectsEveryPageInOrder(_ row: PageSizeCase) async throws {
        let history = Self.subscriber(renewals: row.transactions - 1)
        let store = FakeAppStore(customers: [history], pageSize: row.pageSize)
        let pages = try await allNotificationHistoryPages(Self.everything) { body, token in
            try await store.getNotificationHistory(body, paginationToken: token)
        }
        #expect(pages.count == (row.transactions + row.pageSize - 1) / row.pageSize)
        #expect(pages.last?.nextPaginationToken == nil)
        let fetched = try pages.flatMap { try $0.decodeNotificationsUnverified() }
        #expect(fetched.map(\.notificationUUID) == history.notifications.map(\.notificationUUID))
        #expect(await store.calls.map(\.request.token) == [nil] + pages.dropLast().map(\.paginationToken))
    }

    struct OutageCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var failure: AppStoreServerAPIFailure
        var page: Int

        static let retryAt = DemoApp.date("2026-03-02T10:16:00Z")
        static let all: [OutageCase] = [
            .init(
                testDescription: "429 with Retry-After on page 3 -> fetch_failed, retry at its instant",
                failure: .rateLimited(retry: .at(retryAt)), page: 2),
            .init(
                testDescription: "429 without Retry-After on the first page -> fetch_failed, no retry time",
                failure: .rateLimited(retry: nil), page: 0),
            .init(
                testDescription: "HTTP 500 errorCode 5000001 on the last page -> fetch_failed, retryable",
                failure: .server(httpStatus: 500, errorCode: 5_000_001, errorMessage: "An unknown error occurred."),
                page: 4),
            .init(
                testDescription: "no connection on page 2 -> fetch_failed, the underlying error in words",
                failure: .underlying("the network connection was lost"), page: 1),
        ]
    }

    /// A failure mid-way stops with the pages before it and the revision to resume from; resuming from the error
    /// fetches the rest exactly, and the result equals an uninterrupted run.
    @Test(arguments: OutageCase.all)
    func aFailedTransactionHistoryPageResumesExactly(_ row: OutageCase) async throws {
        let history = Self.subscriber(renewals: 9)  // 10 transactions, 5 pages of 2
        let id = try Self.transactionId(history)
        let unfailing = FakeAppStore(customers: [history], pageSize: 2)
        let uninterrupted = try await allTransactionHistoryPages { revision in
            try await unfailing.getTransactionHistory(transactionId: id, revision: revision)
        }
        #expect(uninterrupted.count == 5)
        let store = FakeAppStore(customers: [history], pageSize: 2)
        await store.fail(page: row.page, of: .transactionHistory, with: row.failure)
        let fetch: (String?) async throws -> TransactionHistoryResponse = { revision in
            try await store.getTransactionHistory(transactionId: id, revision: revision)
        }
        let stopped = await #expect(throws: PagingError<TransactionHistoryResponse>.self) {
            try await allTransactionHistoryPages(fetch: fetch)
        }
        let error = try #require(stopped)
        #expect(error.code == .fetchFailed)
        #expect(error.failure == row.failure)
        #expect(error.retry == row.failure.retry)
        #expect(error.failure?.isRetryable == true)
        #expect(error.pages == Array(uninterrupted.prefix(row.page)))
        #expect(error.resumeToken == (row.page == 0 ? nil : uninterrupted[row.page - 1].revision))
        let callsBefore = await store.calls.count
        let resumed = try await allTransactionHistoryPages(resuming: error, fetch: fetch)
        #expect(resumed == uninterrupted)
        // The resumption asked for the failed page again and the pages after it, nothing before.
        let resumedCalls = await store.calls.dropFirst(callsBefore)
        #expect(
            resumedCalls.map(\.request.token) == [error.resumeToken]
                + uninterrupted.dropLast().dropFirst(row.page).map(\.revision))
    }

    @Test
    func aFailedNotificationHistoryPageResumesWithTheSameBody() async throws {
        let history = Self.subscriber(renewals: 6)  // 7 notifications, 4 pages of 2
        let store = FakeAppStore(customers: [history], pageSize: 2)
        let retryAt = DemoApp.date("2026-03-02T11:00:00Z")
        await store.fail(page: 1, of: .notificationHistory, with: .rateLimited(retry: .at(retryAt)), times: 2)
        let fetch: (NotificationHistoryRequestBody, String?) async throws -> NotificationHistoryResponse = {
            try await store.getNotificationHistory($0, paginationToken: $1)
        }
        let first = await #expect(throws: PagingError<NotificationHistoryResponse>.self) {
            try await allNotificationHistoryPages(Self.everything, fetch: fetch)
        }
        let error = try #require(first)
        #expect(error.retry == .at(retryAt))
        #expect(error.pages.count == 1)
        #expect(error.resumeToken == error.pages.first?.paginationToken)
        // The page fails twice: the first resumption stops again at the same place, with the same page kept.
        let second = await #expect(throws: PagingError<NotificationHistoryResponse>.self) {
            try await allNotificationHistoryPages(Self.everything, resuming: error, fetch: fetch)
        }
        let again = try #require(second)
        #expect(again.pages == error.pages && again.resumeToken == error.resumeToken)
        let pages = try await allNotificationHistoryPages(Self.everything, resuming: again, fetch: fetch)
        let notifications = try pages.flatMap { try $0.decodeNotificationsUnverified() }
        #expect(notifications.map(\.notificationUUID) == history.notifications.map(\.notificationUUID))
        #expect(
            await store.calls.compactMap(\.failure) == Array(repeating: .rateLimited(retry: .at(retryAt)), count: 2))
    }

    // MARK: - Servers that break the paging contract

    /// A server scripted page by page: each answer's revision and hasMore.
    actor ScriptedServer {
        var answers: [(revision: String?, hasMore: Bool?)]
        var asked: [String?] = []

        init(_ answers: [(revision: String?, hasMore: Bool?)]) { self.answers = answers }

        func page(_ revision: String?) -> TransactionHistoryResponse {
            asked.append(revision)
            let answer = answers[min(asked.count - 1, answers.count - 1)]  // the last answer forever
            return TransactionHistoryResponse(
                revision: answer.revision, hasMore: answer.hasMore, signedTransactions: [])
        }
    }

    struct LoopCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var answers: [(revision: String?, hasMore: Bool?)]
        var start: String? = nil
        var code: PagingErrorCode?
        var pages: Int

        static let all: [LoopCase] = [
            .init(
                testDescription: "the same revision forever with hasMore -> token_repeated after 2 pages",
                answers: [("A", true)], code: .tokenRepeated, pages: 2),
            .init(
                testDescription: "a cycle of three revisions -> token_repeated when the first comes back",
                answers: [("A", true), ("B", true), ("C", true), ("A", true)], code: .tokenRepeated, pages: 4),
            .init(
                testDescription: "the revision it was started from, given back -> token_repeated after 1 page",
                answers: [("S", true)], start: "S", code: .tokenRepeated, pages: 1),
            .init(
                testDescription: "hasMore without a revision -> token_missing",
                answers: [("A", true), (nil, true)], code: .tokenMissing, pages: 2),
            .init(
                testDescription: "the same revision on a last page (hasMore false) is no loop",
                answers: [("A", true), ("A", false)], code: nil, pages: 2),
            .init(
                testDescription: "hasMore absent ends the paging",
                answers: [("A", nil)], code: nil, pages: 1),
        ]
    }

    @Test(arguments: LoopCase.all)
    func aServerThatLoopsStopsWithAnError(_ row: LoopCase) async throws {
        let server = ScriptedServer(row.answers)
        do throws(PagingError<TransactionHistoryResponse>) {
            let pages = try await allTransactionHistoryPages(from: row.start) { await server.page($0) }
            #expect(row.code == nil)
            #expect(pages.count == row.pages)
        } catch {
            #expect(error.code == row.code, "\(error)")
            #expect(error.pages.count == row.pages)
            #expect(error.failure == nil)
            // Resuming a broken contract asks nothing more: it would loop again.
            let asked = await server.asked.count
            await #expect(throws: error) {
                try await allTransactionHistoryPages(resuming: error) { await server.page($0) }
            }
            #expect(await server.asked.count == asked)
        }
    }

    @Test
    func aNotificationHistoryServerThatRepeatsItsTokenStops() async throws {
        let error = await #expect(throws: PagingError<NotificationHistoryResponse>.self) {
            try await allNotificationHistoryPages(Self.everything) { _, _ in
                NotificationHistoryResponse(paginationToken: "same", hasMore: true, notificationHistory: [])
            }
        }
        #expect(error?.code == .tokenRepeated)
        #expect(error?.resumeToken == "same")
        #expect(error?.pages.count == 2)
    }

    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    @Test
    func anErrorOfAnotherTypeIsKeptInWords() async throws {
        let error = await #expect(throws: PagingError<TransactionHistoryResponse>.self) {
            try await allTransactionHistoryPages { _ in throw Unreachable() }
        }
        #expect(error?.failure == .underlying("connection refused"))
        #expect(error?.resumeToken == nil)
        #expect(error?.description.hasPrefix("fetch_failed: Get Transaction History failed at the first page") == true)
    }

    // MARK: - Retry times and failures

    struct RetryHeaderCase: CustomTestStringConvertible, Sendable {
        var header: String
        var retry: RetryTime?
        var testDescription: String { "Retry-After \"\(header)\" -> \(retry.map { "\($0)" } ?? "nil")" }

        static let all: [RetryHeaderCase] = [
            .init(header: "1772446560000", retry: .at(DemoApp.date("2026-03-02T10:16:00Z"))),
            .init(header: "0", retry: .at(Date(timeIntervalSince1970: 0))),
            .init(header: "-1", retry: nil),
            .init(header: "", retry: nil),
            .init(header: "Mon, 02 Mar 2026 10:16:00 GMT", retry: nil),
            .init(header: "1772446560000.5", retry: nil),
        ]
    }

    @Test(arguments: RetryHeaderCase.all)
    func applesRetryAfterHeaderIsMillisecondsSince1970(_ row: RetryHeaderCase) {
        #expect(RetryTime(retryAfterHeader: row.header) == row.retry)
    }

    @Test
    func aRetryTimeIsAnInstantGivenWhenTheFailureArrived() {
        let received = DemoApp.date("2026-03-02T10:15:00Z")
        #expect(RetryTime.after(.seconds(90)).instant(receivedAt: received) == DemoApp.date("2026-03-02T10:16:30Z"))
        #expect(RetryTime.after(.milliseconds(1500)).instant(receivedAt: received) == received.addingTimeInterval(1.5))
        #expect(RetryTime.at(received).instant(receivedAt: .distantFuture) == received)
    }

    struct RetryableCase: CustomTestStringConvertible, Sendable {
        var failure: AppStoreServerAPIFailure
        var retryable: Bool
        var testDescription: String { "\(failure) -> \(retryable ? "retryable" : "final")" }

        static let all: [RetryableCase] = [
            .init(failure: .rateLimited(retry: nil), retryable: true),
            .init(failure: .server(httpStatus: 500, errorCode: 5_000_000), retryable: true),
            .init(failure: .server(httpStatus: 503), retryable: true),
            .init(failure: .server(httpStatus: 404, errorCode: 4_040_002), retryable: true),
            .init(failure: .server(httpStatus: 404, errorCode: 4_040_006), retryable: true),
            .init(failure: FakeAppStore.transactionIdNotFound, retryable: false),
            .init(failure: FakeAppStore.invalidRequestRevision, retryable: false),
            .init(failure: .server(httpStatus: 401), retryable: false),
            .init(failure: .underlying("timed out"), retryable: true),
        ]
    }

    @Test(arguments: RetryableCase.all)
    func retryableFailures(_ row: RetryableCase) {
        #expect(row.failure.isRetryable == row.retryable)
    }

    @Test
    func failuresDescribeThemselves() {
        #expect(
            FakeAppStore.transactionIdNotFound.description == "HTTP 404, errorCode 4040010: Transaction id not found.")
        #expect(
            AppStoreServerAPIFailure.rateLimited(retry: .at(DemoApp.date("2026-03-02T10:16:00Z"))).description
                == "rate limited (HTTP 429), retry at 2026-03-02T10:16:00Z")
        #expect(AppStoreServerAPIFailure(Unreachable()) == .underlying("connection refused"))
        #expect(AppStoreServerAPIFailure(FakeAppStore.invalidPaginationToken) == FakeAppStore.invalidPaginationToken)
    }
}
