import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// What the library decides over many histories, as lines a mutant's build can be compared with: the differential check
/// behind every mutant listed as equivalent in Scripts/mutation/equivalent.txt (`Scripts/mutate.py --differential`).
///
/// The histories: every decision-table row's and three hostile mutations of it (snapshots signed again, ties, left-out
/// copies, REVOKEs, statuses), every shipped scenario, and generated families of subscriptions. For each, at every
/// instant it is judged at: the report's whole contract JSON (validUntil and evidence included), what changed since the
/// instant before, and the ledger that absorbs the history entry by entry: each absorb's answer, its JSON, and the
/// report of its compaction.
enum DecisionDigest {
    struct Case {
        var name: String
        var history: History
        var instants: [Date]
        var environment: Environment = .production
        var catalog: ProductCatalog?
    }

    static let generatedFamilies: [UInt64] = Array(1...1_000)

    static var cases: [Case] {
        var cases: [Case] = []
        for row in DecisionRow.all {
            var histories = [row.history]
            // Seeded by the row's name, not its place: a row added before it leaves its mutations as they were.
            for mutation in 0..<3 {
                histories.append(
                    LedgerHistoryMutator.mutated(row.history, seed: fnv(row.testDescription) &+ UInt64(mutation)))
            }
            for (number, history) in histories.enumerated() {
                let edges = LedgerHistoryMutator.edges(of: history, from: row.instant).filter { $0 < .distantFuture }
                cases.append(
                    Case(
                        name: "\(row.testDescription) #\(number)", history: history,
                        instants: [row.instant.addingTimeInterval(-86_400 * 40)] + edges.prefix(12),
                        environment: row.environment, catalog: row.catalog))
            }
        }
        for scenario in Scenario.allCases {
            guard let history = try? scenario.history(), let expected = try? scenario.expectedReport() else { continue }
            cases.append(
                Case(
                    name: "scenario \(scenario.rawValue)", history: history,
                    instants: [expected.asOf] + LedgerHistoryMutator.edges(of: history, from: expected.asOf).prefix(8),
                    catalog: try? scenario.catalog()))
        }
        for seed in generatedFamilies {
            cases.append(
                Case(
                    name: "generated family \(seed)", history: HistoryGenerator.history(seed: seed),
                    instants: RebuildPropertyTests.instants.map(Given.day)))
        }
        return cases
    }

    /// One line per case and facet: its name, then a hash of what the library decided.
    static func lines(of digestCase: Case) -> [String] {
        var lines: [String] = []
        var previous: EntitlementReport?
        let instants = digestCase.instants.filter { $0 < .distantFuture }.sorted()
        for instant in instants {
            let report = rebuildEntitlements(
                history: digestCase.history, asOf: instant, environment: digestCase.environment,
                catalog: digestCase.catalog)
            let at = "\(digestCase.name) at \(instant.timeIntervalSince1970)"
            lines.append("\(at) report\t\(hash(report))")
            lines.append("\(at) changes\t\(hash(report.changes(from: previous).map(\.description)))")
            previous = report
        }
        var ledger = CustomerLedger()
        let answers = ledger.absorb(digestCase.history).map(\.description)
        lines.append("\(digestCase.name) ledger\t\(hash(answers))|\(hash(encoded(ledger)))")
        if let middle = instants.dropFirst(instants.count / 2).first, let last = instants.last {
            let compacted = ledger.compacted(asOf: middle)
            let report = compacted.rebuild(asOf: last, environment: digestCase.environment, catalog: digestCase.catalog)
            lines.append("\(digestCase.name) compacted\t\(hash(encoded(compacted)))|\(hash(report))")
        }
        return lines
    }

    static func encoded(_ ledger: CustomerLedger) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(ledger)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable"
    }

    static func hash(_ report: EntitlementReport) -> String {
        hash((try? report.contractJSON()).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable")
    }

    static func hash(_ texts: [String]) -> String { hash(texts.joined(separator: "\n")) }

    /// FNV-1a, 64 bits, in hexadecimal: stable across processes, unlike `Hasher`.
    static func hash(_ text: String) -> String { String(fnv(text), radix: 16) }

    /// FNV-1a, 64 bits.
    static func fnv(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return value
    }
}

