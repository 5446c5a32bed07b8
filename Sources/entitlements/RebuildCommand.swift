import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation

/// `entitlements rebuild` and `entitlements explain`: run `rebuildEntitlements(history:asOf:)` on a file.
enum RebuildCommand {
    struct Options {
        var path: String?
        var asOf: Date?
        var environment = Environment.production
        var catalogPath: String?
        var format = "table"
        var maxInputBytes = Input.defaultLimit
        var kind: AppStoreDocument.Kind?
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--as-of":
                let value = try value(for: argument, from: &remaining)
                guard let date = parseInstant(value) else {
                    throw UsageError("--as-of takes milliseconds since 1970 or an ISO 8601 date, not \"\(value)\"")
                }
                options.asOf = date
            case "--environment":
                let value = try value(for: argument, from: &remaining)
                let environment = Environment(rawValue: value)
                guard environment.isKnown else {
                    throw UsageError("--environment takes Production, Sandbox, Xcode or LocalTesting, not \"\(value)\"")
                }
                options.environment = environment
            case "--kind":
                options.kind = try DocumentKind.parse(try value(for: argument, from: &remaining))
            case "--catalog":
                options.catalogPath = try value(for: argument, from: &remaining)
            case "--max-input-bytes":
                options.maxInputBytes = try Input.parseLimit(try value(for: argument, from: &remaining))
            case "--format":
                let value = try value(for: argument, from: &remaining)
                guard value == "table" || value == "json" else {
                    throw UsageError("--format takes table or json, not \"\(value)\"")
                }
                options.format = value
            default:
                guard options.path == nil, argument == "-" || !argument.hasPrefix("-") else {
                    throw UsageError("unexpected argument \"\(argument)\"")
                }
                options.path = argument
            }
        }
        return options
    }

    static func run(_ arguments: [String], explain: Bool) throws {
        let options = try parse(arguments)
        let history: History
        var asOf = options.asOf
        var catalog: ProductCatalog?
        if let path = options.path {
            let data = try Input.read(path, limit: options.maxInputBytes)
            let decoded = try DocumentKind.decode { () throws(PayloadDecodingError) in
                try History.decodeUnverified(data, as: options.kind)
            }
            if decoded.unverifiedJWSCount > 0 {
                Output.error(
                    "entitlements: note: \(decoded.unverifiedJWSCount) JWS signature(s) were NOT verified; the "
                        + "decision is only as good as the input")
            }
            for warning in decoded.warnings {
                Output.error("entitlements: warning: \(warning)")
            }
            history = decoded.history
        } else {
            let scenario = Scenario.purchaserRefundedMember
            history = try scenario.history()
            let scenarioInstant = try scenario.expectedReport().asOf
            asOf = asOf ?? scenarioInstant
            catalog = try scenario.catalog()
            Output.error(
                "entitlements: no FILE given; running the shipped scenario \"\(scenario.rawValue)\": "
                    + scenario.summary)
        }
        guard options.kind == nil || options.path != nil else {
            throw UsageError("--kind names the kind of FILE; give a FILE")
        }
        if let catalogPath = options.catalogPath {
            catalog = try ProductCatalog(jsonData: try Input.read(catalogPath, limit: options.maxInputBytes))
        }
        let report = rebuildEntitlements(
            history: history, asOf: asOf ?? Date(), environment: options.environment, catalog: catalog)
        if options.format == "json" {
            try Output.print(TerminalText.escapedJSON(String(decoding: try report.contractJSON(), as: UTF8.self)))
        } else if explain {
            try Output.print(ReportText.explanation(of: report))
        } else {
            try Output.print(ReportText.table(of: report))
        }
    }

    private static func value(for option: String, from remaining: inout ArraySlice<String>) throws -> String {
        guard let value = remaining.popFirst() else { throw UsageError("\(option) needs a value") }
        return value
    }

    /// Milliseconds since 1970, or an ISO 8601 date-time such as 2026-11-30T12:00:00Z.
    static func parseInstant(_ text: String) -> Date? {
        if let milliseconds = Int64(text) {
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// The human-readable forms of a report; every value taken from the report passes through `TerminalText.escaped`.
enum ReportText {
    static func table(of report: EntitlementReport) -> String {
        var lines = [header(of: report), ""]
        let columns = ["PRODUCT", "STATE", "ACCESS", "OWNERSHIP", "EXPIRES", "WILL RENEW", "CAUSE", "PERIOD", "PRICE"]
        var rows = [columns]
        for product in report.products {
            let cells: [String] = [
                product.productId.rawValue, product.state.rawValue, product.hasAccess ? "yes" : "no",
                product.ownership?.rawValue ?? "-", product.expiresDate.map(text) ?? "-",
                product.willRenew.map { $0 ? "yes" : "no" } ?? "-",
                product.revocationCause.map { $0.rawValue + (product.causeInferred ? " (inferred)" : "") } ?? "-",
                product.period.rawValue,
                product.price.map { "\(((try? $0.formattedAmount()) ?? "\($0.milliunits)/1000")) \($0.currency)" }
                    ?? "-",
            ]
            rows.append(cells.map(TerminalText.escaped))
        }
        let widths = columns.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(
                row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        if report.products.isEmpty { lines.append("(no products)") }
        lines.append("")
        lines.append(
            "entitlements: "
                + (report.entitlements.isEmpty
                    ? "none"
                    : report.entitlements.keys.sorted().map {
                        TerminalText.escaped($0.rawValue) + "=\(report.entitlements[$0] == true)"
                    }
                    .joined(separator: " ")))
        lines.append(
            contentsOf: report.diagnostics.map {
                TerminalText.escaped("\($0.severity.rawValue): \($0.code): \($0.message)")
            })
        return lines.joined(separator: "\n")
    }

    static func explanation(of report: EntitlementReport) -> String {
        var lines = [header(of: report)]
        for product in report.products {
            lines.append("")
            lines.append(
                TerminalText.escaped(
                    "\(product.productId): \(product.state.rawValue), access \(product.hasAccess ? "yes" : "no") "
                        + "(transaction \(product.transactionId))"))
            lines.append(contentsOf: product.because.map { "  - " + TerminalText.escaped($0) })
        }
        if !report.diagnostics.isEmpty {
            lines.append("")
            lines.append("diagnostics:")
            lines.append(
                contentsOf: report.diagnostics.map {
                    "  - " + TerminalText.escaped("\($0.severity.rawValue) \($0.code): \($0.message)")
                })
        }
        return lines.joined(separator: "\n")
    }

    private static func header(of report: EntitlementReport) -> String {
        TerminalText.escaped(
            "customer: \(report.customerStatus.rawValue)"
                + (report.customerReason.map { " (\($0.rawValue))" } ?? "")
                + "  as of \(text(report.asOf))  environment \(report.environment.rawValue)")
    }

    private static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
