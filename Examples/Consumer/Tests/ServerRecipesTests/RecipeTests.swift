import AppStoreServerLibrary
import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import ServerRecipes

/// A store in memory that counts what the recipes do.
actor MemoryStore: EntitlementStore {
    var recorded: [String] = []
    var rebuilds = 0
    var links = AccountLinks()
    var ledgers: [String: Data] = [:]
    var reports: [String: Data] = [:]
    var schedules: [String: Date?] = [:]
    /// Where every transaction id names one customer, as the account links of a real store would say: that customer.
    let oneCustomer: String?

    init(oneCustomer: String? = nil) {
        self.oneCustomer = oneCustomer
    }

    private func key(_ customer: String) -> String { oneCustomer ?? customer }

    func hasRecorded(_ notification: NotificationPayload) -> Bool {
        recorded.contains(notification.notificationUUID ?? "")
    }
    func record(_ notification: NotificationPayload) { recorded.append(notification.notificationUUID ?? "") }
    func ledger(of customer: String) throws -> CustomerLedger {
        try ledgers[key(customer)].map { try CustomerLedger(jsonData: $0) } ?? CustomerLedger()
    }
    func save(_ ledger: CustomerLedger, of customer: String) throws {
        ledgers[key(customer)] = try ledger.jsonData()
    }
    func report(of customer: String) throws -> EntitlementReport? {
        try reports[key(customer)].map { try JSONDecoder().decode(EntitlementReport.self, from: $0) }
    }
    func save(_ report: EntitlementReport, of customer: String) throws {
        rebuilds += 1
        reports[key(customer)] = try JSONEncoder().encode(report)
    }
    func scheduleDecision(of customer: String, at instant: Date?) { schedules[key(customer)] = instant }
    func accountLinks() -> AccountLinks { links }
    func save(_ links: AccountLinks) { self.links = links }
}

/// Get Notification History pages scripted by a test.
struct ScriptedPages: NotificationHistoryPages {
    var pages: [String: FamilyEntitlements.NotificationHistoryResponse]

    func page(_ body: NotificationHistoryRequestBody, paginationToken: String?) async throws
        -> FamilyEntitlements.NotificationHistoryResponse
    {
        #expect(body.onlyFailures)
        return pages[paginationToken ?? "first"] ?? FamilyEntitlements.NotificationHistoryResponse(hasMore: false)
    }

    /// A page as Apple sends it: its items' signed notifications, and a token for the next page where there is one.
    static func page(_ signedPayloads: [String], next: String? = nil) -> FamilyEntitlements.NotificationHistoryResponse
    {
        FamilyEntitlements.NotificationHistoryResponse(
            paginationToken: next ?? "last-token", hasMore: next != nil,
            notificationHistory: signedPayloads.map {
                FamilyEntitlements.NotificationHistoryResponseItem(signedPayload: $0)
            })
    }
}

/// The silent pushes the recipes send, by customer.
actor PushLog {
    var pushes: [(customer: String, codes: [String])] = []

    func append(_ customer: String, _ codes: [String]) { pushes.append((customer, codes)) }
}

/// The recipes of docs/integrating.md, run with the fake verifier against the app under test.
enum Recipe {
    static let app = AppUnderTest(bundleId: "com.example.family", appAppleId: 1_234_567_890)
    static let monthly = TestProduct.autoRenewable("com.example.family.monthly", group: "20000001")
    static let purchase = DemoApp.date("2026-03-02T10:15:00Z")
    static let alice = AppAccountToken(UUID(uuidString: "5b0e9c2e-7d4c-4f4a-9a39-4a0c9a3c1a01") ?? UUID())
    static let bob = AppAccountToken(UUID(uuidString: "5b0e9c2e-7d4c-4f4a-9a39-4a0c9a3c1a02") ?? UUID())

