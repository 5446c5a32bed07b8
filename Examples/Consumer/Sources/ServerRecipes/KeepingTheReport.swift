import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// Stores what the customer may use now, and when to decide again without news from Apple: `validUntil`, the
    /// instant at which the same ledger decides otherwise (a period ends, a grace period runs out), nil when only news
    /// from Apple can change the decision. Apps may cache the report until then.
    func keep(_ report: EntitlementReport, of customer: String) async throws {
        try await store.save(report, of: customer)
        try await store.scheduleDecision(of: customer, at: report.validUntil)
    }

    /// The scheduled job at `validUntil`: decides again from the stored ledger alone, with the same steps.
    func decideAgain(customer: String) async throws -> EntitlementReport {
        try await decide(from: try await store.ledger(of: customer), of: customer, asOf: clock())
    }
}
