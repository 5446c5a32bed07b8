import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// `EntitlementReport.changes(from:)`, one row per kind of change: two reports, and the changes in their order.
struct EntitlementChangeTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var testDescription: String
        /// nil: the service stored no report before.
        var previous: EntitlementReport?
        var current: EntitlementReport
        var changes: [EntitlementChange]
    }

    static func product(
        _ id: ProductID, _ state: AccessState, chain: String = "2000000001", willRenew: Bool? = nil,
        revocation: RevocationCauseFinding? = nil
    ) -> ProductDecision {
        ProductDecision(
            productId: id, state: state, revocation: revocation, willRenew: willRenew,
            transactionId: TransactionID("\(chain)-\(id.rawValue)"), originalTransactionId: OriginalTransactionID(chain)
        )
    }

    static func report(_ products: [ProductDecision], _ entitlements: [EntitlementID: Bool] = [:]) -> EntitlementReport
    {
        EntitlementReport(
            asOf: Date(timeIntervalSince1970: 1_767_225_600), environment: .production,
            customer: products.contains(where: \.hasAccess) ? .active : .inactive(.expired), products: products,
            entitlements: entitlements, diagnostics: [])
    }

    static let monthly: ProductID = "com.example.pro.monthly"
    static let yearly: ProductID = "com.example.pro.yearly"
    static let lifetime: ProductID = "com.example.lifetime"

    static let rows: [Row] = [
        Row(
            testDescription: "nothing changed: no change",
            previous: report([product(monthly, .active, willRenew: true)], ["pro": true]),
            current: report([product(monthly, .active, willRenew: true)], ["pro": true]), changes: []),
        Row(
            testDescription: "no report stored before: what grants now is granted",
            previous: nil,
            current: report(
                [product(monthly, .active, willRenew: true), product(yearly, .expired)], ["pro": true, "max": false]),
            changes: [.entitlementGranted("pro"), .accessGranted(monthly, state: .active)]),
        Row(
            testDescription: "access granted: a purchase",
            previous: report([product(monthly, .expired)], ["pro": false]),
            current: report([product(monthly, .active)], ["pro": true]),
            changes: [.entitlementGranted("pro"), .accessGranted(monthly, state: .active)]),
        Row(
            testDescription: "access lost: a refund, with its stated cause",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .revoked, revocation: .stated(.refund))], ["pro": false]),
            changes: [.entitlementLost("pro"), .accessLost(monthly, cause: .revoked(.refund))]),
        Row(
            testDescription: "access lost: a member left the family, cause inferred",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .revoked, revocation: .inferred(.familyRevocation))], ["pro": false]),
            changes: [.entitlementLost("pro"), .accessLost(monthly, cause: .revoked(.familyRevocation))]),
        Row(
            testDescription: "access lost: revoked without a cause is an unknown revocation",
            previous: report([product(monthly, .gracePeriod)]),
            current: report([product(monthly, .revoked)]),
            changes: [.accessLost(monthly, cause: .revoked(.unknown))]),
        Row(
            testDescription: "access lost: billing retry",
            previous: report([product(monthly, .active, willRenew: true)]),
            current: report([product(monthly, .billingRetry, willRenew: true)]),
            changes: [.accessLost(monthly, cause: .billingRetry)]),
        Row(
            testDescription: "access lost: the grace period ended",
            previous: report([product(monthly, .gracePeriod)]),
            current: report([product(monthly, .expired)]),
            changes: [.accessLost(monthly, cause: .expired)]),
        Row(
            testDescription: "access lost: the data no longer says how long access lasts",
            previous: report([product(lifetime, .active)]),
            current: report([product(lifetime, .undetermined)]),
            changes: [.accessLost(lifetime, cause: .undetermined)]),
        Row(
            testDescription: "access lost: upgraded, and nothing of the chain gained access",
            previous: report([product(monthly, .active), product(yearly, .active, chain: "2000000009")]),
            current: report([product(monthly, .upgraded), product(yearly, .active, chain: "2000000009")]),
            changes: [.accessLost(monthly, cause: .upgraded)]),
        Row(
            testDescription: "access lost: the product is no longer reported",
            previous: report([product(monthly, .active)]), current: report([]),
            changes: [.accessLost(monthly, cause: .notReported)]),
        Row(
            testDescription: "a product no longer reported without access: no change",
            previous: report([product(monthly, .expired)]), current: report([]), changes: []),
        Row(
            testDescription: "state changed, access kept: active to grace period",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .gracePeriod)], ["pro": true]),
            changes: [.stateChanged(monthly, from: .active, to: .gracePeriod)]),
        Row(
            testDescription: "state changed, no access either side: a refund after expiry",
            previous: report([product(monthly, .expired)]),
            current: report([product(monthly, .revoked, revocation: .stated(.refund))]),
            changes: [.stateChanged(monthly, from: .expired, to: .revoked)]),
        Row(
            testDescription: "access granted again: a refund reversed",
            previous: report([product(monthly, .revoked, revocation: .stated(.refund))], ["pro": false]),
            current: report([product(monthly, .active)], ["pro": true]),
            changes: [.entitlementGranted("pro"), .accessGranted(monthly, state: .active)]),
        Row(
            testDescription: "willRenew changed: auto-renew turned off",
            previous: report([product(monthly, .active, willRenew: true)]),
            current: report([product(monthly, .active, willRenew: false)]),
            changes: [.willRenewChanged(monthly, from: true, to: false)]),
        Row(
            testDescription: "willRenew changed from unknown, after the state change of the same product",
            previous: report([product(monthly, .active)]),
            current: report([product(monthly, .gracePeriod, willRenew: true)]),
            changes: [
                .stateChanged(monthly, from: .active, to: .gracePeriod),
                .willRenewChanged(monthly, from: nil, to: true),
            ]),
        Row(
            testDescription: "product replaced: an upgrade within the chain",
            previous: report([product(monthly, .active)], ["pro": true]),
            current: report([product(monthly, .upgraded), product(yearly, .active)], ["pro": true]),
            changes: [
                .productReplaced(monthly, by: yearly, originalTransactionId: "2000000001"),
                .accessGranted(yearly, state: .active),
            ]),
        Row(
            testDescription: "no access before, none now: never replaced, though another product of the chain gained "
                + "access (a resubscription to another plan after a lapse)",
            previous: report([product(monthly, .expired)], ["pro": false]),
            current: report([product(monthly, .expired), product(yearly, .active)], ["pro": true]),
            changes: [.entitlementGranted("pro"), .accessGranted(yearly, state: .active)]),
        Row(
            testDescription: "access lost, not replaced: the other product of the chain had access already",
            previous: report([product(monthly, .active), product(yearly, .active)]),
            current: report([product(monthly, .revoked, revocation: .stated(.refund)), product(yearly, .active)]),
            changes: [.accessLost(monthly, cause: .revoked(.refund))]),
        Row(
            testDescription: "product replaced: a downgrade that took effect at renewal",
            previous: report(
                [product(monthly, .expired, willRenew: false), product(yearly, .active, willRenew: true)],
                ["pro": true, "max": true]),
            current: report(
                [product(monthly, .active, willRenew: true), product(yearly, .expired, willRenew: false)],
                ["pro": true, "max": false]),
            changes: [
                .entitlementLost("max"), .accessGranted(monthly, state: .active),
                .willRenewChanged(monthly, from: false, to: true),
                .productReplaced(yearly, by: monthly, originalTransactionId: "2000000001"),
                .willRenewChanged(yearly, from: true, to: false),
            ]),
        Row(
            testDescription: "ordered: entitlements by id, then products by id, whatever the reports' order",
            previous: report(
                [product(yearly, .active, chain: "2"), product(monthly, .expired, chain: "1")],
                ["max": true, "basic": false]),
            current: report(
                [
                    product(yearly, .revoked, chain: "2", revocation: .stated(.proratedRefund)),
                    product(lifetime, .active, chain: "3"), product(monthly, .active, chain: "1"),
                ],
                ["max": false, "basic": true, "stickers": true]),
            changes: [
                .entitlementGranted("basic"), .entitlementLost("max"), .entitlementGranted("stickers"),
                .accessGranted(lifetime, state: .active), .accessGranted(monthly, state: .active),
                .accessLost(yearly, cause: .revoked(.proratedRefund)),
            ]),
    ]

    @Test(arguments: rows)
    func changesAreTypedAndOrdered(_ row: Row) {
        #expect(row.current.changes(from: row.previous) == row.changes)
    }

    @Test(arguments: rows)
    func theReverseTakesBackWhatWasGranted(_ row: Row) {
        let previous = row.previous ?? Self.report([])
        let forward = row.current.changes(from: previous)
        let backward = previous.changes(from: row.current)
        let granted = forward.compactMap { change -> EntitlementID? in
            if case .entitlementGranted(let id) = change { return id }
            return nil
        }
        let lostBack = backward.compactMap { change -> EntitlementID? in
            if case .entitlementLost(let id) = change { return id }
            return nil
        }
        #expect(granted == lostBack)
        #expect(row.current.changes(from: row.current).isEmpty)
    }

    @Test
    func codesAndWordsNameEachKind() {
        let all: [EntitlementChange] = [
            .entitlementGranted("pro"), .entitlementLost("pro"),
            .productReplaced(Self.monthly, by: Self.yearly, originalTransactionId: "1"),
            .accessLost(Self.monthly, cause: .revoked(.familyRevocation)), .accessGranted(Self.monthly, state: .active),
            .stateChanged(Self.monthly, from: .active, to: .gracePeriod),
            .willRenewChanged(Self.monthly, from: nil, to: false),
        ]
        #expect(
            all.map(\.code) == [
                "entitlement_granted", "entitlement_lost", "product_replaced", "access_lost", "access_granted",
                "state_changed", "will_renew_changed",
            ])
        #expect(all.map(\.takesAccessAway) == [false, true, false, true, false, false, false])
        #expect(all.map(\.entitlementId) == ["pro", "pro", nil, nil, nil, nil, nil])
        #expect(
            all.map(\.productId) == [nil, nil, Self.monthly, Self.monthly, Self.monthly, Self.monthly, Self.monthly])
        #expect(all[3].description == "com.example.pro.monthly lost access: revoked (familyRevocation)")
        #expect(all[6].description == "com.example.pro.monthly willRenew unknown -> false")
    }

    /// A shipped scenario decided without, then with, the REVOKE (no revocationDate) that tells a member left the
    /// family: the member's access is lost for Family Sharing.
    @Test
    func aDepartureFromAShippedScenarioIsAccessLostForFamilySharing() throws {
        let scenario = Scenario.oneMemberLeavesLeaver
        var before = try scenario.history()
        before.notifications.removeAll { $0.notificationType == .revoke }
        let after = try scenario.rebuild()
        let previous = rebuildEntitlements(
            history: before, asOf: after.asOf, environment: after.environment, catalog: try scenario.catalog())
        let changes = after.changes(from: previous)
        let lost = changes.filter { change in
            if case .accessLost(_, cause: .revoked(.familyRevocation)) = change { return true }
            return false
        }
        #expect(lost.count == 1, "\(changes)")
        #expect(changes.contains { $0.takesAccessAway && $0.entitlementId != nil }, "\(changes)")
        #expect(previous.changes(from: after).contains { $0.code == "access_granted" })
    }
}
