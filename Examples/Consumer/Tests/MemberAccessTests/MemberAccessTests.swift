import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import MemberAccess
import Testing

/// The ledger cuts off a family member on a REVOKE without revocationDate, and nobody else: end to end, from the
/// bodies Apple would post (fake-signed) to the access decision.
struct MemberAccessTests {
    /// The ledger as tests build it: the shipped demo catalog, and a verifier that checks no signature.
    static func ledger() -> AccessLedger {
        AccessLedger(catalog: DemoProduct.catalog) { body in
            try NotificationRequestBody(jsonData: body).decodeNotificationUnverified()
        }
    }

    /// Posts every notification of a history to the ledger for `account`, as Apple would, fake-signed.
    static func post(_ history: History, as account: String, to ledger: inout AccessLedger) throws {
        let signer = FakeJWSSigner()
        for notification in history.notifications {
            if let original = notification.data?.transactionInfo?.originalTransactionId {
                ledger.link(originalTransactionId: original, to: account)
            }
            try ledger.receive(body: signer.requestBody(for: notification))
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
    func shippedScenarioDecidesLikeTheFixture(_ row: ShippedScenarioCase) throws {
        var ledger = Self.ledger()
        try Self.post(row.scenario.history(), as: "account", to: &ledger)
        let expected = try row.scenario.expectedReport()
        #expect(ledger.hasAccess("account", to: "premium", at: expected.asOf) == row.premium)
        #expect(expected.hasAccess(to: "premium") == row.premium)
    }

    @Test
    func revokeWithoutRevocationDateCutsOffOnlyThatMember() throws {
        let purchase = DemoApp.date("2026-03-02T10:15:00Z")
        let family = FamilyBuilder(purchased: purchase).memberLeaves(3, at: DemoApp.date("2026-03-12T18:45:00Z"))
            .build()
        let revoke = try #require(family.member(3).notifications.last)
        #expect(revoke.notificationType == .revoke)
        #expect(revoke.data?.transactionInfo?.revocationDate == nil)

        var ledger = Self.ledger()
        try Self.post(family.organiser, as: "organiser", to: &ledger)
        for number in 1...5 {
            try Self.post(family.member(number), as: "member-\(number)", to: &ledger)
        }
        let later = DemoApp.date("2026-03-20T12:00:00Z")
        #expect(ledger.hasAccess("organiser", to: "premium", at: later))
        #expect(!ledger.hasAccess("member-3", to: "premium", at: later))
        for number in [1, 2, 4, 5] {
            #expect(ledger.hasAccess("member-\(number)", to: "premium", at: later), "member \(number)")
        }
    }
}
