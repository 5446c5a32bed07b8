import FamilyEntitlements
import Foundation
import Testing

/// Where the engine decides each rule, recorded rather than written by hand: every piece of evidence and every
/// diagnostic of the rows' reports names the file and function that made it (`Origin`, package-only), and
/// docs/decision-table.md lists them under each rule, so that a reviewer goes from a row's evidence or diagnostic to
/// the one function that decided it.
enum DecidedIn {
    /// A function of the engine, in its file.
    struct Place: Hashable, Comparable {
        var file: String
        var function: String

        static func < (lhs: Place, rhs: Place) -> Bool { (lhs.file, lhs.function) < (rhs.file, rhs.function) }
    }

    /// What a place made: the evidence, by its fact's case, and the diagnostics, by code.
    struct Made {
        var facts: Set<String> = []
        var codes: Set<String> = []
    }

    /// What the reports of `rows` hold, by the rule of each piece of evidence or diagnostic, then by the place that
    /// made it; and, in `unplaced`, each one that names no place.
    static func record(_ rows: [DecisionRow]) -> (rules: [DecisionRule: [Place: Made]], unplaced: [String]) {
        var rules: [DecisionRule: [Place: Made]] = [:]
        var unplaced: [String] = []
        for row in rows {
            let report = row.rebuild()
            for reason in report.products.flatMap(\.reasons) {
                guard let origin = reason.origin else {
                    unplaced.append("\(row.testDescription): evidence \(factName(reason.fact))")
                    continue
                }
                let place = Place(file: origin.fileName, function: origin.functionName)
                rules[reason.rule, default: [:]][place, default: Made()].facts.insert(factName(reason.fact))
            }
            for diagnostic in report.diagnostics {
                guard let origin = diagnostic.origin else {
                    unplaced.append("\(row.testDescription): diagnostic \(diagnostic.code.rawValue)")
                    continue
                }
                let place = Place(file: origin.fileName, function: origin.functionName)
                rules[diagnostic.rule, default: [:]][place, default: Made()].codes.insert(diagnostic.code.rawValue)
            }
        }
        return (rules, unplaced)
    }

    /// A fact's case, without its values: `grantsUntil`.
    static func factName(_ fact: Reason.Fact) -> String {
        String(String(describing: fact).prefix { $0 != "(" })
    }

    /// The lines docs/decision-table.md gives under `rule`: each place, and what it made.
    static func lines(for rule: DecisionRule, in recorded: [DecisionRule: [Place: Made]]) -> [String] {
        guard let places = recorded[rule], !places.isEmpty else {
            return ["Decided in: no row's report holds evidence or a diagnostic of this rule."]
        }
        var lines = [
            "Decided in (recorded from the rows' reports: the function that made each piece of evidence or diagnostic):",
            "",
        ]
        for place in places.keys.sorted() {
            guard let made = places[place] else { continue }
            var parts: [String] = []
            if !made.facts.isEmpty { parts.append("evidence " + made.facts.sorted().joined(separator: ", ")) }
            if !made.codes.isEmpty { parts.append("diagnostics " + made.codes.sorted().joined(separator: ", ")) }
            lines.append("- \(place.file), `\(place.function)`: \(parts.joined(separator: "; "))")
        }
        return lines
    }
}

@Suite("Where each rule is decided")
struct DecidedInTests {
    @Test("every piece of evidence and every diagnostic of the rows' reports names the function that made it")
    func everythingIsPlaced() {
        let recorded = DecidedIn.record(DecisionRow.all)
        #expect(recorded.unplaced.isEmpty, "\(recorded.unplaced.prefix(10))")
        // The rows reach every rule's evidence or diagnostics, and the stages make them: no report type does.
        #expect(
            recorded.rules.count == DecisionRule.allCases.count,
            "\(recorded.rules.keys.sorted { $0.rawValue < $1.rawValue })")
        let files = Set(recorded.rules.values.flatMap { $0.keys.map(\.file) })
        #expect(files.isSubset(of: Self.stages), "\(files.subtracting(Self.stages).sorted())")
    }

    /// The engine's files that decide: the stages of docs/architecture.md.
    static let stages: Set<String> = [
        "Admission.swift", "NewestSnapshots.swift", "SubscriptionChains.swift", "OneTimePurchases.swift",
        "RevocationCauses.swift", "ReportedCandidate.swift", "Summary.swift",
    ]

    @Test("a fact's case is named without its values")
    func factNames() {
        #expect(DecidedIn.factName(.missingDuration) == "missingDuration")
        #expect(DecidedIn.factName(.billingRecovery(transactionId: "1")) == "billingRecovery")
    }
}
