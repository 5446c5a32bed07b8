import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool as a new user meets it: help on every command, each misuse with its own message and exit code, the JWS
/// notice only for JWS, and a table that says when and why revoked access ended.
@Suite(
    "The entitlements tool's usage",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct CommandLineUsageTests {
    static let commands: [(name: String, options: [String])] = [
        ("rebuild", ["--as-of", "--environment", "--catalog", "--format", "--kind", "--max-input-bytes"]),
        ("explain", ["--as-of", "--environment", "--catalog", "--format", "--kind", "--max-input-bytes"]),
        ("decode", ["--kind", "--max-input-bytes"]),
        (
            "reconcile",
            ["--as-of", "--environment", "--catalog", "--shard", "--stored", "--summary", "--jobs", "--max-line-bytes"]
        ),
    ]

    @Test("COMMAND --help, COMMAND -h and help COMMAND print the options and exit codes, exit 0")
    func helpForEveryCommand() throws {
        for command in Self.commands {
            for arguments in [[command.name, "--help"], [command.name, "-h"], ["help", command.name]] {
                let result = try EntitlementsTool.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                #expect(result.standardOutput.contains("USAGE: entitlements \(command.name)"), "\(arguments)")
                for option in command.options + ["--help"] {
                    #expect(result.standardOutput.contains(option), "\(arguments) lists \(option)")
                }
                #expect(result.standardOutput.contains("EXIT STATUS"), "\(arguments)")
                for code in ["0  success", "1  bad input", "2  usage error"] {
                    #expect(result.standardOutput.contains(code), "\(arguments) explains \(code)")
                }
            }
        }
        for arguments in [["help"], ["--help"], ["-h"]] {
            let result = try EntitlementsTool.run(arguments)
            #expect(result.status == 0)
            for command in Self.commands {
                #expect(result.standardOutput.contains("  \(command.name) "), "\(arguments) lists \(command.name)")
            }
        }
    }

    struct Misuse: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let misuses: [Misuse] = [
        Misuse(
            name: "--as-of in seconds", arguments: ["rebuild", "--as-of", "1762776000"], status: 2,
            message: "looks like seconds: pass 1762776000000"),
        Misuse(
            name: "--as-of a date without time or zone", arguments: ["rebuild", "--as-of", "2026-11-30"], status: 2,
            message: "is a date without a time or zone"),
        Misuse(
            name: "--as-of a date-time without zone", arguments: ["rebuild", "--as-of", "2026-11-30T12:00:00"],
            status: 2, message: "has no time zone"),
        Misuse(
            name: "--as-of words", arguments: ["rebuild", "--as-of", "yesterday"], status: 2,
            message: "RFC 3339 date-time with a zone"),
        Misuse(
            name: "--as-of in microseconds", arguments: ["rebuild", "--as-of", "1762776000000000000"], status: 2,
            message: "after the year 9999"),
        Misuse(
            name: "--environment unknown", arguments: ["rebuild", "--environment", "Staging"], status: 2,
            message: "--environment takes Production, Sandbox, Xcode or LocalTesting"),
        Misuse(
            name: "unknown option suggests the nearest", arguments: ["rebuild", "--formt", "json"], status: 2,
            message: "did you mean \"--format\"?"),
        Misuse(
            name: "unknown command suggests the nearest", arguments: ["rebiuld"], status: 2,
            message: "did you mean \"rebuild\"?"),
        Misuse(
            name: "rebuild --format is an enumeration", arguments: ["rebuild", "--format", "svg"], status: 2,
            message: "--format takes table or json"),
        Misuse(
            name: "explain --format is an enumeration", arguments: ["explain", "--format", "png"], status: 2,
            message: "--format takes text, json or svg"),
        Misuse(
            name: "an option given twice", arguments: ["rebuild", "--format", "json", "--format", "table"], status: 2,
            message: "--format is given more than once"),
        Misuse(
            name: "an option without its value", arguments: ["rebuild", "--as-of"], status: 2,
            message: "--as-of needs a value"),
        Misuse(
            name: "two FILEs", arguments: ["rebuild", "a.json", "b.json"], status: 2,
            message: "unexpected argument \"b.json\""),
        Misuse(name: "decode without FILE", arguments: ["decode"], status: 2, message: "decode takes one FILE"),
        Misuse(name: "--shard out of range", arguments: ["reconcile", "--shard", "4/4"], status: 2, message: "I/N"),
        Misuse(name: "--shard not I/N", arguments: ["reconcile", "--shard", "two"], status: 2, message: "I/N"),
        Misuse(
            name: "--summary without --stored", arguments: ["reconcile", "--summary", "out.json"], status: 2,
            message: "give --stored FILE as well"),
        Misuse(name: "--jobs 0", arguments: ["reconcile", "--jobs", "0"], status: 2, message: "--jobs takes"),
        Misuse(
            name: "a missing file", arguments: ["rebuild", "/nonexistent/history.json"], status: 1,
            message: "\"/nonexistent/history.json\" does not exist"),
        Misuse(name: "a directory", arguments: ["rebuild", "/"], status: 1, message: "\"/\" is a directory"),
        Misuse(
            name: "a directory as catalog", arguments: ["rebuild", "--catalog", "/"], status: 1,
            message: "\"/\" is a directory; --catalog FILE is the path of a file"),
        Misuse(
            name: "a directory to decode", arguments: ["decode", "/"], status: 1, message: "\"/\" is a directory"),
        Misuse(
            name: "a directory to reconcile", arguments: ["reconcile", "/"], status: 1, message: "\"/\" is a directory"),
    ]

    @Test(arguments: misuses)
    func misuse(_ row: Misuse) throws {
        let result = try EntitlementsTool.run(row.arguments)
        #expect(result.exitedNormally)
        #expect(result.status == row.status, "\(result.standardError)")
        #expect(result.standardError.contains(row.message), "\(result.standardError)")
        #expect(!result.standardError.contains("NSCocoaErrorDomain"))
        let lines = result.standardError.split(separator: "\n")
        if row.status == 2 {
            #expect(lines.contains { $0.hasPrefix("usage: entitlements") || $0.contains("See 'entitlements") })
        } else {
            #expect(lines.count == 1, "one line: \(result.standardError)")
        }
    }

    @Test("--as-of takes milliseconds, Z and offsets, with or without fractions, all meaning the same instant")
    func instants() throws {
        let forms = [
            "1796040000000", "2026-11-30T12:00:00Z", "2026-11-30T13:00:00+01:00", "2026-11-30T12:00:00.000Z",
        ]
        for form in forms {
            let result = try EntitlementsTool.run(["rebuild", "--as-of", form, "--format", "json"])
            #expect(result.status == 0, "\(form): \(result.standardError)")
            #expect(result.standardOutput.contains("\"asOf\":1796040000000"), "\(form)")
        }
    }

    @Test("--environment takes Apple's names in any case")
    func environmentInAnyCase() throws {
        for (form, name) in [("production", "Production"), ("SANDBOX", "Sandbox"), ("localtesting", "LocalTesting")] {
            let result = try EntitlementsTool.run(["rebuild", "--environment", form, "--format", "json"])
            #expect(result.status == 0, "\(form): \(result.standardError)")
            #expect(result.standardOutput.contains("\"environment\":\"\(name)\""), "\(form)")
        }
    }

    @Test("an empty file, or one of white space only, gets a message of its own: exit 1")
    func emptyFile() throws {
        for content in ["", " \n\t\n"] {
            let file = try EntitlementsTool.temporaryFile(Data(content.utf8))
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            for command in ["rebuild", "decode"] {
                let result = try EntitlementsTool.run([command, file.path])
                #expect(result.status == 1)
                #expect(result.standardError.contains("is empty"), "\(result.standardError)")
                #expect(result.standardError.split(separator: "\n").count == 1)
            }
        }
    }

    @Test(
        "a file that cannot be read gets a message of its own: exit 1",
        .enabled(if: getuid() != 0, "root reads every file"))
    func unreadableFile() throws {
        let file = try EntitlementsTool.temporaryFile(Data("{}".utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: file.path)
        let result = try EntitlementsTool.run(["rebuild", file.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot be read: permission denied"), "\(result.standardError)")
    }

    @Test("the signatures notice appears for a JWS and only for a JWS")
    func signatureNotice() throws {
        let unsigned = try FixtureFiles.url("Notifications/REFUND.PURCHASED.json")
        let decodeUnsigned = try EntitlementsTool.run(["decode", unsigned.path])
        #expect(decodeUnsigned.status == 0)
        #expect(!decodeUnsigned.standardError.contains("NOT verified"), "\(decodeUnsigned.standardError)")
        let history = try Scenario.purchaserRefundedMember.historyData()
        let rebuildUnsigned = try EntitlementsTool.run(["rebuild", "-", "--as-of", "1796040000000"], input: history)
        #expect(rebuildUnsigned.status == 0)
        #expect(!rebuildUnsigned.standardError.contains("NOT verified"))
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSIsInByb2R1Y3RJZCI6InAifQ.c2ln"
        let decodeSigned = try EntitlementsTool.run(["decode", "-"], input: Data(jws.utf8))
        #expect(decodeSigned.status == 0)
        #expect(decodeSigned.standardError.contains("JWS signatures were NOT verified"))
    }

    @Test("the table says when and why a revoked product's access ended, and what keeps the customer active")
    func revokedRows() throws {
        let result = try EntitlementsTool.run(["rebuild"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let premium = DemoProduct.premiumMonthly.productId.rawValue
        let stickers = DemoProduct.stickers.productId
        let row = try #require(lines.first { $0.hasPrefix(premium) && $0.contains("revoked") })
        #expect(row.contains("ended 2026-11-10T09:29:00Z"), "\(row)")
        #expect(row.contains("refund (inferred)"))
        #expect(!row.contains("2026-11-30T21:10:00Z"), "the expiry is not shown as if access ran to it")
        #expect(lines.contains("kept active by \(stickers) although \(premium) was revoked"))
        #expect(
            lines.contains {
                $0.hasPrefix("\(premium): access ended at 2026-11-10T09:29:00Z, refund (inferred)")
            })
    }

    @Test("a REVOKE without revocationDate: the table dates the end of access by the notification")
    func revokeWithoutDate() throws {
        let history = try Scenario.oneMemberLeavesLeaver.historyData()
        let instant = try Scenario.oneMemberLeavesLeaver.expectedReport().asOf
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", "\(Int64(instant.timeIntervalSince1970 * 1000))"], input: history)
        #expect(result.status == 0)
        let row = try #require(result.standardOutput.split(separator: "\n").first { $0.contains(" revoked ") })
        #expect(row.contains("ended 20"), "\(row)")
        #expect(row.contains("familyRevocation"), "\(row)")
    }
}
