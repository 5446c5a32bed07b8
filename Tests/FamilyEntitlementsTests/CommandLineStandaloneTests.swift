import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The tool copied alone to an empty folder, and the SVG timeline of `explain --format svg`.
@Suite(
    "The entitlements tool alone and its timeline",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct CommandLineStandaloneTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `executable` in `folder` with `arguments`.
    static func run(
        _ executable: URL, _ arguments: [String], in folder: URL, input: Data? = nil
    ) throws -> EntitlementsTool.Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { try standardInput.fileHandleForWriting.write(contentsOf: input) }
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return EntitlementsTool.Result(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            exitedNormally: process.terminationReason == .exit)
    }

    @Test("the binary copied alone to an empty folder runs every command without crashing")
    func copiedBinary() throws {
        let built = try #require(EntitlementsTool.executable)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("entitlements")
        try FileManager.default.copyItem(at: built, to: copy)
        // The binary holds no test-support code: no symbol of the module and no accessor of its resource bundle,
        // which would otherwise fall back to the absolute build path and hide a missing bundle.
        let bytes = try Data(contentsOf: copy)
        #expect(bytes.range(of: Data("TestSupport".utf8)) == nil, "the tool links no test-support code")
        #expect(bytes.range(of: Data(".resources".utf8)) == nil, "the tool has no resource bundle accessor")

        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let history = work.appendingPathComponent("history.json")
        try Scenario.purchaserRefundedMember.historyData().write(to: history)
        let line =
            Data(#"{"customer":"c1","history":"#.utf8)
            + (try Scenario.purchaserRefundedMember.historyData())
            .filter { $0 != 0x0A } + Data("}\n".utf8)
        try line.write(to: work.appendingPathComponent("fleet.ndjson"))
        let notification = work.appendingPathComponent("notification.json")
        try FixtureFiles.data("Notifications/REFUND.PURCHASED.json").write(to: notification)

        let runs: [(arguments: [String], status: Int32, output: String)] = [
            (["help"], 0, "COMMANDS:"),
            (["rebuild", "--help"], 0, "USAGE: entitlements rebuild"),
            (["explain", "--help"], 0, "USAGE: entitlements explain"),
            (["decode", "--help"], 0, "USAGE: entitlements decode"),
            (["reconcile", "--help"], 0, "USAGE: entitlements reconcile"),
            (["rebuild", "history.json", "--as-of", "1796040000000"], 0, "entitlements: "),
            (["rebuild", "history.json", "--as-of", "1796040000000", "--format", "json"], 0, "\"asOf\""),
            (["explain", "history.json", "--as-of", "1796040000000"], 0, "rule 7"),
            (["explain", "history.json", "--as-of", "1796040000000", "--format", "svg"], 0, "<svg"),
            (["decode", "notification.json"], 0, "\"kind\""),
            (["reconcile", "fleet.ndjson", "--as-of", "1796040000000"], 0, "{\"customer\":\"c1\""),
        ]
        for run in runs {
            let result = try Self.run(copy, run.arguments, in: work)
            #expect(result.exitedNormally, "\(run.arguments): killed by signal \(result.status)")
            #expect(result.status == run.status, "\(run.arguments): \(result.standardError)")
            #expect(result.standardOutput.contains(run.output), "\(run.arguments)")
        }
        for command in ["rebuild", "explain"] {
            let result = try Self.run(copy, [command], in: work)
            #expect(result.exitedNormally, "\(command) with no FILE: killed by signal \(result.status)")
            #expect(result.status == 2)
            #expect(result.standardError.contains("pass a history file"), "\(result.standardError)")
        }
    }

    static let storedPicture = "docs/images/purchaser-refunded-member.svg"

    /// `explain --format svg` of a scenario at its instant.
    static func svg(of scenario: Scenario) throws -> EntitlementsTool.Result {
        let history = try FixtureFiles.url("\(scenario.folder)/history.json")
        let asOf = Int64((try scenario.expectedReport().asOf.timeIntervalSince1970 * 1000).rounded())
        var arguments = ["explain", history.path, "--as-of", "\(asOf)", "--format", "svg"]
        if let catalog = try? FixtureFiles.url("\(scenario.folder)/catalog.json") {
            arguments += ["--catalog", catalog.path]
        }
        return try EntitlementsTool.run(arguments)
    }

    /// Whether `text` parses as XML.
    static func isWellFormed(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }

    @Test("explain --format svg draws every shipped scenario as well-formed SVG", arguments: Scenario.allCases)
    func timelineOfEveryScenario(_ scenario: Scenario) throws {
        let result = try Self.svg(of: scenario)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("<?xml"))
        #expect(Self.isWellFormed(result.standardOutput), "\(scenario.rawValue)")
        #expect(result.standardOutput.contains("class=\"as-of\""))
        #expect(result.standardOutput.contains("class=\"period\""))
    }

    @Test("the timeline of a Family Sharing refund matches the picture in docs/cli.md")
    func storedTimeline() throws {
        let result = try Self.svg(of: .purchaserRefundedMember)
        #expect(result.status == 0)
        let stored = Self.root.appendingPathComponent(Self.storedPicture)
        if ProcessInfo.processInfo.environment["REGENERATE_CLI_SVG"] == "1" {
            try Data(result.standardOutput.utf8).write(to: stored)
        }
        let expected = try String(contentsOf: stored, encoding: .utf8)
        #expect(
            result.standardOutput == expected, "regenerate with REGENERATE_CLI_SVG=1 swift test --filter storedTimeline"
        )
        // The picture answers "why did this member lose access": the refund mark, labelled with its transaction
        // and rule, and the instant of evaluation.
        #expect(expected.contains("510000000000202 · rule 7: refund"))
        #expect(expected.contains("as of 2026-11-30T12:00:00Z"))
        #expect(expected.contains("class=\"cut-short\""))
        let document = try String(contentsOf: Self.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        #expect(document.contains("](images/purchaser-refunded-member.svg)"))
    }

    @Test("grace period and billing retry are shaded in their lanes")
    func graceAndRetry() throws {
        let grace = try Self.svg(of: .billingGracePeriod)
        #expect(grace.standardOutput.contains("class=\"grace\""))
        let retry = try Self.svg(of: .billingRetry)
        #expect(retry.standardOutput.contains("class=\"billing-retry\""))
        let upgrade = try Self.svg(of: .upgradeAndDowngrade)
        let upgradeMark = upgrade.standardOutput.split(separator: "\n").first {
            $0.contains(">510000800000101 · ") && $0.hasSuffix("upgrade</text>")
        }
        #expect(upgradeMark != nil, "the upgraded transaction is marked")
    }

    @Test("strings from the input are escaped in the SVG as in the table, and the SVG stays well-formed")
    func svgEscapes() throws {
        let hostile = "x</text><script>alert(1)</script>&\n\u{202E}"
        var purchase = TransactionBuilder.oneTime(.stickers, purchased: Date(timeIntervalSince1970: 1_767_225_600))
        purchase.productId = hostile
        let refunded = TransactionBuilder.refunded(purchase, at: Date(timeIntervalSince1970: 1_768_000_000))
        let history = try History(transactions: [refunded]).jsonData()
        let result = try EntitlementsTool.run(
            ["explain", "-", "--as-of", "1770000000000", "--format", "svg"], input: history)
        #expect(result.status == 0)
        #expect(Self.isWellFormed(result.standardOutput))
        #expect(!result.standardOutput.contains("<script>"))
        #expect(result.standardOutput.contains("x&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;\\n\\u{202E}"))
    }
}
