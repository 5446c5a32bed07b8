import AppStoreServerLibrary
import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import ServerRecipes

/// The recipe of docs/integrating.md, end to end, on every shipped scenario: each entry of the scenario's history is
/// delivered to the service in the order Apple signed it, a notification as Apple posts it, a transaction through Get
/// Transaction History; then a scheduled decision at the scenario's instant must reach the scenario's expected
/// decision.
struct ScenarioRecipeTests {
    static let customer = "customer"

    /// One entry of a scenario's history, as the service learns it.
    enum Delivery {
        case notification(NotificationPayload)
        case transaction(TransactionPayload)
    }

    /// The scenarios the recipe learns entirely from notifications and Get Transaction History: all but those whose
    /// history holds a renewal info on its own, which comes from Get All Subscription Statuses.
    static func recipeScenarios() throws -> [Scenario] {
        try Scenario.allCases.filter { try $0.history().renewalInfos.isEmpty }
    }

    @Test
    func everyScenarioRunsButThoseWithARenewalInfoOnItsOwn() throws {
        let left = Set(Scenario.allCases).subtracting(try Self.recipeScenarios())
        #expect(left == [.familyOfSixMember2, .familyOfSixOrganiser])
        #expect(try Self.recipeScenarios().contains(.oneMemberLeavesLeaver))  // a REVOKE without revocationDate
        #expect(try Self.recipeScenarios().contains(.billingGracePeriod))
    }

    struct Run {
        var final: EntitlementReport
        var pushes: [(customer: String, codes: [String])]
        var statuses: [Int]
        var logs: [String]
    }

    /// Delivers the scenario's history entry by entry, each at its signedDate, and decides again at its instant.
    static func run(_ scenario: Scenario) async throws -> Run {
        let history = try scenario.history()
        let expected = try scenario.expectedReport()
        let store = MemoryStore(oneCustomer: customer)
        let pushes = PushLog()
        let logs = LogLines()
        let client = try AppStoreServerAPIClient(
            signingKey: "", keyId: "", issuerId: "", bundleId: DemoApp.bundleId, environment: .production)
        let catalog = try scenario.catalog()
        func service(at instant: Date) -> AppStoreService<FakeJWSVerifier> {
            AppStoreService(
                intake: NotificationIntake(
                    policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId),
                    verifier: FakeJWSVerifier()),
                apiClient: client, store: store, logger: Logger { line in Task { await logs.append(line) } },
                metrics: Metrics { _, _ in }, devices: Devices { await pushes.append($0, $1) }, catalog: catalog,
                clock: { instant })
        }
        let deliveries =
            history.notifications.map { (date: $0.signedDate, delivery: Delivery.notification($0)) }
            + history.transactions.map { (date: $0.signedDate, delivery: Delivery.transaction($0)) }
        var fetched: [String] = []
        var statuses: [Int] = []
        for (date, delivery) in deliveries.sorted(by: { ($0.date ?? .distantPast) < ($1.date ?? .distantPast) }) {
            let now = date ?? expected.asOf
            switch delivery {
            case .notification(let notification):
                let body = try FakeJWSSigner().requestBody(for: notification)
                statuses.append(await service(at: now).receiveAppStoreNotification(body: body))
            case .transaction(let transaction):
                fetched.append(try FakeJWSSigner().sign(transaction))
                await client.script(transactionHistory: fetched)
                _ = try await service(at: now).rebuildFromApple(
                    transactionId: try #require(transaction.originalTransactionId), asOf: now)
            }
        }
        let final = try await service(at: expected.asOf).decideAgain(customer: customer)
        return Run(final: final, pushes: await pushes.pushes, statuses: statuses, logs: await logs.lines)
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

    @Test(arguments: try recipeScenarios())
    func theRecipeReachesTheScenarioDecision(_ scenario: Scenario) async throws {
        let run = try await Self.run(scenario)
        #expect(Self.grants(run.final) == Self.grants(try scenario.expectedReport()))
        #expect(run.statuses.allSatisfy { $0 == 200 }, "every delivery answered 200: \(run.statuses)")
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
    func aFailedRenewalInTheGracePeriodKeepsAccess() async throws {
        let run = try await Self.run(.billingGracePeriod)
        #expect(run.final.products.map(\.state) == [.gracePeriod])
        #expect(run.final.hasAccess(to: "premium"))
        // Entering the grace period changed the state, not access: a push without access_lost.
        let last = try #require(run.pushes.last)
        #expect(last.codes.contains("state_changed"))
        #expect(!run.pushes.contains { $0.codes.contains("access_lost") })
    }
}

/// The lines the service logged.
actor LogLines {
    var lines: [String] = []

    func append(_ line: String) { lines.append(line) }
}
