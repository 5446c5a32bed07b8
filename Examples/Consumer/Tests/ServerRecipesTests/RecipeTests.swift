import AppStoreServerLibrary
import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import ServerRecipes

/// A store in memory that counts what the recipes do: each key's row and version, and the outbox.
actor MemoryStore: EntitlementStore {
    struct Row {
        var ledger: Data
        var report: Data
        var validUntil: Date?
        var version: Int64
    }

    var rows: [String: Row] = [:]
    var writes = 0
    var conflicts = 0
    var links = AccountLinks()
    var outbox: [(id: Int64, action: OutboxAction, delivered: Bool)] = []
    /// Runs before each conditional write, as another writer would: a test moves the version here.
    var beforeWrite: (@Sendable (MemoryStore, String) async throws -> Void)? = nil
    /// Where every transaction id names one customer, as the account links of a real store would say: that customer.
    let oneCustomer: String?

    init(oneCustomer: String? = nil) {
        self.oneCustomer = oneCustomer
    }

    private func key(_ customer: String) -> String { oneCustomer ?? customer }

    func load(_ customer: String) throws -> StoredLedger {
        guard let row = rows[key(customer)] else { return StoredLedger() }
        return StoredLedger(
            ledger: try CustomerLedger(jsonData: row.ledger),
            report: try EntitlementReport(jsonData: row.report), version: row.version)
    }
    func write(_ decision: DecisionWrite, under customer: String, ifVersion version: Int64) async throws -> Bool {
        if let beforeWrite {
            self.beforeWrite = nil
            try await beforeWrite(self, customer)
        }
        guard (rows[key(customer)]?.version ?? 0) == version else {
            conflicts += 1
            return false
        }
        writes += 1
        rows[key(customer)] = Row(
            ledger: try decision.ledger.jsonData(), report: try decision.report.jsonData(),
            validUntil: decision.report.validUntil, version: version + 1)
        for action in decision.actions { outbox.append((Int64(outbox.count + 1), action, false)) }
        return true
    }
    func keysDue(at instant: Date) -> [String] {
        rows.filter { $0.value.validUntil.map { $0 <= instant } ?? false }.keys.sorted()
    }
    func pendingActions(limit: Int) -> [PendingAction] {
        outbox.filter { !$0.delivered }.prefix(limit).map { PendingAction(id: $0.id, action: $0.action) }
    }
    func markDelivered(_ id: Int64) {
        if let index = outbox.firstIndex(where: { $0.id == id }) { outbox[index].delivered = true }
    }
    func accountLinks() -> AccountLinks { links }
    func save(_ links: AccountLinks) { self.links = links }

    /// The stored ledger of a key.
    func ledger(of customer: String) throws -> CustomerLedger { try load(customer).ledger }
    /// The stored report of a key.
    func report(of customer: String) throws -> EntitlementReport? { try load(customer).report }
    /// The notificationUUIDs every stored ledger holds.
    func notificationUUIDs() throws -> [String] {
        try rows.keys.flatMap { try ledger(of: $0).notifications.compactMap(\.notificationUUID) }
    }
    /// Sets what runs before the next conditional write.
    func setBeforeWrite(_ hook: @escaping @Sendable (MemoryStore, String) async throws -> Void) { beforeWrite = hook }
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
            catalog: TestProduct.catalog(of: [monthly], bundleId: app.bundleId), clock: { now })
    }

    /// The instant of the recipes' decisions: within the month of every transaction the tests build.
    static let now = purchase.addingTimeInterval(5 * 86_400)

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
            // Acted on once: the first write calls for the grant's push; a repeat absorbs as one, and calls for none.
            #expect(await store.outbox.count == (statuses.contains(200) ? 1 : 0))
        }
        #expect(statuses == row.statuses)
        #expect(await store.writes == statuses.filter { $0 == 200 }.count)
        // The notification is kept in the customer's stored ledger with what the history held.
        let rows = await store.rows
        #expect(rows.count == 1)
        let stored = try await store.ledger(of: try #require(rows.keys.first))
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
        let recorded = try await store.notificationUUIDs()
        #expect(recorded.count == row.recorded)
        #expect(Set(recorded).count == recorded.count, "no notification recorded twice")
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
        #expect(await store.writes == (row.expected == .linked ? 1 : 0), "granted from Apple's history only")
    }
}

/// The write path under concurrency: a writer that finds the version moved merges, never overwrites.
struct ConcurrentWriterTests {
    static let first = Recipe.transaction(day: 0, appAccountToken: Recipe.alice)
    static let renewal = TransactionBuilder.renewal(of: first)

    @Test
    func aWriterThatFindsTheVersionMovedMergesWhatTheOtherWrote() async throws {
        let store = MemoryStore(oneCustomer: "customer")
        let service = try Recipe.service(store: store)
        let renewed = try FakeJWSSigner().requestBody(for: NotificationBuilder.didRenew(Self.renewal, app: Recipe.app))
        // Another writer delivers the renewal between this writer's load and its write.
        await store.setBeforeWrite { store, _ in
            #expect(await service.receiveAppStoreNotification(body: renewed) == 200)
        }
        let subscribed = try FakeJWSSigner().requestBody(
            for: NotificationBuilder.subscribed(Self.first, app: Recipe.app))
        #expect(await service.receiveAppStoreNotification(body: subscribed) == 200)
        #expect(await store.conflicts == 1)
        #expect(await store.writes == 2)
        let ledger = try await store.ledger(of: "customer")
        #expect(Set(ledger.notifications.map(\.notificationType)) == [.subscribed, .didRenew])
        #expect(try await store.report(of: "customer")?.products.map(\.state) == [.active])
    }

    @Test
    func aNotificationBeforeTheLinkWaitsUnderItsTransactionAndJoinsTheCustomerOnLink() async throws {
        let store = MemoryStore()
        let service = try Recipe.service(store: store)
        let original = try #require(Self.first.originalTransactionId)
        let subscribed = try FakeJWSSigner().requestBody(
            for: NotificationBuilder.subscribed(Self.first, app: Recipe.app))
        #expect(await service.receiveAppStoreNotification(body: subscribed) == 200)
        #expect(await store.rows.keys.sorted() == ["transaction:\(original)"])

        let response = try await service.link(
            signedTransaction: try FakeJWSSigner().sign(Self.first), session: Session(appAccountToken: Recipe.alice))
        guard case .linked(let report) = response else {
            Issue.record("not linked: \(response)")
            return
        }
        let customer = try await service.ledgerKey(of: original)
        #expect(customer == "customer:\(Recipe.alice.uuid.uuidString.lowercased())")
        #expect(try await store.ledger(of: customer).notifications.map(\.notificationType) == [.subscribed])
        #expect(report.products.map(\.state) == [.active])

        // Once linked, the next notification goes straight to the customer's ledger.
        let renewed = try FakeJWSSigner().requestBody(for: NotificationBuilder.didRenew(Self.renewal, app: Recipe.app))
        #expect(await service.receiveAppStoreNotification(body: renewed) == 200)
        let types = try await store.ledger(of: customer).notifications.map(\.notificationType)
        #expect(Set(types) == [.subscribed, .didRenew])
        #expect(try await store.ledger(of: "transaction:\(original)").notifications.count == 1)
    }
}
