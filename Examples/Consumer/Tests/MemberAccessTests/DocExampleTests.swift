// The blocks of docs/testing-your-code.md, compiled and run here (DocSnippetTests checks that each block of the page
// stands in this folder).

import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Testing

@Test func memberWhoLeftLosesPremium() throws {
    let scenario = Scenario.oneMemberLeavesLeaver  // REVOKE without revocationDate
    let expected = try scenario.expectedReport()  // the engine's decision, from expected.json
    let report = rebuildEntitlements(
        history: try scenario.history(), asOf: expected.asOf,
        catalog: try scenario.catalog() ?? DemoProduct.catalog)
    #expect(!report.hasAccess(to: "premium"))
    #expect(report.customerReason == .familyRevocation)
}

@Test func onlyTheMemberWhoLeftIsCutOff() {
    let family = FamilyBuilder(purchased: DemoApp.date("2026-03-02T10:15:00Z"))  // organiser + 5 members
        .memberLeaves(3, at: DemoApp.date("2026-03-12T18:45:00Z"))  // REVOKE, no revocationDate
        .build()
    let later = DemoApp.date("2026-03-20T12:00:00Z")
    let access = family.everyone.map {
        rebuildEntitlements(history: $0, asOf: later, catalog: DemoProduct.catalog).hasAccess(to: "premium")
    }
    #expect(access == [true, true, true, false, true, true])
}

@Test func myAppsNotificationPassesTheProductionPolicy() async throws {
    let app = AppUnderTest(bundleId: "com.example.family", appAppleId: 1_234_567_890)
    let monthly = TestProduct.autoRenewable("com.example.family.monthly", group: "20000001")
    let bought = TransactionBuilder.subscription(monthly, purchased: DemoApp.date("2026-03-02T10:15:00Z"), app: app)
    let body = try FakeJWSSigner().requestBody(for: NotificationBuilder.subscribed(bought, app: app))
    let intake = NotificationIntake(
        policy: .production(bundleId: app.bundleId, appAppleId: 1_234_567_890), verifier: FakeJWSVerifier())
    let verified = try await intake.receive(requestBody: body)  // passes the app's production policy
    #expect(verified.notification.data?.transactionInfo?.productId == "com.example.family.monthly")
}
