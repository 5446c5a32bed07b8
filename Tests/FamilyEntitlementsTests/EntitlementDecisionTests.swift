import FamilyEntitlements
import Foundation
import Testing

@Suite("Entitlement decisions")
struct EntitlementDecisionTests {
    static let catalog = ProductCatalog(products: [
        ProductID(Given.monthly): .init(entitlements: ["premium"], type: .autoRenewable),
        ProductID(Given.yearly): .init(entitlements: ["premium"], type: .autoRenewable),
        ProductID(Given.lifetime): .init(entitlements: ["premium", "lifetime"], type: .nonConsumable),
        ProductID(Given.pass): .init(entitlements: ["season"], type: .nonRenewing),
    ])

    /// A granting product answers before one that does not, PURCHASED before FAMILY_SHARED, then the longest access.
    @Test func grantingPurchasedLongestAnswers() throws {
        let shared = Given.subscription("8001", Given.yearly, from: 0, to: 365, ownership: .familyShared)
        let purchased = Given.subscription("8101", from: 0, to: 30)
        let expired = Given.oneTime("8201", Given.lifetime, type: .nonConsumable, on: 0, signed: 2) {
            $0.revocationDate = Given.day(2)
            $0.revocationReason = .appIssue
        }
        let report = rebuildEntitlements(
            history: History(transactions: [shared, purchased, expired]), asOf: Given.day(10), catalog: Self.catalog)
        let premium = try #require(report.entitlementDecision(for: "premium"))
        #expect(premium.isActive)
        #expect(premium.productId == ProductID(Given.monthly))
        #expect(premium.ownership == .purchased)
        #expect(premium.transactionId == "8101")
        #expect(premium.expiresDate == Given.day(30))
        #expect(premium.originalPurchaseDate == Given.day(0))
        #expect(premium.latestPurchaseDate == Given.day(0))
        #expect(premium.willRenew == nil)
        #expect(premium.period == .normal)
        let lifetime = try #require(report.entitlementDecision(for: "lifetime"))
        #expect(!lifetime.isActive)
        #expect(lifetime.state == .revoked)
        #expect(lifetime.revocationDate == Given.day(2))
        let season = try #require(report.entitlementDecision(for: "season"))
        #expect(season == EntitlementDecision(isActive: false))

        // Without the PURCHASED subscription, the shared yearly plan answers, though the revoked lifetime is newer.
        let sharedOnly = rebuildEntitlements(
            history: History(transactions: [shared, expired]), asOf: Given.day(10), catalog: Self.catalog)
        #expect(sharedOnly.entitlementDecision(for: "premium")?.productId == ProductID(Given.yearly))
        #expect(sharedOnly.entitlementDecision(for: "premium")?.ownership == .familyShared)

        let json = try JSONSerialization.jsonObject(with: report.contractJSON()) as? [String: Any]
        let decisions = try #require(json?["entitlementDecisions"] as? [String: [String: Any]])
        #expect(decisions["premium"]?["expiresDate"] as? Int64 == Int64(Given.day(30).timeIntervalSince1970 * 1000))
        #expect(decisions["season"]?["productId"] is NSNull)
        #expect(try JSONDecoder().decode(EntitlementReport.self, from: report.contractJSON()) == report)
    }

    /// Billing issue from DID_FAIL_TO_RENEW, or the expiry where only the renewal info says billing retry; the
    /// grace period's end; a pending downgrade; unsubscribe from AUTO_RENEW_DISABLED while auto-renew stays off.
    @Test func renewalSideAnswers() throws {
        let subscription = Given.subscription("8301", Given.yearly, from: 0, to: 30)
        let failing = Given.renewal("8301", Given.yearly, signed: 31) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(40)
            $0.autoRenewProductId = Given.monthly
        }
        var history = History(transactions: [subscription], renewalInfos: [failing])
        let retry = try #require(
            rebuildEntitlements(history: history, asOf: Given.day(33), catalog: Self.catalog).entitlementDecision(
                for: "premium"))
        #expect(retry.state == .gracePeriod)
        #expect(retry.billingIssueDetectedAt == Given.day(30))
        #expect(retry.gracePeriodExpiresDate == Given.day(40))
        #expect(retry.autoRenewProductId == ProductID(Given.monthly))

        history.notifications.append(
            Given.notification(.didFailToRenew, .gracePeriod, signed: 30.5, transaction: subscription, renewal: failing)
        )
        let notified = rebuildEntitlements(history: history, asOf: Given.day(33), catalog: Self.catalog)
        #expect(notified.entitlementDecision(for: "premium")?.billingIssueDetectedAt == Given.day(30.5))
        // Before the notification was signed, the rebuild does not know it.
        let earlier = rebuildEntitlements(history: history, asOf: Given.day(30.2), catalog: Self.catalog)
        #expect(earlier.entitlementDecision(for: "premium")?.billingIssueDetectedAt == Given.day(30))

        let off = Given.renewal("8401", signed: 5, autoRenew: .off)
        let cancelled = History(
            transactions: [Given.subscription("8401", from: 0, to: 30)], renewalInfos: [off],
            notifications: [
                Given.notification(.didChangeRenewalStatus, .autoRenewEnabled, signed: 2, renewal: off),
                Given.notification(.didChangeRenewalStatus, .autoRenewDisabled, signed: 5, renewal: off),
            ])
        let unsubscribed = try #require(
            rebuildEntitlements(history: cancelled, asOf: Given.day(10), catalog: Self.catalog).entitlementDecision(
                for: "premium"))
        #expect(unsubscribed.isActive)
        #expect(unsubscribed.willRenew == false)
        #expect(unsubscribed.unsubscribeDetectedAt == Given.day(5))
        #expect(unsubscribed.billingIssueDetectedAt == nil)
        #expect(unsubscribed.autoRenewProductId == nil)
    }
}
