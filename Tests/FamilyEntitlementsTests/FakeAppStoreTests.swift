import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// `FakeAppStore`: its answers verify through `NotificationIntake` with `FakeJWSVerifier`, rebuild to each shipped
/// scenario's decision, and follow Apple's filters, orders and errors.
struct FakeAppStoreTests {
    static let intake = NotificationIntake(
        policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId), verifier: FakeJWSVerifier())

    static let everything = NotificationHistoryRequestBody(
        startDate: DemoApp.date("2020-01-01T00:00:00Z"), endDate: DemoApp.date("2030-01-01T00:00:00Z"))

    /// Everything the fake answers about the customer of `transactionId`, verified and absorbed into a new ledger:
    /// every page of Get Transaction History, Get All Subscription Statuses, and every page of Get Notification
    /// History with the customer's transaction as its filter.
    static func roundTrip(_ store: FakeAppStore, transactionId: String) async throws -> CustomerLedger {
        var ledger = CustomerLedger()
        let pages = try await allTransactionHistoryPages { revision in
            try await store.getTransactionHistory(transactionId: transactionId, revision: revision)
        }
        for page in pages {
            _ = try await ledger.absorb(page, verifiedBy: intake)
        }
        _ = try await ledger.absorb(
            try await store.getAllSubscriptionStatuses(transactionId: transactionId), verifiedBy: intake)
        var body = everything
        body.filter = .transactionId(transactionId)
        let notifications = try await allNotificationHistoryPages(body) { body, token in
            try await store.getNotificationHistory(body, paginationToken: token)
        }
        for item in notifications.flatMap({ $0.notificationHistory ?? [] }) {
            ledger.absorb(try await intake.receive(signedPayload: try #require(item.signedPayload)))
        }
        return ledger
    }

    /// Any transaction identifier of the scenario's customer.
    static func anyTransactionId(of history: History) throws -> String {
        try #require(
            (history.transactions + history.notifications.compactMap(\.data?.transactionInfo)).compactMap(
                \.transactionId
            )
            .first)
    }

    struct ScenarioCase: CustomTestStringConvertible, Sendable {
        var scenario: Scenario
        var testDescription: String { "\(scenario.rawValue): \(scenario.summary)" }
    }

    /// The round trip through the fake, in pages of 2, rebuilds to the scenario's expected decision, value for value.
    /// The scenario with a Sandbox notification is left to the next test: the production intake refuses that one.
    @Test(arguments: Scenario.allCases.filter { $0 != .sandboxEntryInProduction }.map(ScenarioCase.init))
    func theFakesAnswersRebuildToTheScenarioDecision(_ row: ScenarioCase) async throws {
        let history = try row.scenario.history()
        let expected = try row.scenario.expectedReport()
        let store = try FakeAppStore(scenario: row.scenario, pageSize: 2)
        let ledger = try await Self.roundTrip(store, transactionId: try Self.anyTransactionId(of: history))
        #expect(ledger.transactions.isSuperset(of: history.transactions))
        #expect(ledger.renewalInfos.isSuperset(of: history.renewalInfos))
        #expect(Set(ledger.notifications.map(\.notificationUUID)) == Set(history.notifications.map(\.notificationUUID)))
        let report = ledger.rebuild(
            asOf: expected.asOf, environment: expected.environment, catalog: try row.scenario.catalog())
        #expect(report == expected)
    }

    /// Apple's production server would not hold a Sandbox notification; the fake answers what it was given, and the
    /// production intake refuses it: the rest decides as the scenario does, without the report of the Sandbox entry.
    @Test
    func aSandboxNotificationInAProductionHistoryIsRefusedByTheProductionIntake() async throws {
        let scenario = Scenario.sandboxEntryInProduction
        let store = try FakeAppStore(scenario: scenario)
        let page = try await store.getNotificationHistory(Self.everything)
        var ledger = CustomerLedger()
        var refused: [NotificationRejection.Code] = []
        for item in page.notificationHistory ?? [] {
            do throws(NotificationRejection) {
                ledger.absorb(try await Self.intake.receive(signedPayload: item.signedPayload ?? ""))
            } catch {
                refused.append(error.code)
            }
        }
        #expect(refused == [.wrongEnvironment])
        #expect(ledger.notifications.count == 3)
        let expected = try scenario.expectedReport()
        let report = ledger.rebuild(
            asOf: expected.asOf, environment: expected.environment, catalog: try scenario.catalog())
        #expect(report.customerStatus == expected.customerStatus)
        #expect(report.products.map(\.state) == expected.products.map(\.state))
        #expect(report.diagnostics.count < expected.diagnostics.count)
    }

    // MARK: - Get Transaction History

    @Test
    func descendingIsAscendingReversed() async throws {
        let history = PagingTests.subscriber(renewals: 6)
        let store = FakeAppStore(customers: [history], pageSize: 3)
        let id = try PagingTests.transactionId(history)
        var orders: [[TransactionPayload]] = []
        for sort in FakeAppStore.Sort.allCases {
            let pages = try await allTransactionHistoryPages { revision in
                try await store.getTransactionHistory(transactionId: id, revision: revision, sort: sort)
            }
            orders.append(try pages.flatMap { try $0.decodeTransactionsUnverified() })
        }
        #expect(orders == [history.transactions, history.transactions.reversed()])
    }

    @Test
    func everyPageNamesTheAppAndItsRevision() async throws {
        let history = PagingTests.subscriber(renewals: 2)
        let store = FakeAppStore(customers: [history], pageSize: 2)
        let id = try PagingTests.transactionId(history)
        let first = try await store.getTransactionHistory(transactionId: id)
        #expect(first.bundleId == DemoApp.bundleId && first.appAppleId == DemoApp.appAppleId)
        #expect(first.environment == .production)
        #expect(first.hasMore == true && first.signedTransactions?.count == 2)
        let last = try await store.getTransactionHistory(transactionId: id, revision: first.revision)
        #expect(last.hasMore == false && last.signedTransactions?.count == 1)
        // The last page's revision, stored and passed later, answers what changed since: nothing here.
        let later = try await store.getTransactionHistory(transactionId: id, revision: last.revision)
        #expect(later.hasMore == false && later.signedTransactions == [] && later.revision == last.revision)
    }

    struct RefusalCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var request: @Sendable (FakeAppStore, String) async throws(AppStoreServerAPIFailure) -> Void
        var failure: AppStoreServerAPIFailure

        static let all: [RefusalCase] = [
            .init(
                testDescription: "history of an unknown transaction -> 404 4040010",
                request: { store, _ throws(AppStoreServerAPIFailure) in
                    _ = try await store.getTransactionHistory(transactionId: "9999")
                }, failure: FakeAppStore.transactionIdNotFound),
            .init(
                testDescription: "a revision it never issued -> 400 4000005",
                request: { store, id throws(AppStoreServerAPIFailure) in
                    _ = try await store.getTransactionHistory(transactionId: id, revision: "made-up")
                }, failure: FakeAppStore.invalidRequestRevision),
            .init(
                testDescription: "an ascending revision asked in descending order -> 400 4000005",
                request: { store, id throws(AppStoreServerAPIFailure) in
                    let first = try await store.getTransactionHistory(transactionId: id)
                    _ = try await store.getTransactionHistory(
                        transactionId: id, revision: first.revision, sort: .descending)
                }, failure: FakeAppStore.invalidRequestRevision),
            .init(
                testDescription: "statuses of an unknown transaction -> 404 4040010",
                request: { store, _ throws(AppStoreServerAPIFailure) in
                    _ = try await store.getAllSubscriptionStatuses(transactionId: "9999")
                }, failure: FakeAppStore.transactionIdNotFound),
            .init(
                testDescription: "info of an unknown transaction -> 404 4040010",
                request: { store, _ throws(AppStoreServerAPIFailure) in
                    _ = try await store.getTransactionInfo(transactionId: "9999")
                }, failure: FakeAppStore.transactionIdNotFound),
            .init(
                testDescription: "notification history from a startDate after its endDate -> 400 4000013",
                request: { store, _ throws(AppStoreServerAPIFailure) in
                    _ = try await store.getNotificationHistory(
                        NotificationHistoryRequestBody(startDate: everything.endDate, endDate: everything.startDate))
                }, failure: FakeAppStore.startDateAfterEndDate),
            .init(
                testDescription: "a pagination token issued for another body -> 400 4000014",
                request: { store, _ throws(AppStoreServerAPIFailure) in
                    let first = try await store.getNotificationHistory(everything)
                    _ = try await store.getNotificationHistory(
                        .failures(from: everything.startDate, to: everything.endDate),
                        paginationToken: first.paginationToken)
                }, failure: FakeAppStore.invalidPaginationToken),
        ]
    }

    @Test(arguments: RefusalCase.all)
    func applesErrorsForBadRequests(_ row: RefusalCase) async throws {
        let history = PagingTests.subscriber(renewals: 3)
        let store = FakeAppStore(customers: [history], pageSize: 2)
        let id = try PagingTests.transactionId(history)
        do throws(AppStoreServerAPIFailure) {
            try await row.request(store, id)
            Issue.record("answered where Apple refuses")
        } catch {
            #expect(error == row.failure)
            #expect(await store.calls.last?.failure == row.failure, "the refusal is recorded with its call")
        }
    }

    // MARK: - Failing on purpose

    @Test
    func theNextCallsFailThenItRecovers() async throws {
        let history = PagingTests.subscriber(renewals: 1)
        let id = try PagingTests.transactionId(history)
        let store = FakeAppStore(customers: [history])
        let limited = AppStoreServerAPIFailure.rateLimited(retry: .at(DemoApp.date("2026-03-02T10:16:00Z")))
        await store.failNext(2, of: .subscriptionStatuses, with: limited)
        for _ in 0..<2 {
            await #expect(throws: limited) { try await store.getAllSubscriptionStatuses(transactionId: id) }
        }
        // Other endpoints were never affected; the third call of the failing one is answered.
        _ = try await store.getTransactionInfo(transactionId: id)
        let statuses = try await store.getAllSubscriptionStatuses(transactionId: id)
        #expect(statuses.data?.first?.lastTransactions?.count == 1)
        #expect(
            await store.calls == [
                .init(request: .subscriptionStatuses(transactionId: id), failure: limited),
                .init(request: .subscriptionStatuses(transactionId: id), failure: limited),
                .init(request: .transactionInfo(transactionId: id)),
                .init(request: .subscriptionStatuses(transactionId: id)),
            ])
    }

    // MARK: - Get All Subscription Statuses and Get Transaction Info

    @Test
    func statusesAnswerTheNewestOfEachChainWithApplesStatus() async throws {
        let start = DemoApp.date("2026-01-02T10:15:00Z")
        let premium = TransactionBuilder.subscription(.premiumMonthly, purchased: start)
        let renewed = TransactionBuilder.renewal(of: premium)
        let studio = TransactionBuilder.subscription(.studioMonthly, purchased: start)
        let stickers = TransactionBuilder.oneTime(.stickers, purchased: start)
        let history = History(
            transactions: [renewed, premium, studio, stickers], renewalInfos: [RenewalInfoBuilder.renewing(renewed)])
        let store = FakeAppStore(customers: [history])
        await store.setStatus(.billingRetry, originalTransactionId: try #require(studio.originalTransactionId))
        let answer = try await store.getAllSubscriptionStatuses(transactionId: try #require(stickers.transactionId))
        #expect(
            answer.data?.map(\.subscriptionGroupIdentifier) == [
                DemoApp.mainSubscriptionGroup, DemoApp.studioSubscriptionGroup,
            ])
        let items = answer.data?.flatMap { $0.lastTransactions ?? [] } ?? []
        #expect(items.map(\.status) == [nil, .billingRetry])
        var ledger = CustomerLedger()
        _ = try await ledger.absorb(answer, verifiedBy: Self.intake)
        #expect(ledger.transactions == [renewed, studio], "the newest of each chain; no one-time purchase")
        #expect(ledger.renewalInfos == [RenewalInfoBuilder.renewing(renewed)])
        #expect(ledger.subscriptionStatuses.compactMap(\.status) == [.billingRetry])
    }

    @Test
    func transactionInfoIsTheNewestSnapshot() async throws {
        let bought = TransactionBuilder.subscription(.premiumMonthly, purchased: DemoApp.date("2026-01-02T10:15:00Z"))
        let refunded = TransactionBuilder.refunded(bought, at: DemoApp.date("2026-01-10T09:00:00Z"))
        let store = FakeAppStore(customers: [History(transactions: [refunded, bought])])
        let answer = try await store.getTransactionInfo(transactionId: try #require(bought.transactionId))
        let verified = try await Self.intake.verify(signedTransaction: try #require(answer.signedTransactionInfo))
        #expect(verified == refunded)
    }

    // MARK: - Get Notification History filters

    /// Two customers, each with a purchase on the 2nd of a month and a renewal a month later.
    static let twoCustomers: [History] = [
        PagingTests.subscriber(renewals: 1, from: DemoApp.date("2026-01-02T10:15:00Z")),
        PagingTests.subscriber(renewals: 1, from: DemoApp.date("2026-01-20T08:00:00Z")),
    ]

    struct FilterCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var body: NotificationHistoryRequestBody
        /// The notifications returned, as (customer, index in the customer's notifications).
        var returned: [(customer: Int, index: Int)]
        /// The notifications whose delivery failed.
        var undelivered: [(customer: Int, index: Int)] = []

        static let january = NotificationHistoryRequestBody(
            startDate: DemoApp.date("2026-01-01T00:00:00Z"), endDate: DemoApp.date("2026-02-01T00:00:00Z"))

        static let all: [FilterCase] = [
            .init(
                testDescription: "every notification, oldest first", body: everything,
                returned: [(0, 0), (1, 0), (0, 1), (1, 1)]),
            .init(testDescription: "January: both purchases, no renewal", body: january, returned: [(0, 0), (1, 0)]),
            .init(
                testDescription: "from the first signedDate (included) to the second (excluded): the first alone",
                body: NotificationHistoryRequestBody(
                    startDate: twoCustomers[0].notifications[0].signedDate ?? .distantPast,
                    endDate: twoCustomers[1].notifications[0].signedDate ?? .distantPast),
                returned: [(0, 0)]),
            .init(
                testDescription: "onlyFailures: the undelivered renewal alone",
                body: .failures(
                    from: everything.startDate, to: everything.endDate), returned: [(1, 1)], undelivered: [(1, 1)]),
            .init(
                testDescription: "onlyFailures in January: none, the failure is in February",
                body: .failures(from: january.startDate, to: january.endDate), returned: [], undelivered: [(1, 1)]),
            .init(
                testDescription: "onlyFailures with no failure: none",
                body: .failures(from: everything.startDate, to: everything.endDate), returned: []),
            .init(
                testDescription: "transactionId of the second customer's renewal: the second customer's",
                body: NotificationHistoryRequestBody(
                    startDate: everything.startDate, endDate: everything.endDate,
                    filter: .transactionId(twoCustomers[1].transactions[1].transactionId ?? "")),
                returned: [(1, 0), (1, 1)]),
            .init(
                testDescription: "an unknown transactionId: none",
                body: NotificationHistoryRequestBody(
                    startDate: everything.startDate, endDate: everything.endDate, filter: .transactionId("9999")),
                returned: []),
            .init(
                testDescription: "notificationType DID_RENEW: both renewals",
                body: NotificationHistoryRequestBody(
                    startDate: everything.startDate, endDate: everything.endDate,
                    filter: .notificationType(.didRenew)),
                returned: [(0, 1), (1, 1)]),
            .init(
                testDescription: "notificationType SUBSCRIBED with subtype RESUBSCRIBE: none (they are INITIAL_BUY)",
                body: NotificationHistoryRequestBody(
                    startDate: everything.startDate, endDate: everything.endDate,
                    filter: .notificationType(.subscribed, subtype: .resubscribe)),
                returned: []),
            .init(
                testDescription: "onlyFailures and a transactionId: the customer's undelivered one",
                body: NotificationHistoryRequestBody(
                    startDate: everything.startDate, endDate: everything.endDate,
                    filter: .transactionId(twoCustomers[0].transactions[0].transactionId ?? ""), onlyFailures: true),
                returned: [(0, 0)], undelivered: [(0, 0), (1, 0)]),
        ]
    }

    @Test(arguments: FilterCase.all)
    func notificationHistoryFilters(_ row: FilterCase) async throws {
        let store = FakeAppStore(customers: Self.twoCustomers, pageSize: 1)
        let failed = [
            SendAttemptItem(attemptDate: DemoApp.date("2026-02-20T08:00:10Z"), sendAttemptResult: .timedOut),
            SendAttemptItem(attemptDate: DemoApp.date("2026-02-20T09:00:10Z"), sendAttemptResult: .noResponse),
        ]
        for (customer, index) in row.undelivered {
            await store.setSendAttempts(
                failed,
                notificationUUID: try #require(Self.twoCustomers[customer].notifications[index].notificationUUID))
        }
        let pages = try await allNotificationHistoryPages(row.body) { body, token in
            try await store.getNotificationHistory(body, paginationToken: token)
        }
        let items = pages.flatMap { $0.notificationHistory ?? [] }
        var received: [NotificationPayload] = []
        for item in items {
            received.append(try await Self.intake.receive(signedPayload: try #require(item.signedPayload)).notification)
        }
        let expected = row.returned.map { Self.twoCustomers[$0.customer].notifications[$0.index] }
        #expect(received.map(\.notificationUUID) == expected.map(\.notificationUUID))
        for (item, notification) in zip(items, expected) {
            let undelivered = row.undelivered.contains {
                Self.twoCustomers[$0.customer].notifications[$0.index] == notification
            }
            #expect(
                item.sendAttempts
                    == (undelivered
                        ? failed : [SendAttemptItem(attemptDate: notification.signedDate, sendAttemptResult: .success)])
            )
        }
    }
}
