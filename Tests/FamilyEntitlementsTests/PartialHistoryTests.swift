import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// A Get Transaction History page with more to come, read as a whole history: the decision rests on that page alone,
/// so it is reported (`partial_history`), and the tool refuses it unless told the input is partial (`--partial`).
struct PartialHistoryTests {
    static let purchase = TransactionBuilder.subscription(purchased: Date(timeIntervalSince1970: 1_767_225_600))
    static let instant = Date(timeIntervalSince1970: 1_768_435_200)

    /// A page of one signed transaction, with `hasMore` as given (absent where nil).
    static func page(hasMore: Bool?) throws -> Data {
        let signed = try FakeJWSSigner().sign(purchase)
        let more = hasMore.map { #","hasMore":\#($0)"# } ?? ""
        return Data(
            #"{"bundleId":"org.familyentitlements.demo","environment":"Production","revision":"r1","signedTransactions":["\#(signed)"]\#(more)}"#
                .utf8)
    }

    @Test("hasMore true: the page's transactions, a partial_history warning at hasMore, a diagnostic in the report")
    func partialPage() throws {
        let decoded = try History.decodeUnverified(try Self.page(hasMore: true))
        #expect(decoded.history.transactions == [Self.purchase])
        #expect(decoded.warnings.map(\.code) == [.partialHistory])
        #expect(decoded.warnings.map(\.path) == ["hasMore"])
        let report = rebuildEntitlements(
            history: decoded.history, asOf: Self.instant, decodingWarnings: decoded.warnings)
        let diagnostic = try #require(report.diagnostics.first { $0.code == .partialHistory })
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.message.contains("later page"), "\(diagnostic.message)")
        // The page still decides what it holds: the diagnostic says the decision rests on it alone.
        #expect(report == rebuildEntitlements(history: decoded.history, asOf: Self.instant).withDiagnostics(of: report))
    }

    @Test("hasMore false or absent: the whole history, no warning", arguments: [false, nil] as [Bool?])
    func wholePage(_ hasMore: Bool?) throws {
        let decoded = try History.decodeUnverified(try Self.page(hasMore: hasMore))
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.history.transactions == [Self.purchase])
    }
}

extension EntitlementReport {
    /// This report with the diagnostics of `other`, to compare everything but them.
    fileprivate func withDiagnostics(of other: EntitlementReport) -> EntitlementReport {
        var copy = self
        copy.diagnostics = other.diagnostics
        return copy
    }
}

@Suite(
    "A partial history through the entitlements tool",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct PartialHistoryCommandLineTests {
    static let asOf = "2026-01-15T00:00:00Z"

    @Test(
        "rebuild and explain refuse a page with hasMore true: exit 1, naming hasMore and --partial",
        arguments: [
            "rebuild", "explain",
        ])
    func refused(_ command: String) throws {
        let result = try EntitlementsTool.run(
            [command, "-", "--as-of", Self.asOf], input: try PartialHistoryTests.page(hasMore: true))
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
        #expect(result.standardError.contains("hasMore"), "\(result.standardError)")
        #expect(result.standardError.contains("--partial"), "\(result.standardError)")
    }

    @Test("--partial decides on the page alone, with partial_history in the report")
    func partialFlag() throws {
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", Self.asOf, "--partial", "--format", "json"],
            input: try PartialHistoryTests.page(hasMore: true))
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["partial_history"])
        #expect(diagnostics.first?["severity"] as? String == "warning")
        #expect(report["customerStatus"] as? String == "active")
    }

    @Test("the last page (hasMore false) needs no flag")
    func lastPage() throws {
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", Self.asOf, "--format", "json"],
            input: try PartialHistoryTests.page(hasMore: false))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("partial_history"))
    }
}
