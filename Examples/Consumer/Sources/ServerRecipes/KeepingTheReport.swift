import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// Stores what the customer may use now: the report is what the service answers its apps from.
    func keep(_ report: EntitlementReport, of customer: String) async throws {
        try await store.save(report, of: customer)
    }

    /// Decides again from the stored ledger alone, without news from Apple: a scheduled job's step.
    func decideAgain(customer: String) async throws -> EntitlementReport {
        try await decide(from: try await store.ledger(of: customer), of: customer, asOf: clock())
    }
}