@Suite("The differential check of equivalent mutants")
struct MutationDifferentialTests {
    static let output = ProcessInfo.processInfo.environment["MUTATION_DIFFERENTIAL_OUT"]

    /// Tests/decision-digests.tsv: one line per case, the hash of its lines and its name, in the order of the cases.
    static let baseline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("decision-digests.tsv")

    /// Each case's digest line for the baseline file.
    static func digests() -> [String] {
        DecisionDigest.cases.map { "\(DecisionDigest.hash(DecisionDigest.lines(of: $0)))\t\($0.name)" }
    }

    /// What the library decides is pinned by a file: a change to the engine that changes any decision, validUntil,
    /// evidence, diagnostic, ledger answer or compaction of over two thousand histories fails here, naming the cases.
    /// A row added since has no digest yet; a recorded case that is gone fails too.
    /// A change that means to decide differently writes the file again (`REGENERATE_DECISION_DIGESTS=1 swift test
    /// --filter decisionsMatchTheBaseline`) and says so in CHANGELOG.md; the diff of the file names every case it moved.
    @Test("every history decides as Tests/decision-digests.tsv records")
    func decisionsMatchTheBaseline() throws {
        let digests = Self.digests()
        if ProcessInfo.processInfo.environment["REGENERATE_DECISION_DIGESTS"] != nil {
            try (digests.joined(separator: "\n") + "\n").write(to: Self.baseline, atomically: true, encoding: .utf8)
        }
        // By name: a case added since (a new row, its mutations) has no digest yet and is not compared.
        func byName(_ lines: [String]) -> [String: String] {
            Dictionary(
                lines.map { line in
                    let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                    return (parts.last ?? "", parts.first ?? "")
                }, uniquingKeysWith: { first, _ in first })
        }
        let lines = try String(contentsOf: Self.baseline, encoding: .utf8).split(separator: "\n").map(String.init)
        let (recorded, now) = (byName(lines), byName(digests))
        #expect(recorded.count == lines.count && now.count == digests.count, "every case's name is unique")
        let missing = recorded.keys.filter { now[$0] == nil }.sorted()
        #expect(missing.isEmpty, "\(missing.count) recorded cases are gone, first: \(missing.prefix(10))")
        let moved = recorded.keys.filter { name in now[name].map { $0 != recorded[name] } ?? false }.sorted()
        #expect(moved.isEmpty, "\(moved.count) cases decide otherwise than recorded, first: \(moved.prefix(10))")
        #expect(recorded.count > 2_000)
    }

    @Test("the histories number over a thousand, of every kind, and every facet is decided")
    func historiesAreManyAndVaried() {
        let cases = DecisionDigest.cases
        #expect(cases.count >= 1_000)
        #expect(cases.filter { $0.name.hasPrefix("rule ") }.count >= 4 * DecisionRow.all.count)
        #expect(cases.filter { $0.name.hasPrefix("scenario ") }.count == Scenario.allCases.count)
        let sample = cases.filter { $0.name.hasPrefix("rule ") }.prefix(40)
        let lines = sample.flatMap(DecisionDigest.lines(of:))
        #expect(lines.contains { $0.contains(" compacted\t") })
        #expect(Set(lines.map { $0.split(separator: "\t").last ?? "" }).count > lines.count / 4)
    }

    /// Writes the lines for `Scripts/mutate.py --differential`; runs only when it asks, with the file to write.
    @Test(
        "what the library decides, written for the mutation harness",
        .enabled(if: MutationDifferentialTests.output != nil))
    func writeDecisions() throws {
        let lines = DecisionDigest.cases.flatMap(DecisionDigest.lines(of:))
        let path = try #require(Self.output)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(lines.count >= 1_000)
    }
}
