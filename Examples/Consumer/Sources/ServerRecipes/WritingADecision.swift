import FamilyEntitlements
import Foundation

/// Another writer moved the ledger's version at every try; the caller answers 503 and Apple retries.
struct WriteContention: Error {
    let key: String
}

extension AppStoreService {
    /// Merges what was learned into the stored ledger, decides, and writes the decision in one conditional write: the
    /// ledger compacted at the decision's instant, the report with its `validUntil`, and the actions it calls for.
    ///
    /// When another writer moved the version since the load, nothing was written: load what it wrote, merge what this
    /// call learned into it (absorbing again changes nothing), decide again and try again.
    func write(_ learned: CustomerLedger, under key: String, asOf now: Date) async throws -> EntitlementReport {
        for _ in 0..<8 {
            let stored = try await store.load(key)  // ledger, report and version, read together
            // Never before the stored decision: its ledger was compacted at its asOf, and another server's clock may
            // run behind this one's.
            let instant = max(now, stored.report?.asOf ?? now)
            let ledger = stored.ledger.merging(learned)
            let report = ledger.rebuild(asOf: instant, environment: intake.policy.environment, catalog: catalog)
            let changes = report.changes(from: stored.report)  // from nil the first time
            let decision = DecisionWrite(
                ledger: ledger.compacted(asOf: instant),  // at the instant of the decision, see docs/ledger.md
                report: report, actions: actions(for: changes, of: key))
            if try await store.write(decision, under: key, ifVersion: stored.version) {
                log(changes, of: key)
                return report
            }
        }
        throw WriteContention(key: key)
    }

    /// The scheduled job: decides again, by the same write path, for every ledger whose `validUntil` has passed.
    func decideDue() async throws {
        let now = clock()
        for key in try await store.keysDue(at: now) {
            _ = try await write(CustomerLedger(), under: key, asOf: now)
        }
    }

    /// Decides again for one ledger from what it holds alone, by the same write path.
    func decideAgain(customer: String) async throws -> EntitlementReport {
        try await write(CustomerLedger(), under: customer, asOf: clock())
    }
}
