import AppStoreServerLibrary
import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import ServerRecipes

/// The recipe of docs/integrating.md, end to end, on every shipped scenario: each entry of the scenario's history is
/// delivered to the service in the order Apple signed it, a notification as Apple posts it, a transaction through Get
/// Transaction History, a renewal info on its own through Get All Subscription Statuses; then a scheduled decision at
/// the scenario's instant must reach the scenario's expected decision.
struct ScenarioRecipeTests {
    static let customer = "customer"

    /// One entry of a scenario's history, as the service learns it.
    enum Delivery {
        case notification(NotificationPayload)
        case transaction(TransactionPayload)
        case renewalInfo(RenewalInfoPayload)
    }

    /// The scenarios whose history holds a renewal info on its own, which only Get All Subscription Statuses answers.
    @Test
    func someScenariosLearnARenewalInfoOnlyFromGetAllSubscriptionStatuses() throws {
        let statusesOnly = try Scenario.allCases.filter { !(try $0.history().renewalInfos.isEmpty) }
        #expect(Set(statusesOnly) == [.familyOfSixMember2, .familyOfSixOrganiser])
    }

    /// Apple's answer to Get All Subscription Statuses holding the newest renewal info of each chain delivered so far,
    /// each item with Apple's status as the scenario's expected decision states it.
    static func statusesAnswer(
        _ renewalInfos: [RenewalInfoPayload], expected: EntitlementReport
    ) throws -> StatusResponse {
        let items = try renewalInfos.map { info in
            let state = expected.products.first { $0.productId.rawValue == info.productId }?.state
            return AppStoreServerLibrary.LastTransactionsItem(
                status: state.flatMap(appleStatus), originalTransactionId: info.originalTransactionId,
                signedRenewalInfo: try FakeJWSSigner().sign(info))
        }
        return StatusResponse(
            environment: .production, bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId,
            data: [SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: "21000001", lastTransactions: items)])
    }

    /// Apple's status for a state the rebuild reports.
    static func appleStatus(_ state: AccessState) -> Status? {
        switch state {
        case .active: .active
        case .expired, .upgraded: .expired
        case .billingRetry: .billingRetry
        case .gracePeriod: .billingGracePeriod
        case .revoked: .revoked
        default: nil
        }
    }

    struct Run {
        var final: EntitlementReport
        var pushes: [(customer: String, codes: [String])]
        var statuses: [Int]
        var store: MemoryStore
        var pushLog: PushLog
        /// The service as it runs at an instant.
        var service: @Sendable (Date) -> AppStoreService<FakeJWSVerifier>
    }

    /// Delivers the scenario's history entry by entry, each at its signedDate, and decides again at its instant.
    static func run(_ scenario: Scenario) async throws -> Run {
        let history = try scenario.history()
        let expected = try scenario.expectedReport()
        let store = MemoryStore(oneCustomer: customer)
        let pushes = PushLog()
        let client = try AppStoreServerAPIClient(
            signingKey: "", keyId: "", issuerId: "", bundleId: DemoApp.bundleId, environment: .production)
        let catalog = try scenario.catalog()
        let service: @Sendable (Date) -> AppStoreService<FakeJWSVerifier> = { instant in
            AppStoreService(
                intake: NotificationIntake(
                    policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId),
                    verifier: FakeJWSVerifier()),
                apiClient: client, store: store, logger: Logger { _ in }, metrics: Metrics { _, _ in },
                devices: Devices { await pushes.append($0, $1) }, catalog: catalog, clock: { instant })
        }
        let deliveries =
            history.notifications.map { (date: $0.signedDate, delivery: Delivery.notification($0)) }
            + history.transactions.map { (date: $0.signedDate, delivery: Delivery.transaction($0)) }
            + history.renewalInfos.map { (date: $0.signedDate, delivery: Delivery.renewalInfo($0)) }
        var fetched: [String] = []
        var answered: [String: RenewalInfoPayload] = [:]
        var statuses: [Int] = []
        for (date, delivery) in deliveries.sorted(by: { ($0.date ?? .distantPast) < ($1.date ?? .distantPast) }) {
            let now = date ?? expected.asOf
            switch delivery {
            case .notification(let notification):
                let body = try FakeJWSSigner().requestBody(for: notification)
                statuses.append(await service(now).receiveAppStoreNotification(body: body))
            case .transaction(let transaction):
                fetched.append(try FakeJWSSigner().sign(transaction))
                await client.script(transactionHistory: fetched)
                _ = try await service(now).rebuildFromApple(
                    transactionId: try #require(transaction.originalTransactionId), asOf: now)
            case .renewalInfo(let renewalInfo):
                let original = try #require(renewalInfo.originalTransactionId)
                answered[original] = renewalInfo
                await client.script(
                    subscriptionStatuses: try statusesAnswer(
                        answered.keys.sorted().compactMap { answered[$0] }, expected: expected))
                _ = try await service(now).rebuildFromApple(transactionId: original, asOf: now)
            }
            try await service(now).deliverOutbox()  // the outbox worker, here right after each write
        }
        let final = try await service(expected.asOf).decideAgain(customer: customer)
        try await service(expected.asOf).deliverOutbox()
        return Run(
            final: final, pushes: await pushes.pushes, statuses: statuses, store: store, pushLog: pushes,
            service: service)
    }

    /// What a decision grants, product by product: the fields a service acts on.
    static func grants(_ report: EntitlementReport) -> [String] {
        [
            "customer \(report.customerStatus.rawValue) \(report.customerReason?.rawValue ?? "-")",
            "entitlements \(report.entitlements.filter(\.value).keys.map(\.rawValue).sorted())",
        ]
            + report.products.map { product in
                "\(product.productId) \(product.state.rawValue) cause \(product.revocationCause?.rawValue ?? "-") "
                    + "willRenew \(product.willRenew.map { "\($0)" } ?? "-") expires \(product.expiresDate.map { "\($0)" } ?? "-")"
            }
    }

    @Test(arguments: Scenario.allCases)
    func theRecipeReachesTheScenarioDecision(_ scenario: Scenario) async throws {
        let run = try await Self.run(scenario)
        let expected = try scenario.expectedReport()
        #expect(Self.grants(run.final) == Self.grants(expected))
        #expect(run.statuses.allSatisfy { $0 == 200 }, "every delivery answered 200: \(run.statuses)")
        // Apple's status, where Get All Subscription Statuses gave one, agrees with the decision the recipe reached.
        #expect(
            run.final.diagnostics.contains { $0.code == .appleStatusDisagrees }
                == expected.diagnostics.contains { $0.code == .appleStatusDisagrees }, "\(run.final.diagnostics)")
    }

    /// A family member's renewal info arrives only through Get All Subscription Statuses: the recipe keeps it, with
    /// Apple's status beside it.
    @Test
    func aRenewalInfoOnItsOwnArrivesWithApplesStatus() async throws {
        let run = try await Self.run(.familyOfSixMember2)
        let ledger = try await run.store.ledger(of: Self.customer)
        let history = try Scenario.familyOfSixMember2.history()
        #expect(ledger.renewalInfos == Set(history.renewalInfos))
        #expect(ledger.subscriptionStatuses.map(\.status) == [.active])
        #expect(run.final.products.map(\.willRenew) == [true])
    }

    @Test
    func aMemberWhoLeftLosesAccessByARevokeWithoutRevocationDate() async throws {
        let scenario = Scenario.oneMemberLeavesLeaver
        let revoke = try #require(try scenario.history().notifications.first { $0.notificationType == .revoke })
        #expect(revoke.data?.transactionInfo?.revocationDate == nil)
        let run = try await Self.run(scenario)
        #expect(run.final.customerReason == .familyRevocation)
        #expect(run.final.products.map(\.revocationCause) == [.familyRevocation])
        // The REVOKE's delivery took access away: one push, with what was lost.
        let lost = run.pushes.filter { $0.codes.contains("access_lost") }
        #expect(lost.count == 1)
        #expect(lost.first?.codes.contains("entitlement_lost") == true)
        #expect(run.pushes.allSatisfy { !$0.codes.isEmpty }, "no push without a change")
    }

    @Test
    func aFailedRenewalKeepsAccessInTheGracePeriodAndLosesItWhenTheGraceEnds() async throws {
        let run = try await Self.run(.billingGracePeriod)
        #expect(run.final.products.map(\.state) == [.gracePeriod])
        #expect(run.final.hasAccess(to: "premium"))
        // Entering the grace period changed the state, not access: a push without access_lost.
        let last = try #require(run.pushes.last)
        #expect(last.codes.contains("state_changed"))
        #expect(!run.pushes.contains { $0.codes.contains("access_lost") })
        // The report is stored with when it stops holding: the end of the grace period.
        let graceEnds = try #require(run.final.validUntil)
        #expect(run.final.products.first?.expiresDate == graceEnds)
        #expect(await run.store.keysDue(at: graceEnds) == [Self.customer])
        #expect(await run.store.keysDue(at: graceEnds.addingTimeInterval(-0.001)).isEmpty)
        // The scheduled decision, without news from Apple, takes access away and says so.
        try await run.service(graceEnds).decideDue()
        try await run.service(graceEnds).deliverOutbox()
        let later = try #require(try await run.store.report(of: Self.customer))
        #expect(!later.hasAccess(to: "premium"))
        #expect(later.changes(from: run.final).contains { $0.takesAccessAway })
        let pushed = try #require(await run.pushLog.pushes.last)
        #expect(pushed.codes.contains("access_lost") && pushed.codes.contains("entitlement_lost"), "\(pushed.codes)")
        #expect(try await run.store.report(of: Self.customer) == later)
    }

    @Test(arguments: Scenario.allCases)
    func theStoredReportIsTheFinalDecisionWithItsSchedule(_ scenario: Scenario) async throws {
        let run = try await Self.run(scenario)
        #expect(try await run.store.report(of: Self.customer) == run.final)
        #expect(await run.store.rows[Self.customer]?.validUntil == run.final.validUntil)
    }
}
