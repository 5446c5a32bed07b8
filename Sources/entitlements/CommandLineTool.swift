import FamilyEntitlements
import Foundation

/// The `entitlements` command: its commands, their help, and the exit codes (0 success, 1 bad input or output that
/// cannot be written, 2 usage).
enum CommandLineTool {
    static let exitStatusHelp = """
        EXIT STATUS:
          0  success (also when the reader of a pipe closes it early, as `| head` does)
          1  bad input (a message names the file, JSON path or line) or standard output that cannot be written
          2  usage error: an unknown command or option, a missing or malformed option value
        """

    static let historyOptions: [OptionSpec] = [
        OptionSpec(
            "--as-of", "MS_OR_ISO8601",
            "The instant to decide at, from July 2008 to the year 9999: milliseconds since 1970, or an RFC 3339 "
                + "date-time YYYY-MM-DDThh:mm:ss[.fff] with Z or +hh:mm/-hh:mm, such as 2026-11-30T12:00:00Z. "
                + "Default: now; with no FILE, the demo scenario's instant."),
        OptionSpec(
            "--environment", "ENV",
            "Production (default), Sandbox, Xcode or LocalTesting, in any case: entries of another environment "
                + "grant nothing."),
        OptionSpec(
            "--catalog", "FILE",
            "A product catalog {\"bundleId\", \"products\"}; without one each product id is its own entitlement."),
    ]

    static let inputOptions: [OptionSpec] = [
        OptionSpec(
            "--kind", "NAME",
            "Read FILE as this kind of document rather than recognising it: transaction, renewalInfo, "
                + "appTransaction, notification, transactionHistory, subscriptionStatuses, notificationRequestBody, "
                + "transactionInfo, notificationHistory, renewalExtension; or ledger, a stored CustomerLedger "
                + "(a document with \"version\" is read as one without it)."),
        OptionSpec(
            "--max-input-bytes", "N",
            "Refuse a FILE, catalog or standard input of more than N bytes (default 67108864, 64 MiB)."),
    ]

    static let partialOption = OptionSpec(
        "--partial", nil,
        "FILE is knowingly part of the history: decide on a Get Transaction History page with hasMore true (refused "
            + "without this flag, since a later page may refund or revoke what it grants), reported as partial_history."
    )

    static let historyFileHelp =
        "A history {\"transactions\", \"renewalInfos\", \"notifications\", \"subscriptionStatuses\"}, a JSON "
        + "array of decoded transactions, or an App Store Server API body (JWS decoded WITHOUT verification). - "
        + "reads standard input; any path that reads as a stream works (a FIFO, <(command)). With no FILE, the "
        + "shipped demo scenario when the repository's Fixtures/ is at hand."

    static let rebuild = CommandSpec(
        name: "rebuild",
        summary: "Recompute a customer's entitlements from their history at an instant.",
        positionalUsage: "[FILE|-]", positionals: [("FILE", historyFileHelp)], maximumPositionals: 1,
        options: historyOptions + [
            OptionSpec(
                "--format", "FORMAT",
                "table (default): a table for a person; json: the report as one JSON object, the stable contract.")
        ] + inputOptions + [partialOption],
        discussion: """
            Each revoked row says when and why access ended; the customer line names the product that keeps the
            customer active when another was revoked. The "valid until" line says when the same history gives
            another decision (JSON validUntil): decide again then, or as soon as news arrives.
            """)

    static let explain = CommandSpec(
        name: "explain",
        summary: "Show the evidence for each product's decision, as text or as an SVG timeline.",
        positionalUsage: "[FILE|-]", positionals: [("FILE", historyFileHelp)], maximumPositionals: 1,
        options: historyOptions + [
            OptionSpec(
                "--format", "FORMAT",
                "text (default): the evidence product by product; json: the same report as rebuild --format json; "
                    + "svg: the customer's timeline as an SVG picture.")
        ] + inputOptions + [partialOption],
        discussion: """
            The SVG draws one lane per product (per family member's copy where the history has several): each
            period as a bar from purchase to expiry, grace period and billing retry as shading, refunds, family
            revocations, upgrades and the instant of evaluation as marked lines labelled with their transaction id
            and rule.
            """)

    static let decode = CommandSpec(
        name: "decode",
        summary: "Print the normalised values of one App Store document as JSON.",
        positionalUsage: "FILE|-",
        positionals: [
            (
                "FILE",
                "A transaction, renewal info, AppTransaction or V2 notification (decoded JSON or a compact JWS), or "
                    + "an App Store Server API body. - reads standard input."
            )
        ],
        maximumPositionals: 1, options: inputOptions,
        discussion: """
            Signatures are NOT verified: when the document holds a JWS, a note on standard error says so. A nested
            string that does not decode is reported with its path.
            """)

