import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import MemberAccess
import Testing

/// The ledger cuts off a family member on a REVOKE without revocationDate, and nobody else: end to end, from the
/// bodies Apple would post (fake-signed, checked by the fake verifier and the production policy) to the access decision.
struct MemberAccessTests {
    /// This team's app: not the demo app of the fixtures.
    static let app = AppUnderTest(bundleId: "com.example.familyreader", appAppleId: 6_500_000_123)
    static let reader = TestProduct.autoRenewable(
        "com.example.familyreader.monthly", group: "30000001", price: 3990, entitlements: ["reader"])
    static let catalog = TestProduct.catalog(of: [reader], bundleId: app.bundleId)

    /// The ledger as tests build it: the production policy of `app`, and a verifier that accepts `FakeJWSSigner`.
    static func ledger(verifier: FakeJWSVerifier = FakeJWSVerifier()) -> AccountAccess<FakeJWSVerifier> {
        AccountAccess(
            catalog: catalog,
            intake: NotificationIntake(
                policy: .production(bundleId: app.bundleId, appAppleId: 6_500_000_123), verifier: verifier))
    }

    /// The ledger for the shipped fixtures, which are the demo app's.
    static func demoLedger() -> AccountAccess<FakeJWSVerifier> {
        AccountAccess(
            catalog: DemoProduct.catalog,
            intake: NotificationIntake(
                policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId),
                verifier: FakeJWSVerifier()))
    }

    /// Posts every notification of a history to the ledger for `account`, as Apple would, fake-signed.
    static func post(_ history: History, as account: String, to ledger: inout AccountAccess<FakeJWSVerifier>)
        async throws
    {
        let signer = FakeJWSSigner()
        for notification in history.notifications {
            if let original = notification.data?.transactionInfo?.originalTransactionId {
                ledger.link(originalTransactionId: original, to: account)
            }
            #expect(await ledger.receive(body: try signer.requestBody(for: notification)) == 200)
        }
    }

    struct ShippedScenarioCase: CustomTestStringConvertible, Sendable {
        var scenario: Scenario
        var premium: Bool
        var testDescription: String

        static let all: [ShippedScenarioCase] = [
            .init(
                scenario: .oneMemberLeavesLeaver, premium: false,
                testDescription: "the member who left: REVOKE without revocationDate cuts them off"),
            .init(
                scenario: .oneMemberLeavesOtherMember, premium: true,
                testDescription: "another member of the same family keeps premium"),
        ]
    }

    @Test(arguments: ShippedScenarioCase.all)
    func shippedScenarioDecidesLikeTheFixture(_ row: ShippedScenarioCase) async throws {
        var ledger = Self.demoLedger()
        try await Self.post(row.scenario.history(), as: "account", to: &ledger)
        let expected = try row.scenario.expectedReport()
        #expect(ledger.hasAccess("account", to: "premium", at: expected.asOf) == row.premium)
        #expect(expected.hasAccess(to: "premium") == row.premium)
    }

    @Test
    func revokeWithoutRevocationDateCutsOffOnlyThatMember() async throws {
        let purchase = DemoApp.date("2026-03-02T10:15:00Z")
        let family = FamilyBuilder(product: Self.reader, purchased: purchase, app: Self.app)
            .memberLeaves(3, at: DemoApp.date("2026-03-12T18:45:00Z"))
            .build()
        let revoke = try #require(family.member(3).notifications.last)
        #expect(revoke.notificationType == .revoke)
        #expect(revoke.data?.transactionInfo?.revocationDate == nil)
        #expect(revoke.data?.bundleId == Self.app.bundleId)

        var ledger = Self.ledger()
        try await Self.post(family.organiser, as: "organiser", to: &ledger)
        for number in 1...5 {
            try await Self.post(family.member(number), as: "member-\(number)", to: &ledger)
        }
        let later = DemoApp.date("2026-03-20T12:00:00Z")
        #expect(ledger.hasAccess("organiser", to: "reader", at: later))
        #expect(!ledger.hasAccess("member-3", to: "reader", at: later))
        for number in [1, 2, 4, 5] {
            #expect(ledger.hasAccess("member-\(number)", to: "reader", at: later), "member \(number)")
        }
    }

    @Test
    func notificationDuringAnOutageIsAnsweredWith503AndTakenOnceAppleRetries() async throws {
        let purchase = DemoApp.date("2026-03-02T10:15:00Z")
        let transaction = TransactionBuilder.subscription(Self.reader, purchased: purchase, app: Self.app)
        let body = try FakeJWSSigner().requestBody(for: NotificationBuilder.subscribed(transaction, app: Self.app))
        let original = try #require(transaction.originalTransactionId)

        var down = Self.ledger(verifier: .unavailable())
        down.link(originalTransactionId: original, to: "reader")
        #expect(await down.receive(body: body) == 503)
        #expect(down.taken.isEmpty, "nothing acknowledged, nothing taken")

        var up = Self.ledger()
        up.link(originalTransactionId: original, to: "reader")
        #expect(await up.receive(body: body) == 200)
        #expect(await up.receive(body: body) == 200, "Apple's duplicate delivery")
        #expect(up.taken.count == 1)
        #expect(up.ledgers["reader"]?.notifications.count == 1)
        #expect(up.hasAccess("reader", to: "reader", at: purchase.addingTimeInterval(86_400)))
    }

    @Test
    func demoAppNotificationIsRefusedByThisAppsPolicy() async throws {
        let transaction = TransactionBuilder.subscription(purchased: DemoApp.date("2026-03-02T10:15:00Z"))
        var ledger = Self.ledger()
        let body = try FakeJWSSigner().requestBody(for: NotificationBuilder.subscribed(transaction))
        #expect(await ledger.receive(body: body) == 200, "refused for good: answered 200")
        #expect(ledger.taken.isEmpty)
    }
}
