import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

@Suite("validUntil")
struct ValidUntilTests {
    /// For every row of the decision table and mutations of it, decided at several instants, with and without the
    /// row's catalog: at every sampled instant in `[asOf, validUntil)` the same decision, and at `validUntil` another.
    /// Samples are every date the history names and a millisecond either side, and points drawn between them.
    @Test(arguments: DecisionRow.all.indices)
    func decisionHoldsUntilValidUntil(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        var random = SeededRandom(seed: UInt64(rowIndex * 31 + 5))
        var histories = [row.history]
        for mutation in 0..<2 {
            histories.append(
                LedgerHistoryMutator.mutated(row.history, seed: UInt64(rowIndex * 10 + mutation + 500)))
        }
        for (index, history) in histories.enumerated() {
            let edges = LedgerHistoryMutator.edges(of: history, from: .distantPast).filter { $0 < .distantFuture }
            var starts = [row.instant]
            if let start = edges.randomElement(using: &random) { starts.append(start) }
            for start in starts {
                for catalog in [row.catalog, nil] {
                    let report = rebuildEntitlements(
                        history: history, asOf: start, environment: row.environment, catalog: catalog)
                    let decision = DecisionSummary(report)
                    #expect(report.entitlementDecisions.mapValues(\.isActive) == report.entitlements)
                    let end = report.validUntil ?? .distantFuture
                    let context = "\(row.name), history \(index), asOf \(start), catalog \(catalog != nil)"
                    var samples = LedgerHistoryMutator.edges(of: history, from: start).filter { $0 < end }
                    let span = min(end.timeIntervalSince(start), 3 * 365 * 86_400)
                    for _ in 0..<4 {
                        samples.append(start.addingTimeInterval(Double.random(in: 0..<1, using: &random) * span))
                    }
                    for instant in samples where instant < end {
                        let later = DecisionSummary(
                            rebuildEntitlements(
                                history: history, asOf: instant, environment: row.environment, catalog: catalog))
                        #expect(later == decision, "\(context): at \(instant) \(later) vs \(decision)")
                        if later != decision { return }
                    }
                    guard let validUntil = report.validUntil else { continue }
                    #expect(validUntil > start, "\(context): validUntil \(validUntil)")
                    let changed = DecisionSummary(
                        rebuildEntitlements(
                            history: history, asOf: validUntil, environment: row.environment, catalog: catalog))
                    #expect(changed != decision, "\(context): nothing changes at validUntil \(validUntil)")
                }
            }
        }
    }

    /// The property above passes with validUntil always nil for histories that never change: these histories do.
    @Test func validUntilNamesTheRuleThatEnds() throws {
        let subscription = Given.subscription("7001", from: 0, to: 30)
        let active = rebuildEntitlements(history: History(transactions: [subscription]), asOf: Given.day(5))
        #expect(active.validUntil == Given.day(30))
        let expired = rebuildEntitlements(history: History(transactions: [subscription]), asOf: Given.day(31))
        #expect(expired.validUntil == nil)

        // Billing retry ends 60 days after the expiry; a grace period ends first.
        let retrying = History(
            transactions: [subscription],
            renewalInfos: [
                Given.renewal("7001", signed: 31) {
                    $0.isInBillingRetryPeriod = true
                    $0.gracePeriodExpiresDate = Given.day(36)
                }
            ])
        #expect(rebuildEntitlements(history: retrying, asOf: Given.day(32)).validUntil == Given.day(36))
        #expect(rebuildEntitlements(history: retrying, asOf: Given.day(40)).validUntil == Given.day(90))

        // A non-renewing subscription ends after its catalog's duration.
        let catalog = ProductCatalog(
            products: [
                ProductID(Given.pass): ProductCatalog.Product(type: .nonRenewing, duration: ISO8601Duration(months: 3))
            ])
        let pass = History(transactions: [Given.oneTime("7101", Given.pass, type: .nonRenewing, on: 0)])
        #expect(rebuildEntitlements(history: pass, asOf: Given.day(1), catalog: catalog).validUntil == Given.day(90))

        // A purchase dated after the instant counts from its date; a REVOKE from its signedDate.
        let later = History(transactions: [Given.subscription("7201", from: 10, to: 40)])
        #expect(rebuildEntitlements(history: later, asOf: Given.day(1)).validUntil == Given.day(10))
        var shared = Given.subscription("7301", from: 0, to: 30, ownership: .familyShared)
        shared.revocationDate = nil
        let revoked = History(
            transactions: [Given.subscription("7301", from: 0, to: 30, ownership: .familyShared)],
            notifications: [Given.notification(.revoke, signed: 12, transaction: shared)])
        #expect(rebuildEntitlements(history: revoked, asOf: Given.day(2)).validUntil == Given.day(12))

        let json = try #require(String(data: try active.contractJSON(), encoding: .utf8))
        #expect(json.contains("\"validUntil\":\(Int64(Given.day(30).timeIntervalSince1970 * 1000))"))
        #expect(try String(data: expired.contractJSON(), encoding: .utf8)?.contains("\"validUntil\":null") == true)
    }

    /// A boundary can change a chain's diagnostics or renewal side while its state stays: the report goes stale there
    /// too. Each notification carries a renewal info signed before the instant, so that only its own signedDate is new.
    @Test func validUntilNamesChangesBesideTheState() throws {
        // Apple's status EXPIRED, signed on day 12 after everything else known, disagrees with the active chain from
        // then on: a diagnostic appears, the candidate is the same.
        var status = Given.notification(
            .didChangeRenewalPref, signed: 12, renewal: Given.renewal("7401", signed: 3))
        status.data?.status = .expired
        let disagreeing = History(
            transactions: [Given.subscription("7401", from: 0, to: 30)],
            renewalInfos: [Given.renewal("7401", signed: 3)],
            notifications: [status])
        let before = rebuildEntitlements(history: disagreeing, asOf: Given.day(5))
        #expect(before.validUntil == Given.day(12))
        let after = rebuildEntitlements(history: disagreeing, asOf: Given.day(12))
        #expect(!before.diagnostics.contains { $0.code == .appleStatusDisagrees })
        #expect(after.diagnostics.contains { $0.code == .appleStatusDisagrees })
        #expect(after.products.map(\.state) == [.active])
        #expect(after.products.map(\.state) == before.products.map(\.state))

        // In a grace period, a DID_FAIL_TO_RENEW signed on day 34 moves when the billing issue was detected from the
        // expiry to its signedDate; the state stays grace period until day 46.
        let retry = Given.renewal("7501", signed: 31) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(46)
        }
        let failing = History(
            transactions: [Given.subscription("7501", from: 0, to: 30)], renewalInfos: [retry],
            notifications: [Given.notification(.didFailToRenew, .gracePeriod, signed: 34, renewal: retry)])
        let grace = rebuildEntitlements(history: failing, asOf: Given.day(32))
        #expect(grace.validUntil == Given.day(34))
        let detected = try #require(
            rebuildEntitlements(history: failing, asOf: Given.day(34)).entitlementDecision(
                for: EntitlementID(Given.monthly)))
        #expect(detected.state == .gracePeriod)
        #expect(detected.billingIssueDetectedAt == Given.day(34))
        #expect(grace.entitlementDecision(for: EntitlementID(Given.monthly))?.billingIssueDetectedAt == Given.day(30))
    }
}