    static func service(_ verifier: FakeJWSVerifier = FakeJWSVerifier(), store: MemoryStore) throws
        -> AppStoreService<FakeJWSVerifier>
    {
        AppStoreService(
            intake: NotificationIntake(
                policy: .production(bundleId: app.bundleId, appAppleId: 1_234_567_890), verifier: verifier),
            apiClient: try AppStoreServerAPIClient(
                signingKey: "", keyId: "", issuerId: "", bundleId: app.bundleId, environment: .production),
            store: store, logger: Logger { _ in }, metrics: Metrics { _, _ in }, devices: Devices { _, _ in },
            catalog: TestProduct.catalog(of: [monthly], bundleId: app.bundleId))
    }

    static func transaction(day: Int, appAccountToken: AppAccountToken? = nil, environment: Environment? = nil)
        -> TransactionPayload
    {
        TransactionBuilder.subscription(
            monthly, purchased: purchase.addingTimeInterval(Double(day) * 86_400),
            appAccountToken: appAccountToken?.uuid, environment: environment, app: app)
    }

    static func signedPayload(day: Int) throws -> String {
        try FakeJWSSigner().signedPayload(for: NotificationBuilder.subscribed(transaction(day: day), app: app))
    }
}

struct RecipeTests {
    struct ReceiveCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        /// Whether the verifier is in an outage at each delivery of the same body.
        var outage: [Bool]
        var statuses: [Int]
    }

    @Test(arguments: [
        ReceiveCase(testDescription: "delivered once: 200, handled once", outage: [false], statuses: [200]),
        ReceiveCase(
            testDescription: "outage, Apple retries: 503 then 200, handled once", outage: [true, false],
            statuses: [503, 200]),
        ReceiveCase(
            testDescription: "Apple delivers twice: 200 twice, handled once", outage: [false, false],
            statuses: [200, 200]),
    ])
    func receiveAnswersAppleAndHandlesOnce(_ row: ReceiveCase) async throws {
        let store = MemoryStore()
        let body = try FakeJWSSigner().requestBody(
            for: NotificationBuilder.subscribed(Recipe.transaction(day: 0), app: Recipe.app))
        var statuses: [Int] = []
        for down in row.outage {
            let service = try Recipe.service(down ? .unavailable() : FakeJWSVerifier(), store: store)
            statuses.append(await service.receiveAppStoreNotification(body: body))
            #expect(await store.recorded.count == (statuses.contains(200) ? 1 : 0))
        }
        #expect(statuses == row.statuses)
        #expect(await store.rebuilds == 1)
        // The notification is kept in the customer's stored ledger with what the history held.
        let ledgers = await store.ledgers
        #expect(ledgers.count == 1)
        let stored = try CustomerLedger(jsonData: try #require(ledgers.values.first))
        #expect(stored.notifications.count == 1)
        #expect(stored.notifications.first?.notificationType == .subscribed)
    }

    struct RecoveryCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var outage = false
        /// Days of the notifications already recorded before the recovery runs.
        var alreadyRecorded: [Int] = []
        var complete: Bool
        var recorded: Int
    }

    @Test(arguments: [
        RecoveryCase(
            testDescription:
                "two pages with a forged item, another app's and a repeat: the rest recorded once, complete",
            complete: true, recorded: 3),
        RecoveryCase(
            testDescription: "one of them was delivered before the outage: recorded once, not twice",
            alreadyRecorded: [1], complete: true, recorded: 3),
        RecoveryCase(
            testDescription: "the verifier is still down: nothing recorded, run again later", outage: true,
            complete: false, recorded: 0),
    ])
    func recoveryReplaysWhatAppleCouldNotDeliver(_ row: RecoveryCase) async throws {
        let store = MemoryStore()
        let up = try Recipe.service(store: store)
        for day in row.alreadyRecorded {
            _ = await up.receiveAppStoreNotification(
                body: Data(#"{"signedPayload":"\#(try Recipe.signedPayload(day: day))"}"#.utf8))
        }
        let forged = try Recipe.signedPayload(day: 9).split(separator: ".").dropLast().joined(separator: ".") + ".eA"
        let otherApp = try FakeJWSSigner().signedPayload(
            for: NotificationBuilder.subscribed(TransactionBuilder.subscription(purchased: Recipe.purchase)))
        let pages = ScriptedPages(pages: [
            "first": ScriptedPages.page(
                [try Recipe.signedPayload(day: 0), forged, try Recipe.signedPayload(day: 1)], next: "second"),
            "second": ScriptedPages.page([try Recipe.signedPayload(day: 2), otherApp, try Recipe.signedPayload(day: 0)]
            ),
        ])
        let service = try Recipe.service(row.outage ? .unavailable() : FakeJWSVerifier(), store: store)
        let complete = try await service.recoverNotifications(
            since: Recipe.purchase, until: Recipe.purchase.addingTimeInterval(7 * 86_400), from: pages)
        #expect(complete == row.complete)
        #expect(await store.recorded.count == row.recorded)
        #expect(Set(await store.recorded).count == (await store.recorded).count, "no notification recorded twice")
    }

    enum LinkOutcome: Equatable, Sendable {
        case linked
        case conflict(String)
        case refused(String)
        case retryLater
    }

    struct LinkCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var transaction: TransactionPayload
        var session: AppAccountToken
        /// Whose the purchase already is, if anyone's.
        var linkedTo: AppAccountToken?
        var outage = false
        var expected: LinkOutcome
    }

    @Test(arguments: [
        LinkCase(
            testDescription: "Alice restores her purchase: linked to the session's user",
            transaction: Recipe.transaction(day: 0, appAccountToken: Recipe.alice), session: Recipe.alice,
            expected: .linked),
        LinkCase(
            testDescription: "Bob sends Alice's purchase from his session: conflict, nothing moved",
            transaction: Recipe.transaction(day: 0), session: Recipe.bob, linkedTo: Recipe.alice,
            expected: .conflict("account_token_mismatch")),
        LinkCase(
            testDescription: "Bob replays a purchase bought with Alice's token: conflict",
            transaction: Recipe.transaction(day: 0, appAccountToken: Recipe.alice), session: Recipe.bob,
            expected: .conflict("account_token_mismatch")),
        LinkCase(
            testDescription: "a Sandbox transaction at the production service: refused, wrong_environment",
            transaction: Recipe.transaction(day: 0, environment: .sandbox), session: Recipe.alice,
            expected: .refused("wrong_environment")),
        LinkCase(
            testDescription: "the verifier cannot complete: retry later, nothing linked",
            transaction: Recipe.transaction(day: 0), session: Recipe.alice, outage: true, expected: .retryLater),
    ])
    func linkTakesTheUserFromTheSession(_ row: LinkCase) async throws {
        let store = MemoryStore()
        let original = OriginalTransactionID(try #require(row.transaction.originalTransactionId))
        if let owner = row.linkedTo {
            var links = AccountLinks()
            _ = links.link(AccountLinkRequest(originalTransactionId: original, user: owner))
            await store.save(links)
        }
        let service = try Recipe.service(row.outage ? .unavailable() : FakeJWSVerifier(), store: store)
        let response = try await service.link(
            signedTransaction: try FakeJWSSigner().sign(row.transaction), session: Session(appAccountToken: row.session)
        )
        let outcome: LinkOutcome =
            switch response {
            case .linked: .linked
            case .conflict(let code): .conflict(code)
            case .refused(let code): .refused(code)
            case .retryLater: .retryLater
            }
        #expect(outcome == row.expected)
        #expect(await store.links.owner(of: original) == (row.expected == .linked ? row.session : row.linkedTo))
        #expect(await store.rebuilds == (row.expected == .linked ? 1 : 0), "granted from Apple's history only")
    }
}
