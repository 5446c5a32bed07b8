// The block of docs/testing-your-code.md on FakeAppStore, compiled and run here (DocSnippetTests checks that each block
// of the page stands in this folder).

import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Testing

@Test func historyPagesThroughARateLimit() async throws {
    let bought = TransactionBuilder.subscription(purchased: DemoApp.date("2026-03-02T10:15:00Z"))
    let history = History(transactions: [bought, TransactionBuilder.renewal(of: bought)])
    let store = FakeAppStore(customers: [history], pageSize: 1)  // Apple's pages hold 20
    let retryAt = DemoApp.date("2026-04-02T10:16:00Z")
    await store.fail(page: 1, of: .transactionHistory, with: .rateLimited(retry: .at(retryAt)))
    let fetch: (String?) async throws -> TransactionHistoryResponse = { revision in
        try await store.getTransactionHistory(transactionId: bought.transactionId ?? "", revision: revision)
    }
    let stopped = await #expect(throws: PagingError<TransactionHistoryResponse>.self) {
        try await allTransactionHistoryPages(fetch: fetch)
    }
    let error = try #require(stopped)
    #expect(error.retry == .at(retryAt))  // the caller waits until then: the library reads no clock
    let pages = try await allTransactionHistoryPages(resuming: error, fetch: fetch)
    #expect(try pages.flatMap { try $0.decodeTransactionsUnverified() } == history.transactions)
    #expect(await store.calls.map(\.request.token) == [nil, pages[0].revision, pages[0].revision])
}
