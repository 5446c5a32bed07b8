import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import FamilyEntitlements

/// `validUntil` as it was first computed: the whole history rebuilt at every boundary a report can hold, in order,
/// until the decision differs. Slow and plainly right; the rebuild's own `validUntil` must always give the same date.
enum ReferenceValidUntil {
    /// The report of `rebuild` at its instant, without `validUntil`.
    static func plainReport(_ rebuild: Rebuild, of history: History) -> EntitlementReport {
        rebuild.report(of: history, findingValidUntil: false, budget: .unlimited).report
    }

    static func validUntil(
        history: History, asOf instant: Date, environment: Environment, catalog: ProductCatalog?
    ) -> Date? {
        let scope = RebuildScope(instant: instant, environment: environment, catalog: catalog)
        let decision = DecisionKey(plainReport(Rebuild(scope: scope), of: history))
        // validUntil names an instant a report can hold: past 9999 the rebuild decides nothing (invalid_instant), which
        // is no change of the decision it could report.
        for boundary in Staleness(scope: scope).boundaries(of: history)
        where RebuildScope(instant: boundary, environment: environment, catalog: catalog).isDecidable {
            let later = plainReport(
                Rebuild(scope: RebuildScope(instant: boundary, environment: environment, catalog: catalog)), of: history
            )
            if DecisionKey(later) != decision { return boundary }
        }
        return nil
    }
}

@Suite("validUntil against the reference")
struct ValidUntilReferenceTests {
    /// `validUntil` and the reference agree at `instant`, and the rest of the report is the rebuild's without it.
    static func expectAgreement(
        _ history: History, at instant: Date, environment: Environment, catalog: ProductCatalog?,
        _ context: @autoclosure () -> String
    ) {
        let report = rebuildEntitlements(history: history, asOf: instant, environment: environment, catalog: catalog)
        let reference = ReferenceValidUntil.validUntil(
            history: history, asOf: instant, environment: environment, catalog: catalog)
        #expect(report.validUntil == reference, "\(context()), asOf \(instant)")
        var plain = ReferenceValidUntil.plainReport(
            Rebuild(scope: RebuildScope(instant: instant, environment: environment, catalog: catalog)), of: history)
        plain.validUntil = report.validUntil
        #expect(report == plain, "\(context()), asOf \(instant): the report differs from the rebuild's")
    }

    /// For every row of the decision table and mutations of it (as the compaction and validUntil properties use), at
    /// every date the history names and a millisecond either side, with and without the row's catalog, in the row's
    /// environment and, where it sets another, in Production.
    @Test(arguments: DecisionRow.all.indices)
    func sameAsReference(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        var histories = [row.history]
        for mutation in 0..<2 {
            histories.append(LedgerHistoryMutator.mutated(row.history, seed: UInt64(rowIndex * 10 + mutation + 500)))
        }
        histories.append(LedgerHistoryMutator.arrivals(after: row.history, seed: UInt64(rowIndex * 10 + 900)))
        let environments = row.environment == .production ? [row.environment] : [row.environment, .production]
        for (index, history) in histories.enumerated() {
            let instants = [row.instant] + LedgerHistoryMutator.edges(of: history, from: .distantPast)
            for instant in instants where instant < .distantFuture {
                for environment in environments {
                    for catalog in Set([row.catalog, nil]) {
                        Self.expectAgreement(
                            history, at: instant, environment: environment, catalog: catalog,
                            "\(row.name), history \(index), \(environment.rawValue), catalog \(catalog != nil)")
                    }
                }
            }
        }
    }

    /// Two rows' histories in one: several chains and products whose boundaries interleave, the same identifiers
    /// sometimes reused with other facts.
    @Test(arguments: DecisionRow.all.indices)
    func sameAsReferenceForTwoRows(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        let other = DecisionRow.all[(rowIndex * 7 + 3) % DecisionRow.all.count]
        let history = History(
            transactions: row.history.transactions + other.history.transactions,
            renewalInfos: row.history.renewalInfos + other.history.renewalInfos,
            notifications: row.history.notifications + other.history.notifications)
        for instant in LedgerHistoryMutator.edges(of: history, from: .distantPast) where instant < .distantFuture {
            for catalog in Set([row.catalog, other.catalog, nil]) {
                Self.expectAgreement(
                    history, at: instant, environment: row.environment, catalog: catalog,
                    "\(row.name) with \(other.name), catalog \(catalog != nil)")
            }
        }
    }

    /// Whole families in one history: the organiser's chain and each member's shared copy expire apart, so that most
    /// boundaries change one chain and not the decision; members leave, sharing stops, the purchaser is refunded.
    @Test func familiesSameAsReference() {
        let purchase = DemoApp.date("2026-03-02T10:15:00Z")
        let event = DemoApp.date("2026-05-10T08:00:00Z")
        let families = [
            FamilyBuilder(purchased: purchase, periods: 4),
            FamilyBuilder(purchased: purchase, periods: 4).memberLeaves(2, at: event),
            FamilyBuilder(purchased: purchase, periods: 3).sharingStopped(at: event),
            FamilyBuilder(purchased: purchase, periods: 3).purchaserRefunded(at: event),
            FamilyBuilder(purchased: purchase, members: 2, sharingDelay: 30 * 86_400),
        ]
        for (index, family) in families.enumerated() {
            let everyone = family.build().everyone
            let history = History(
                transactions: everyone.flatMap(\.transactions), renewalInfos: everyone.flatMap(\.renewalInfos),
                notifications: everyone.flatMap(\.notifications))
            for instant in LedgerHistoryMutator.edges(of: history, from: .distantPast) where instant < .distantFuture {
                Self.expectAgreement(
                    history, at: instant, environment: family.environment, catalog: nil, "family \(index)")
            }
        }
    }
}
