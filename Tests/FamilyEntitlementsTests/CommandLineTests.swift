import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Runs the built `entitlements` executable, which sits beside the test bundle in the build folder.
struct EntitlementsTool {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// False where a signal ended the process (a trap is SIGILL); `status` is then the signal's number.
        var exitedNormally = true
    }

    static var executable: URL? {
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("entitlements")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Runs the tool with `arguments`; standard output is captured unless `standardOutput` names where it goes.
    static func run(_ arguments: [String], input: Data? = nil, standardOutput: FileHandle? = nil) throws -> Result {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        return try run(executable, arguments, input: input, standardOutput: standardOutput)
    }

    /// Runs `script` with `/bin/sh -c`, `$0` being the tool and `$1`... the arguments: for closed descriptors, FIFOs.
    static func runShell(_ script: String, _ arguments: [String] = []) throws -> Result {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        return try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, executable.path] + arguments)
    }

    private static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, standardOutput: FileHandle? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = standardOutput ?? output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { try standardInput.fileHandleForWriting.write(contentsOf: input) }
        try standardInput.fileHandleForWriting.close()
        // A pipe the child was not given stays open for writing here: reading it would wait for ever.
        let outputData = standardOutput == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            exitedNormally: process.terminationReason == .exit)
    }

    /// A file in a new temporary folder holding `data`, for options that take a path.
    static func temporaryFile(_ data: Data, named name: String = "input.json") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitlements-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}

