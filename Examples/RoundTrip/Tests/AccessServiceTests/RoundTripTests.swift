import AccessService
import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The service's whole App Store round trip against `FakeAppStore`: a notification through the production intake,
/// the customer's history in pages, an outage in the middle, and the decision at the end.
struct RoundTripTests {
    static let app = AppUnderTest(bundleId: "com.example.family", appAppleId: 1_234_567_890)
    static let monthly = TestProduct.autoRenewable(
        "com.example.family.monthly", group: "20000001", period: ISO8601Duration(months: 1), price: 5990,
        entitlements: ["family"])
    static let catalog = TestProduct.catalog(of: [monthly], bundleId: app.bundleId)
    static let intake = NotificationIntake(
        policy: .production(bundleId: app.bundleId, appAppleId: 1_234_567_890), verifier: FakeJWSVerifier())

    /// A customer who subscribed on 2 January 2026 and renewed four times: five transactions, the last notification a
    /// DID_RENEW.
    static let transactions: [TransactionPayload] = {
        var chain = [
            TransactionBuilder.subscription(monthly, purchased: DemoApp.date("2026-01-02T10:15:00Z"), app: app)
        ]
        for _ in 0..<4 { chain.append(TransactionBuilder.renewal(of: chain[chain.count - 1], into: monthly)) }
        return chain
    }()
    static let asOf = DemoApp.date("2026-05-20T12:00:00Z")
    static let lastRenewal = NotificationBuilder.didRenew(transactions[transactions.count - 1], app: app)

    static func service(_ store: FakeAppStore) -> AccessService<FakeJWSVerifier> {
        AccessService(intake: intake, catalog: catalog) { transactionId, revision in
            try await store.getTransactionHistory(transactionId: transactionId, revision: revision)
        }
    }

    /// Every transaction the ledger holds, on its own or inside a notification (the ledger keeps one copy).
    static func held(_ ledger: CustomerLedger) -> Set<TransactionPayload> {
        ledger.transactions.union(ledger.notifications.compactMap(\.data?.transactionInfo))
    }

    static func store() -> FakeAppStore {
        FakeAppStore(customers: [History(transactions: transactions)], app: app, pageSize: 2)
    }

    @Test
    func aNotificationThenTheWholeHistoryInPages() async throws {
        let store = Self.store()
        var ledger = CustomerLedger()
        let outcome = await Self.service(store).receive(
            requestBody: try FakeJWSSigner().requestBody(for: Self.lastRenewal), into: &ledger, asOf: Self.asOf)
        guard case .decided(let report) = outcome else {
            Issue.record("not decided: \(outcome)")
            return
        }
        #expect(report.hasAccess(to: "family"))
        #expect(outcome.httpStatus == 200)
        #expect(Self.held(ledger) == Set(Self.transactions))
        #expect(ledger.notifications.count == 1)
        let calls = await store.calls
        #expect(calls.count == 3, "five transactions in pages of two")
        #expect(calls.allSatisfy { $0.failure == nil && $0.request.endpoint == .transactionHistory })
    }

    struct OutageCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var failure: AppStoreServerAPIFailure
        var page: Int
        var times: Int

        static let all: [OutageCase] = [
            .init(
                testDescription: "429 on the second page, retry at 12:01: pending with that instant, then decided",
                failure: .rateLimited(retry: .at(DemoApp.date("2026-05-20T12:01:00Z"))), page: 1, times: 1),
            .init(
                testDescription: "429 twice on the last page: pending twice, then decided",
                failure: .rateLimited(retry: .after(.seconds(30))), page: 2, times: 2),
            .init(
                testDescription: "HTTP 500 5000001 on the first page: pending without a retry time, then decided",
                failure: .server(httpStatus: 500, errorCode: 5_000_001, errorMessage: "An unknown error occurred."),
                page: 0, times: 1),
        ]
    }

    @Test(arguments: OutageCase.all)
    func anOutageKeepsTheNotificationAndResumesTheFetch(_ row: OutageCase) async throws {
        let store = Self.store()
        await store.fail(page: row.page, of: .transactionHistory, with: row.failure, times: row.times)
        let service = Self.service(store)
        var ledger = CustomerLedger()
        var outcome = await service.receive(
            requestBody: try FakeJWSSigner().requestBody(for: Self.lastRenewal), into: &ledger, asOf: Self.asOf)
        #expect(outcome.httpStatus == 200, "the notification is taken: Apple need not send it again")
        var pendings = 0
        while case .historyPending(let pending) = outcome, pendings <= row.times {
            pendings += 1
            #expect(pending.paging.code == .fetchFailed)
            #expect(pending.paging.failure == row.failure)
            #expect(pending.paging.retry == row.failure.retry)
            #expect(pending.paging.pages.count == row.page)
            #expect(ledger.transactions.isEmpty, "nothing of a stopped fetch is absorbed")
            #expect(ledger.notifications.count == 1)
            outcome = await service.resume(pending, into: &ledger, asOf: Self.asOf)
        }
        #expect(pendings == row.times)
        guard case .decided(let report) = outcome else {
            Issue.record("not decided: \(outcome)")
            return
        }
        #expect(report.hasAccess(to: "family"))
        #expect(Self.held(ledger) == Set(Self.transactions))
        // Every page was answered once, and the failed one asked again only after the failure.
        let calls = await store.calls
        #expect(calls.filter { $0.failure == nil }.count == 3)
        #expect(calls.compactMap(\.failure) == Array(repeating: row.failure, count: row.times))
    }

    @Test
    func aNotificationThatFailsVerificationIsRetriedByApple() async throws {
        let store = Self.store()
        let service = AccessService(
            intake: NotificationIntake(policy: Self.intake.policy, verifier: FakeJWSVerifier.unavailable()),
            catalog: Self.catalog
        ) { transactionId, revision in
            try await store.getTransactionHistory(transactionId: transactionId, revision: revision)
        }
        var ledger = CustomerLedger()
        let outcome = await service.receive(
            requestBody: try FakeJWSSigner().requestBody(for: Self.lastRenewal), into: &ledger, asOf: Self.asOf)
        #expect(outcome.httpStatus == 503)
        #expect(ledger.count == 0)
        #expect(await store.calls.isEmpty, "no history is fetched for a notification not taken")
    }

    @Test
    func aMemberWhoLeftIsCutOffAfterTheRoundTrip() async throws {
        let scenario = Scenario.oneMemberLeavesLeaver
        let history = try scenario.history()
        let revoke = try #require(history.notifications.first { $0.notificationType == .revoke })
        let store = try FakeAppStore(scenario: scenario, pageSize: 1)
        let service = AccessService(
            intake: NotificationIntake(
                policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId),
                verifier: FakeJWSVerifier()),
            catalog: try scenario.catalog()
        ) { transactionId, revision in
            try await store.getTransactionHistory(transactionId: transactionId, revision: revision)
        }
        var ledger = CustomerLedger(History(notifications: history.notifications.filter { $0 != revoke }))
        let outcome = await service.receive(
            requestBody: try FakeJWSSigner().requestBody(for: revoke), into: &ledger,
            asOf: try scenario.expectedReport().asOf)
        guard case .decided(let report) = outcome else {
            Issue.record("not decided: \(outcome)")
            return
        }
        #expect(report.customerReason == .familyRevocation)
        #expect(!report.hasAccess(to: "premium"))
    }
}