    static let reconcile = CommandSpec(
        name: "reconcile",
        summary: "Rebuild every customer of a fleet from newline-delimited JSON, streaming, on every core.",
        positionalUsage: "[FILE|-]",
        positionals: [
            (
                "FILE",
                "One customer per line: {\"customer\": \"<id>\", \"history\": {...}}, the history in the form rebuild "
                    + "reads. - or no FILE reads standard input."
            )
        ],
        maximumPositionals: 1,
        options: historyOptions + [
            OptionSpec(
                "--shard", "I/N",
                "Keep only the customers whose id hashes to shard I of N (FNV-1a 64-bit of the id's UTF-8 bytes, "
                    + "modulo N; I from 0 to N-1). A line with no readable id is reported by shard 0 only."),
            OptionSpec(
                "--stored", "FILE",
                "What the service stores, as NDJSON {\"customer\": \"<id>\", \"entitlements\": {\"<id>\": true}}: each "
                    + "output line whose customer disagrees gets \"drift\"."),
            OptionSpec(
                "--summary", "FILE",
                "With --stored, write the drift summary as one JSON object to FILE."),
            OptionSpec(
                "--jobs", "N",
                "Rebuild N customers at once (default: one per core)."),
            OptionSpec(
                "--max-line-bytes", "N",
                "Refuse a line of more than N bytes as an error line (default 67108864, 64 MiB)."),
        ],
        discussion: """
            Writes one line per customer, in input order: {"customer": "<id>", "report": {...}}, the report exactly
            what rebuild --format json prints. A line that cannot be read becomes {"customer": <id or null>,
            "line": <1-based line number>, "error": {"code", "path", "message"}} and the rest goes on; the exit
            status is then 1. Blank lines are skipped. Progress goes to standard error when it is a terminal.
            """)

    static let commands = [rebuild, explain, decode, reconcile]

    static let overview: String = {
        var lines = [
            "OVERVIEW: Decide App Store entitlements with Family Sharing, from a customer's history.", "",
            "USAGE: entitlements <command> [options]", "", "COMMANDS:",
        ]
        for command in commands {
            lines.append(contentsOf: CommandSpec.item(command.name, command.summary))
        }
        lines.append(contentsOf: CommandSpec.item("help", "Show help for a command: entitlements help <command>."))
        lines.append("")
        lines.append("  See 'entitlements <command> --help' for a command's arguments and options.")
        lines.append("")
        lines.append(exitStatusHelp)
        return lines.joined(separator: "\n")
    }()

    static func run(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            Output.usage(overview)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        var command: CommandSpec?
        do {
            switch name {
            case "help", "--help", "-h":
                guard let topic = rest.first else {
                    try Output.print(overview)
                    return 0
                }
                guard let spec = commands.first(where: { $0.name == topic }), rest.count == 1 else {
                    throw UsageError(unknownCommand(topic))
                }
                try Output.print(spec.help)
            case rebuild.name:
                command = rebuild
                try RebuildCommand.run(try ArgumentParser.parse(rest, for: rebuild), explain: false)
            case explain.name:
                command = explain
                try RebuildCommand.run(try ArgumentParser.parse(rest, for: explain), explain: true)
            case decode.name:
                command = decode
                try DecodeCommand.run(try ArgumentParser.parse(rest, for: decode))
            case reconcile.name:
                command = reconcile
                return try await ReconcileCommand.run(try ArgumentParser.parse(rest, for: reconcile))
            default:
                throw UsageError(unknownCommand(name))
            }
            return 0
        } catch let request as ArgumentParser.HelpRequest {
            do {
                try Output.print(request.command.help)
                return 0
            } catch {
                return report(error)
            }
        } catch let error as UsageError {
            Output.error("entitlements\(command.map { " " + $0.name } ?? ""): error: \(error.message)")
            if let command {
                Output.usage("usage: \(command.usage)\n  See 'entitlements \(command.name) --help'.")
            } else {
                Output.usage("  See 'entitlements help'.")
            }
            return 2
        } catch {
            return report(error)
        }
    }

    /// The exit status and message of an error that is not a usage error.
    static func report(_ error: any Error) -> Int32 {
        switch error {
        case let error as OutputError:
            if error.readerGone { return 0 }
            Output.error("entitlements: \(error.message)")
        case let error as PayloadDecodingError:
            Output.error("entitlements: bad input: \(error)")
        case let error as InputError:
            Output.error("entitlements: \(error.message)")
        default:
            Output.error("entitlements: \(error)")
        }
        return 1
    }

    static func unknownCommand(_ name: String) -> String {
        let names = commands.map(\.name) + ["help"]
        let suggestion = ArgumentParser.nearest(to: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
        return "unknown command \"\(TerminalText.escaped(name))\"\(suggestion) (commands: "
            + names.joined(separator: ", ") + ")"
    }
}

struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

struct InputError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
