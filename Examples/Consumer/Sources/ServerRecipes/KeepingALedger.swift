import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// Absorbs an accepted notification into the customer's stored ledger and decides: what to store, what to grant.
    func absorb(
        _ verified: VerifiedNotification, into stored: Data?, asOf now: Date
    ) throws -> (ledger: Data, report: EntitlementReport) {
        var ledger = try stored.map { try CustomerLedger(jsonData: $0) } ?? CustomerLedger()
        let change = ledger.absorb(verified)  // .unchanged for Apple's retry, .conflicting is kept and logged
        if case .conflicting = change { logger.warning("customer ledger: \(change)") }
        let report = ledger.rebuild(asOf: now, environment: intake.policy.environment, catalog: catalog)
        return (try ledger.compacted(asOf: now).jsonData(), report)
    }
}
