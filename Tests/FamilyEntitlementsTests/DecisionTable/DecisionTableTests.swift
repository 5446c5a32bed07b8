import FamilyEntitlements
import Foundation
import Testing

@Suite("Decision table")
struct DecisionTableTests {
    @Test(arguments: DecisionRow.all)
    func row(_ row: DecisionRow) {
        let report = row.rebuild()
        let problems = row.mismatches(in: report)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Where a later snapshot's revocation is used, that is what the report says of the later snapshots: not also
    /// that they were set aside, which would contradict it.
    @Test("a later snapshot revoking by the instant is reported once, as the one used")
    func laterRevocationReportedOnce() throws {
        let row = try #require(
            DecisionRow.snapshots.first { $0.name.hasPrefix("a later snapshot may take access away") })
        let later = row.rebuild().diagnostics.filter { $0.code == .signedAfterInstant }
        #expect(later.count == 1, "\(later)")
    }

    @Test("every rule has at least one row, and each row sits in its rule's file")
    func everyRuleHasRows() {
        for rule in DecisionRule.allCases {
            #expect(!rule.rows.isEmpty, "\(rule) has no row")
            for row in rule.rows {
                #expect(row.rule == rule, "\(row.testDescription) sits in the file of \(rule)")
            }
        }
    }

    @Test("row names are unique, so each is a name a reviewer can cite")
    func namesAreUnique() {
        let names = DecisionRow.all.map(\.testDescription)
        #expect(Set(names).count == names.count)
    }

    @Test("docs/decision-table.md is generated from these rows and has not drifted")
    func documentMatchesRows() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/decision-table.md")
        let rendered = DecisionTableDocument.render(DecisionRow.all)
        if ProcessInfo.processInfo.environment["REGENERATE_DECISION_TABLE"] == "1" {
            try Data(rendered.utf8).write(to: url)
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        #expect(
            stored == rendered,
            "docs/decision-table.md differs from the rows; run REGENERATE_DECISION_TABLE=1 swift test --filter DecisionTable"
        )
    }
}