@Suite(
    "The entitlements tool", .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct CommandLineTests {
    static let contractKeys: Set<String> = [
        "asOf", "environment", "customerStatus", "customerReason", "products", "entitlements", "diagnostics",
        "validUntil", "entitlementDecisions",
    ]
    static let productKeys: Set<String> = [
        "productId", "type", "state", "hasAccess", "ownership", "revocationCause", "causeInferred", "expiresDate",
        "willRenew", "canManage", "period", "price", "transactionId", "originalTransactionId", "because",
    ]

    @Test("rebuild --format json prints exactly one object with the contract's keys and types")
    func jsonContract() throws {
        let result = try EntitlementsTool.run(["rebuild", "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Self.contractKeys)
        #expect(object["asOf"] as? Int64 == 1_796_040_000_000)
        #expect(object["customerStatus"] as? String == "active")
        let products = try #require(object["products"] as? [[String: Any]])
        #expect(products.count == 2)
        for product in products {
            #expect(Set(product.keys) == Self.productKeys)
        }
        let revoked = try #require(products.first { $0["state"] as? String == "revoked" })
        #expect(revoked["revocationCause"] as? String == "refund")
        #expect(revoked["causeInferred"] as? Bool == true)
        #expect(revoked["canManage"] as? Bool == false)
        let price = try #require(revoked["price"] as? [String: Any])
        #expect(price["amount"] as? String == "4.99")
        #expect(price["minorUnits"] as? Int == 499)
        #expect(price["milliunits"] as? Int == 4990)
        #expect(price["currency"] as? String == "USD")
    }

    @Test("products are sorted by productId and the sticker purchase still grants")
    func sortedRows() throws {
        let result = try EntitlementsTool.run(["rebuild", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let ids = (object["products"] as? [[String: Any]] ?? []).compactMap { $0["productId"] as? String }
        #expect(ids == ids.sorted())
        #expect((object["entitlements"] as? [String: Bool]) == ["premium": false, "stickers": true])
    }

    struct ExitCase: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var input: String?
        var status: Int32
        var standardError: String
        var testDescription: String { name }
    }

    static let exitCases: [ExitCase] = [
        ExitCase(name: "no command: usage error 2", arguments: [], status: 2, standardError: "USAGE:"),
        ExitCase(
            name: "unknown command: usage error 2", arguments: ["grant"], status: 2,
            standardError: "unknown command"),
        ExitCase(
            name: "bad --format: usage error 2", arguments: ["rebuild", "--format", "xml"], status: 2,
            standardError: "--format takes table or json"),
        ExitCase(
            name: "bad --as-of: usage error 2", arguments: ["rebuild", "--as-of", "yesterday"], status: 2,
            standardError: "--as-of"),
        ExitCase(
            name: "bad --environment: usage error 2", arguments: ["rebuild", "--environment", "Staging"], status: 2,
            standardError: "--environment"),
        ExitCase(
            name: "wrong type in a history: bad input 1 naming transactions[1].price",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"],
            input: #"{"transactions": [{}, {"price": "1.99"}]}"#, status: 1, standardError: "transactions[1].price"),
        ExitCase(
            name: "not JSON: bad input 1", arguments: ["rebuild", "-"], input: "{", status: 1,
            standardError: "malformed_json"),
        ExitCase(
            name: "a history whose REVOKE sits under a misspelt key: bad input 1 naming the key, never a grant",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"],
            input: #"{"transactions": [], "notifcations": [{"notificationType": "REVOKE"}]}"#, status: 1,
            standardError: "unknown_key at notifcations"),
        ExitCase(
            name: "a ledger of a later version: bad input 1, unsupported_version, whatever keys it added",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"],
            input: #"{"version": 99, "transactions": [], "revocations": []}"#, status: 1,
            standardError: "unsupported_version"),
        ExitCase(
            name: "a ledger naming version twice (1, then 99): bad input 1, duplicate_member, never version 1",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"], input: #"{"version": 1, "version": 99}"#,
            status: 1, standardError: "duplicate_member at version"),
        ExitCase(
            name: "a history naming notifications twice: bad input 1, a REVOKE under the second never dropped",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"],
            input: #"{"notifications": [], "notifications": [{"notificationType": "REVOKE"}]}"#, status: 1,
            standardError: "duplicate_member at notifications"),
        ExitCase(
            name: "a transaction in a history naming a member twice: bad input 1 at its path",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"],
            input: #"{"transactions": [{"transactionId": "1", "revocationDate": 1, "revocationDate": null}]}"#,
            status: 1, standardError: "duplicate_member at transactions[0].revocationDate"),
        ExitCase(
            name: "--kind transactionHistory of a document without signedTransactions: bad input 1, never new",
            arguments: ["rebuild", "-", "--kind", "transactionHistory", "--as-of", "1770000000000"],
            input: #"{"bundleId": "b", "hasMore": false}"#, status: 1,
            standardError: "missing_value at signedTransactions"),
        ExitCase(
            name: "--kind subscriptionStatuses of a document without data: bad input 1, never new",
            arguments: ["rebuild", "-", "--kind", "subscriptionStatuses", "--as-of", "1770000000000"],
            input: #"{"bundleId": "b"}"#, status: 1, standardError: "missing_value at data"),
        ExitCase(
            name: "--kind notificationHistory of a document without hasMore: bad input 1",
            arguments: ["explain", "-", "--kind", "notificationHistory", "--as-of", "1770000000000"],
            input: #"{"notificationHistory": []}"#, status: 1, standardError: "missing_value at hasMore"),
        ExitCase(
            name: "decode --kind transactionInfo of an empty object: bad input 1",
            arguments: ["decode", "-", "--kind", "transactionInfo"], input: "{}", status: 1,
            standardError: "missing_value at signedTransactionInfo"),
        ExitCase(
            name: "a ledger whose version is not a number: bad input 1", arguments: ["explain", "-"],
            input: #"{"version": "x", "transactions": []}"#, status: 1, standardError: "wrong_type at version"),
        ExitCase(
            name: "a version 1 ledger holding statuses: bad input 1, unknown_key",
            arguments: ["rebuild", "-", "--as-of", "1770000000000"],
            input: #"{"version": 1, "subscriptionStatuses": []}"#, status: 1,
            standardError: "unknown_key at subscriptionStatuses"),
        ExitCase(
            name: "--kind ledger of a document without version: bad input 1, the version missing",
            arguments: ["rebuild", "-", "--kind", "ledger", "--as-of", "1770000000000"],
            input: #"{"transactions": []}"#, status: 1, standardError: "version"),
        ExitCase(
            name: "decode --kind ledger: usage error 2, decode prints App Store documents",
            arguments: ["decode", "-", "--kind", "ledger"], input: "{}", status: 2, standardError: "ledger"),
        ExitCase(
            name: "decode of a truncated JWS: bad input 1", arguments: ["decode", "-"],
            input: "eyJhbGciOiJFUzI1NiJ9.e30",
            status: 1, standardError: "malformed_jws"),
        ExitCase(
            name: "decode of an unreadable file: bad input 1", arguments: ["decode", "/nonexistent/file.json"],
            status: 1, standardError: "does not exist"),
        ExitCase(
            name: "decode of a compact JWS: success, says signatures were not verified", arguments: ["decode", "-"],
            input: "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSIsInByb2R1Y3RJZCI6InAifQ.c2ln", status: 0,
            standardError: "NOT verified"),
    ]

    /// A stored ledger is read as one, by its `version` or by `--kind ledger`; a notification's own `version` does not
    /// make it one.
    @Test("a ledger is read as a ledger, named or recognised")
    func ledgerInput() throws {
        let ledger = Data(#"{"version": 1, "transactions": []}"#.utf8)
        for kind in [[], ["--kind", "ledger"]] {
            let result = try EntitlementsTool.run(
                ["rebuild", "-", "--as-of", "1770000000000", "--format", "json"] + kind, input: ledger)
            #expect(result.status == 0, "\(kind): \(result.standardError)")
            #expect(result.standardOutput.contains(#""customerStatus":"new""#), "\(kind): \(result.standardOutput)")
        }
        let notification = Data(#"{"notificationType": "TEST", "version": "2.0", "signedDate": 1770000000000}"#.utf8)
        let result = try EntitlementsTool.run(["rebuild", "-", "--as-of", "1770000000000"], input: notification)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test(arguments: exitCases)
    func exitStatus(_ row: ExitCase) throws {
        let result = try EntitlementsTool.run(row.arguments, input: row.input.map { Data($0.utf8) })
        #expect(result.status == row.status)
        #expect(result.standardError.contains(row.standardError), "stderr: \(result.standardError)")
    }

    /// One way the tool reads an input: from standard input, or from a file named on the command line.
    struct InputCommand: CustomTestStringConvertible, Sendable {
        var name: String
        /// The arguments, given the path of a file holding the input.
        var arguments: @Sendable (String) -> [String]
        var readsStandardInput = false
        var testDescription: String { name }

        static let all: [InputCommand] = [
            InputCommand(name: "decode -", arguments: { _ in ["decode", "-"] }, readsStandardInput: true),
            InputCommand(name: "decode FILE", arguments: { ["decode", $0] }),
            InputCommand(name: "rebuild -", arguments: { _ in ["rebuild", "-"] }, readsStandardInput: true),
            InputCommand(name: "rebuild FILE --format json", arguments: { ["rebuild", $0, "--format", "json"] }),
            InputCommand(name: "explain FILE", arguments: { ["explain", $0] }),
            InputCommand(name: "rebuild --catalog FILE", arguments: { ["rebuild", "--catalog", $0] }),
        ]
    }

    @Test(
        "511 to 515 nested arrays and objects, open and closed: exit 0 or 1, never a trap",
        arguments: InputCommand.all)
    func nestedInputs(_ command: InputCommand) throws {
        for input in NestedInput.all {
            let file = try EntitlementsTool.temporaryFile(input.bytes)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            let result = try EntitlementsTool.run(
                command.arguments(file.path), input: command.readsStandardInput ? input.bytes : nil)
            #expect(result.exitedNormally, "\(input): killed by signal \(result.status)")
            #expect(result.status == 0 || result.status == 1, "\(input): exit \(result.status)")
            if input.mustFail {
                #expect(result.status == 1, "\(input): exit \(result.status)")
                #expect(result.standardError.contains("malformed_json"), "\(input): \(result.standardError)")
            }
        }
    }

    @Test("unsigned contents beside a signed string: rebuild and decode ignore them and warn on stderr")
    func unsignedContentsAreReported() throws {
        let body = try #require(UnsignedContentsCase.all.first { $0.form == .requestBody }).document()
        let rebuild = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", "1770681600000", "--format", "json"], input: body)
        #expect(rebuild.status == 0)
        #expect(
            rebuild.standardError.contains("warning: unsigned_contents_ignored at signedPayload.data.transactionInfo"),
            "\(rebuild.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(rebuild.standardOutput.utf8)) as? [String: Any])
        let products = try #require(object["products"] as? [[String: Any]])
        #expect(products.map { $0["productId"] as? String } == [DemoProduct.premiumMonthly.productId.rawValue])
        #expect(products.allSatisfy { $0["hasAccess"] as? Bool == false })
        let decode = try EntitlementsTool.run(["decode", "-"], input: body)
        #expect(decode.status == 0)
        #expect(decode.standardError.contains("unsigned_contents_ignored at signedPayload.data.transactionInfo"))
        #expect(decode.standardOutput.contains(DemoProduct.premiumMonthly.productId.rawValue))
        #expect(!decode.standardOutput.contains(UnsignedSample.lifetimeProduct.productId.rawValue))
    }

    @Test("explain prints the evidence of each product")
    func explain() throws {
        let result = try EntitlementsTool.run(["explain"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("rule 7"))
        #expect(result.standardOutput.contains("cause inferred as refund"))
    }
}
