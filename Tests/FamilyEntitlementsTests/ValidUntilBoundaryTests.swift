import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import FamilyEntitlements

/// validUntil's boundaries are checked, not trusted: `Staleness.BoundaryReader` lists the dates after the instant at
/// which a decision may change, and a date a rule compares with the instant but the reader forgot would let a report
/// be reused past a change. Here time's home (`RebuildInstant`) records every date after the instant that a rule
/// compared with it, and each must be among the boundaries validUntil considered.
@Suite(
    "validUntil's boundaries against the dates the rules compared",
    .enabled(if: ComparedDates.isAvailable, "a release build keeps no recorder"))
struct ValidUntilBoundaryTests {
    /// The dates after `instant` that the rebuild's rules compared with it, and the boundaries validUntil considered.
    static func compared(
        _ history: History, at instant: Date, environment: Environment, catalog: ProductCatalog?
    ) -> (compared: [Date], considered: Set<Date>) {
        let recorder = ComparedDates()
        let scope = RebuildScope(instant: instant, environment: environment, catalog: catalog, recorder: recorder)
        _ = Rebuild(scope: scope).report(of: history, findingValidUntil: true, budget: .unlimited)
        return (recorder.dates, Set(Staleness(scope: scope).boundaries(of: history)))
    }

    /// Every row, and two mutations of it seeded by its name, at the row's instant and at one date the history names,
    /// with and without the row's catalog.
    @Test(arguments: DecisionRow.all)
    func everyComparedDateIsABoundary(_ row: DecisionRow) {
        let seed = DecisionDigest.fnv(row.testDescription)
        var random = SeededRandom(seed: seed)
        var histories = [row.history]
        for mutation in 0..<2 {
            histories.append(LedgerHistoryMutator.mutated(row.history, seed: seed &+ UInt64(mutation)))
        }
        for (index, history) in histories.enumerated() {
            let edges = LedgerHistoryMutator.edges(of: history, from: .distantPast).filter { $0 < .distantFuture }
            var instants = [row.instant]
            if let edge = edges.randomElement(using: &random) { instants.append(edge) }
            for instant in instants {
                for catalog in [row.catalog, nil] {
                    let (compared, considered) = Self.compared(
                        history, at: instant, environment: row.environment, catalog: catalog)
                    let forgotten = compared.filter { !considered.contains($0) }.map(MillisecondDate.text)
                    let context = "\(row.name), history \(index), at \(instant), catalog \(catalog != nil)"
                    #expect(
                        forgotten.isEmpty, "\(context): compared \(forgotten) ms, which validUntil did not consider")
                }
            }
        }
    }

    /// The recorder is what makes the property above able to fail: it notes the dates a rule compared after the
    /// instant (an expiry, a grace period's end), none before it, and a forgotten boundary is then visible.
    @Test func theRecorderNotesWhatRulesCompare() {
        let subscription = Given.subscription("7001", from: 0, to: 30)
        let history = History(transactions: [subscription])
        let (compared, considered) = Self.compared(history, at: Given.day(5), environment: .production, catalog: nil)
        #expect(compared.contains(Given.day(30)), "\(compared)")
        #expect(compared.allSatisfy { $0 > Given.day(5) }, "\(compared)")
        #expect(considered.contains(Given.day(30)))
        // Without the expiry among the boundaries, the property would name it.
        #expect(!compared.filter { !considered.subtracting([Given.day(30)]).contains($0) }.isEmpty)
        // A service's rebuild keeps no recorder, and one moved in time leaves it behind.
        let scope = RebuildScope(instant: Given.day(5), environment: .production, catalog: nil)
        #expect(scope.instant.recorder == nil)
        let recording = RebuildScope(
            instant: Given.day(5), environment: .production, catalog: nil, recorder: ComparedDates())
        #expect(recording.instant.recorder != nil && recording.at(Given.day(6)).instant.recorder == nil)
    }
}
