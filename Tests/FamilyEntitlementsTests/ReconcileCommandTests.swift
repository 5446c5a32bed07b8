import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// `entitlements reconcile`: one line per customer in input order, reports byte-identical to `rebuild --format json`,
/// error lines that stop nothing, shards that partition the input, and drift against what the service stores.
@Suite(
    "entitlements reconcile", .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct ReconcileCommandTests {
    static let instant = "1796040000000"

    /// One NDJSON line for a customer with a scenario's history.
    static func line(customer: String, scenario: Scenario) throws -> String {
        let history = String(decoding: try scenario.historyData(), as: UTF8.self)
        return #"{"customer": "# + jsonString(customer) + #", "history": "#
            + history.split(separator: "\n").joined(separator: " ") + "}"
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
    }

    /// FNV-1a 64-bit, written again here from its definition, so that the tool's shards are checked against it.
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    /// Runs `reconcile` on `input` written to a file: the tool writes while it reads, and a test that wrote a large
    /// input to its standard input before reading its output would wait for ever on a full pipe.
    static func reconcile(_ options: [String], input: String) throws -> EntitlementsTool.Result {
        let file = try EntitlementsTool.temporaryFile(Data(input.utf8), named: "fleet.ndjson")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return try EntitlementsTool.run(["reconcile", file.path] + options)
    }

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("each report is byte for byte what rebuild --format json prints", arguments: Scenario.allCases)
    func sameBytesAsRebuild(_ scenario: Scenario) throws {
        let asOf = Int64((try scenario.expectedReport().asOf.timeIntervalSince1970 * 1000).rounded())
        var options = ["--as-of", "\(asOf)"]
        if let catalog = try? FixtureFiles.url("\(scenario.folder)/catalog.json") {
            options += ["--catalog", catalog.path]
        }
        let rebuild = try EntitlementsTool.run(
            ["rebuild", "-", "--format", "json"] + options, input: try scenario.historyData())
        #expect(rebuild.status == 0)
        let input = try Self.line(customer: scenario.rawValue, scenario: scenario) + "\n"
        let reconcile = try EntitlementsTool.run(["reconcile"] + options, input: Data(input.utf8))
        #expect(reconcile.status == 0, "\(reconcile.standardError)")
        let prefix = #"{"customer":"# + Self.jsonString(scenario.rawValue) + #","report":"#
        #expect(reconcile.standardOutput.hasPrefix(prefix))
        #expect(reconcile.standardOutput.hasSuffix("}\n"))
        let report = reconcile.standardOutput.dropFirst(prefix.count).dropLast(2)
        #expect(report + "\n" == rebuild.standardOutput)
    }

    /// 300 customers cycling through the scenarios, with bad lines and a blank line among them.
    static func fleet() throws -> (input: String, customers: [String?]) {
        var lines: [String] = []
        var customers: [String?] = []
        for index in 0..<300 {
            let scenario = Scenario.allCases[index % Scenario.allCases.count]
            switch index {
            case 17:
                lines.append(#"{"customer": "bad-17", "history": {"transactions": [{"price": "1.99"}]}}"#)
                customers.append("bad-17")
            case 123:
                lines.append("not json")
                customers.append(nil)
            case 200:
                lines.append("")
            default:
                lines.append(try line(customer: "customer-\(index)", scenario: scenario))
                customers.append("customer-\(index)")
            }
        }
        return (lines.joined(separator: "\n") + "\n", customers)
    }

    @Test("output is in input order on every core; bad lines become error lines and the rest goes on (exit 1)")
    func orderAndErrors() throws {
        let fleet = try Self.fleet()
        for jobs in ["1", "4"] {
            let result = try Self.reconcile(["--as-of", Self.instant, "--jobs", jobs], input: fleet.input)
            #expect(result.status == 1, "a line failed")
            let objects = try Self.objects(result.standardOutput)
            #expect(objects.count == fleet.customers.count, "one line per non-blank input line, nothing dropped")
            #expect(objects.map { $0["customer"] as? String } == fleet.customers)
            let bad = try #require(objects.first { $0["customer"] as? String == "bad-17" })
            #expect(bad["line"] as? Int == 18)
            let error = try #require(bad["error"] as? [String: Any])
            #expect(error["code"] as? String == "wrong_type")
            #expect(error["path"] as? String == "history.transactions[0].price")
            let notJSON = try #require(objects.first { $0["line"] as? Int == 124 })
            #expect(notJSON["customer"] is NSNull)
            #expect((notJSON["error"] as? [String: Any])?["code"] as? String == "malformed_json")
            #expect(objects.filter { $0["report"] != nil }.count == 297)
            #expect(result.standardError.contains("2 line(s) could not be read"))
        }
    }

    @Test("--shard I/N partitions the input exactly, by FNV-1a 64-bit of the id modulo N")
    func shardsPartition() throws {
        let fleet = try Self.fleet()
        var seen: [String] = []
        var unreadable = 0
        for index in 0..<3 {
            let result = try Self.reconcile(["--as-of", Self.instant, "--shard", "\(index)/3"], input: fleet.input)
            let objects = try Self.objects(result.standardOutput)
            for object in objects {
                guard let customer = object["customer"] as? String else {
                    unreadable += 1
                    #expect(index == 0, "a line without a readable id is reported by shard 0 only")
                    continue
                }
                #expect(Self.fnv1a(customer) % 3 == UInt64(index), "\(customer) in shard \(index)")
                seen.append(customer)
            }
        }
        #expect(unreadable == 1)
        #expect(seen.sorted() == fleet.customers.compactMap { $0 }.sorted(), "every customer once, in one shard")
        #expect(Self.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Self.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
    }

    @Test("--stored adds drift to the customers that disagree and --summary writes the drift summary")
    func drift() throws {
        let premium = DemoProduct.premiumMonthly.productId.rawValue
        let stickers = DemoProduct.stickers.productId
        let input = [
            try Self.line(customer: "refunded-member", scenario: .purchaserRefundedMember),
            try Self.line(customer: "agrees", scenario: .purchaserRefundedMember),
            try Self.line(customer: "in-retry", scenario: .billingRetry),
        ].joined(separator: "\n")
        let stored = [
            #"{"customer": "refunded-member", "entitlements": {"\#(premium)": true, "\#(stickers)": true}}"#,
            #"{"customer": "agrees", "entitlements": {"\#(premium)": false, "\#(stickers)": true}}"#,
            #"{"customer": "gone", "entitlements": {"\#(premium)": true}}"#,
        ].joined(separator: "\n")
        let storedFile = try EntitlementsTool.temporaryFile(Data(stored.utf8), named: "stored.ndjson")
        let folder = storedFile.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summaryFile = folder.appendingPathComponent("summary.json")
        let result = try EntitlementsTool.run(
            ["reconcile", "--as-of", Self.instant, "--stored", storedFile.path, "--summary", summaryFile.path],
            input: Data(input.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let objects = try Self.objects(result.standardOutput)
        #expect(objects.map { $0["customer"] as? String } == ["refunded-member", "agrees", "in-retry"])
        let drift = try #require(objects[0]["drift"] as? [String: [String]])
        #expect(drift == ["missingInService": [], "missingAtApple": [premium]])
        #expect(objects[1]["drift"] == nil)
        #expect(objects[2]["drift"] == nil, "in billing retry: no access on either side")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any])
        #expect(summary["subscribers"] as? Int == 3)
        #expect(summary["missingInService"] as? [String] == [])
        #expect(summary["missingAtApple"] as? [String] == ["gone", "refunded-member"])
        #expect(summary["needsAlert"] as? Bool == true)
        let percentage = try #require(summary["driftPercentage"] as? Double)
        #expect(abs(percentage - 200.0 / 3) < 0.001)
    }

    @Test("a stored customer whose line cannot be read is counted as failed, not as missing at Apple")
    func unreadableStoredCustomer() throws {
        let premium = DemoProduct.premiumMonthly.productId.rawValue
        let input = #"{"customer": "unreadable", "history": {"transactions": [{"price": "4.99"}]}}"# + "\n"
        let stored = #"{"customer": "unreadable", "entitlements": {"\#(premium)": true}}"# + "\n"
        let storedFile = try EntitlementsTool.temporaryFile(Data(stored.utf8), named: "stored.ndjson")
        let folder = storedFile.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let summaryFile = folder.appendingPathComponent("summary.json")
        let result = try Self.reconcile(
            ["--as-of", Self.instant, "--stored", storedFile.path, "--summary", summaryFile.path], input: input)
        #expect(result.status == 1)
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any])
        #expect(summary["missingAtApple"] as? [String] == [])
        #expect(summary["failedLines"] as? Int == 1)
    }

    @Test("--summary writes into the path it is given, never replacing it: a symbolic link stays a link")
    func summaryWritesInPlace() throws {
        let input = try Self.line(customer: "one", scenario: .billingRetry) + "\n"
        let stored = try EntitlementsTool.temporaryFile(Data(), named: "stored.ndjson")
        let folder = stored.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.json")
        try Data().write(to: target)
        let link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let result = try Self.reconcile(
            ["--as-of", Self.instant, "--stored", stored.path, "--summary", link.path], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("{\"subscribers\":0,"))
    }

    /// A `--summary` that names a file the run reads, spelt as a shell in the folder of the files types it.
    struct SummaryClash: CustomTestStringConvertible, Sendable {
        var name: String
        /// The command after `entitlements`, run in a folder holding fleet.ndjson, hard.ndjson (a hard link to it),
        /// stored.ndjson, link.ndjson (a symbolic link to it), catalog.json and an empty folder sub/.
        var command: String
        var message: String
        var testDescription: String { name }

        static let options = "--as-of \(ReconcileCommandTests.instant) --stored stored.ndjson"
        static let all: [SummaryClash] = [
            SummaryClash(
                name: "the input FILE, spelt alike",
                command: "reconcile fleet.ndjson \(options) --summary fleet.ndjson",
                message: #"names the same file as the input FILE "fleet.ndjson""#),
            SummaryClash(
                name: "the input FILE as ./FILE", command: "reconcile fleet.ndjson \(options) --summary ./fleet.ndjson",
                message: #"names the same file as the input FILE "fleet.ndjson""#),
            SummaryClash(
                name: "the input FILE by its absolute path",
                command: #"reconcile fleet.ndjson \#(options) --summary "$PWD/fleet.ndjson""#,
                message: "names the same file as the input FILE"),
            SummaryClash(
                name: "a hard link to the input FILE",
                command: "reconcile fleet.ndjson \(options) --summary hard.ndjson",
                message: #"--summary "hard.ndjson" names the same file as the input FILE "fleet.ndjson""#),
            SummaryClash(
                name: "the --stored FILE through sub/..",
                command: "reconcile fleet.ndjson \(options) --summary sub/../stored.ndjson",
                message: #"names the same file as the --stored FILE "stored.ndjson""#),
            SummaryClash(
                name: "a symbolic link to the --stored FILE",
                command: "reconcile fleet.ndjson \(options) --summary link.ndjson",
                message: "names the same file as the --stored FILE"),
            SummaryClash(
                name: "the --catalog FILE",
                command: "reconcile fleet.ndjson \(options) --catalog catalog.json --summary ./catalog.json",
                message: "names the same file as the --catalog FILE"),
            SummaryClash(
                name: "standard input redirected from the file",
                command: "reconcile \(options) --summary fleet.ndjson < fleet.ndjson",
                message: "names the same file as standard input, which the input FILE is read from"),
            SummaryClash(
                name: "- redirected from a hard link to the file",
                command: "reconcile - \(options) --summary ./fleet.ndjson < hard.ndjson",
                message: "names the same file as standard input"),
        ]
    }

    /// A folder holding the files `SummaryClash.command` names; their bytes, to check that nothing was written.
    static func clashFolder() throws -> (folder: URL, files: [String: Data]) {
        let fleet = Data((try Self.line(customer: "one", scenario: .billingRetry) + "\n").utf8)
        let stored = Data(#"{"customer": "one", "entitlements": {"premium": true}}"#.utf8 + [0x0A])
        let catalog = try Data(contentsOf: FixtureFiles.url("Scenarios/billing-grace-period/catalog.json"))
        let fleetFile = try EntitlementsTool.temporaryFile(fleet, named: "fleet.ndjson")
        let folder = fleetFile.deletingLastPathComponent()
        try stored.write(to: folder.appendingPathComponent("stored.ndjson"))
        try catalog.write(to: folder.appendingPathComponent("catalog.json"))
        try FileManager.default.linkItem(at: fleetFile, to: folder.appendingPathComponent("hard.ndjson"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link.ndjson"),
            withDestinationURL: folder.appendingPathComponent("stored.ndjson"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        return (folder, ["fleet.ndjson": fleet, "stored.ndjson": stored, "catalog.json": catalog])
    }

    @Test(
        "--summary naming a file the run reads is a usage error before anything is written, the files untouched",
        arguments: SummaryClash.all)
    func summaryNamingAnInput(_ row: SummaryClash) throws {
        let (folder, files) = try Self.clashFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try EntitlementsTool.runShell(#"cd "$1" && "$0" "# + row.command, [folder.path])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(row.message), "\(result.standardError)")
        #expect(result.standardError.contains("usage: entitlements reconcile"))
        #expect(result.standardOutput.isEmpty, "nothing is written before the refusal")
        for (name, bytes) in files {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == bytes, "\(name) is untouched")
        }
    }

    @Test(
        "--summary - with standard input from a file, /dev/null for both, and a new file all run",
        arguments: [
            "reconcile - \(SummaryClash.options) --summary - < fleet.ndjson",
            "reconcile fleet.ndjson --as-of \(instant) --stored /dev/null --summary /dev/null",
            "reconcile \(SummaryClash.options) --summary summary.json < fleet.ndjson",
        ])
    func summaryNamingNoInput(_ command: String) throws {
        let (folder, files) = try Self.clashFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try EntitlementsTool.runShell(#"cd "$1" && "$0" "# + command, [folder.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix(#"{"customer":"one","report":"#))
        for (name, bytes) in files {
            #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == bytes, "\(name) is untouched")
        }
    }

    @Test("a line with a key the tool does not know, or its history with one, is an error line naming it")
    func unknownKeysInLines() throws {
        let input =
            #"{"customer": "typo", "history": {}, "histroy": {"notifications": []}}"# + "\n"
            + #"{"customer": "inner", "history": {"transactions": [], "notifcations": []}}"# + "\n"
            + #"{"customer": "fine", "history": {}}"# + "\n"
        let result = try Self.reconcile(["--as-of", Self.instant], input: input)
        #expect(result.status == 1)
        let objects = try Self.objects(result.standardOutput)
        #expect(objects.map { $0["customer"] as? String } == ["typo", "inner", "fine"])
        let typo = try #require(objects[0]["error"] as? [String: Any])
        #expect(typo["code"] as? String == "unknown_key")
        #expect(typo["path"] as? String == "histroy")
        let inner = try #require(objects[1]["error"] as? [String: Any])
        #expect(inner["code"] as? String == "unknown_key")
        #expect(inner["path"] as? String == "history.notifcations")
        #expect(objects[2]["report"] != nil)
    }

    @Test("a --stored line with a key the tool does not know stops the run, naming the line and the key")
    func unknownKeyInAStoredLine() throws {
        let stored = #"{"customer": "one", "entitlements": {}, "entitlement": {"premium": true}}"# + "\n"
        let storedFile = try EntitlementsTool.temporaryFile(Data(stored.utf8), named: "stored.ndjson")
        defer { try? FileManager.default.removeItem(at: storedFile.deletingLastPathComponent()) }
        let input = #"{"customer": "one", "history": {}}"# + "\n"
        let result = try Self.reconcile(["--as-of", Self.instant, "--stored", storedFile.path], input: input)
        #expect(result.status != 0)
        #expect(result.standardError.contains("line 1"), "\(result.standardError)")
        #expect(result.standardError.contains("unknown_key at entitlement"), "\(result.standardError)")
    }

    @Test("a --stored line naming an entitlement twice stops the run, naming the line and the entitlement")
    func duplicateEntitlementInAStoredLine() throws {
        let stored = #"{"customer": "one", "entitlements": {"premium": false, "premium": true}}"# + "\n"
        let storedFile = try EntitlementsTool.temporaryFile(Data(stored.utf8), named: "stored.ndjson")
        defer { try? FileManager.default.removeItem(at: storedFile.deletingLastPathComponent()) }
        let input = #"{"customer": "one", "history": {}}"# + "\n"
        let result = try Self.reconcile(["--as-of", Self.instant, "--stored", storedFile.path], input: input)
        #expect(result.status != 0)
        #expect(result.standardError.contains("line 1"), "\(result.standardError)")
        #expect(
            result.standardError.contains("duplicate_member at entitlements.premium"), "\(result.standardError)")
    }

    @Test("a line naming a member twice, in the line or in its history, is an error line at its path")
    func duplicateMembersInALine() throws {
        let input =
            #"{"customer": "one", "customer": "two", "history": {}}"# + "\n"
            + #"{"customer": "three", "history": {"notifications": [], "notifications": []}}"# + "\n"
            + #"{"customer": "four", "history": {}}"# + "\n"
        let result = try Self.reconcile(["--as-of", Self.instant], input: input)
        #expect(result.status == 1)
        let objects = try Self.objects(result.standardOutput)
        try #require(objects.count == 3)
        let paths = objects.prefix(2).map { ($0["error"] as? [String: Any])?["path"] as? String }
        let codes = objects.prefix(2).map { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(paths == ["customer", "history.notifications"])
        #expect(codes == ["duplicate_member", "duplicate_member"])
        #expect(objects[2]["report"] != nil)
    }

    @Test("a line longer than --max-line-bytes is an error line and the next line is read")
    func longLine() throws {
        let input =
            try Self.line(customer: "long", scenario: .billingRetry) + "\n"
            + #"{"customer": "short", "history": {}}"# + "\n"
        let result = try EntitlementsTool.run(
            ["reconcile", "--as-of", Self.instant, "--max-line-bytes", "100"], input: Data(input.utf8))
        #expect(result.status == 1)
        let objects = try Self.objects(result.standardOutput)
        #expect(objects.count == 2)
        #expect((objects[0]["error"] as? [String: Any])?["message"] as? String != nil)
        #expect(objects[0]["line"] as? Int == 1)
        #expect(objects[1]["customer"] as? String == "short")
        #expect(objects[1]["report"] != nil)
    }

    @Test("nothing on standard error when it is not a terminal and every line succeeds")
    func quietWhenNotATerminal() throws {
        let input = try Self.line(customer: "one", scenario: .billingRetry) + "\n"
        let result = try EntitlementsTool.run(["reconcile", "--as-of", Self.instant], input: Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
    }
}
