import FamilyEntitlements
import Foundation

/// `entitlements rebuild` and `entitlements explain`: run `rebuildEntitlements(history:asOf:)` on a file.
enum RebuildCommand {
    /// The options `rebuild`, `explain` and `reconcile` share: the instant, environment and catalog.
    struct Decision {
        var asOf: Date?
        var environment = Environment.production
        var catalog: ProductCatalog?

        init(_ arguments: ParsedArguments, limit: Int) throws {
            asOf = try arguments.value("--as-of", as: Instant.self)?.date
            environment = try arguments.value("--environment", as: EnvironmentArgument.self)?.environment ?? .production
            if let path = arguments.string("--catalog") {
                catalog = try ProductCatalog(jsonData: try Input.read(path, limit: limit, what: "--catalog FILE"))
            }
        }
    }

    static func run(_ arguments: ParsedArguments, explain: Bool) throws {
        let limit = try arguments.value("--max-input-bytes", as: ByteLimit.self)?.bytes ?? Input.defaultLimit
        let kindArgument = try arguments.value("--kind", as: DocumentKindArgument.self)
        let kind = kindArgument?.kind
        let rebuildFormat = explain ? nil : try arguments.value("--format", as: RebuildFormat.self)
        let explainFormat = explain ? try arguments.value("--format", as: ExplainFormat.self) : nil
        var decision = try Decision(arguments, limit: limit)
        let history: History
        var warnings: [PayloadDecodingWarning] = []
        if let path = arguments.positionals.first {
            let data = try Input.read(path, limit: limit)
            let decoded = try DocumentKind.decode { () throws(PayloadDecodingError) in
                try kindArgument?.isLedger == true
                    ? History.decodeUnverifiedLedger(data) : History.decodeUnverified(data, as: kind)
            }
            if !arguments.flags.contains("--partial"), decoded.warnings.contains(where: { $0.code == .partialHistory })
            {
                throw InputError(
                    "\(Input.displayName(path)) is one page of Get Transaction History with more to come (hasMore "
                        + "true): a decision on it misses the later pages, which may refund, revoke or renew what it "
                        + "grants. Fetch every page (paginationToken = revision) and pass their transactions together, "
                        + "or pass --partial to decide on this page alone")
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
            warnings = decoded.warnings
        } else {
            guard kindArgument == nil else { throw UsageError("--kind names the kind of FILE; give a FILE") }
            let scenario = try DemoScenario.load()
            history = scenario.history
            decision.asOf = decision.asOf ?? scenario.asOf
            if arguments.string("--catalog") == nil { decision.catalog = scenario.catalog }
            Output.error(
                "entitlements: no FILE given; running the shipped scenario \"\(DemoScenario.name)\" "
                    + "(\(DemoScenario.folder)): \(DemoScenario.summary)")
        }
        let report = rebuildEntitlements(
            history: history, asOf: decision.asOf ?? Date(), environment: decision.environment,
            catalog: decision.catalog, decodingWarnings: warnings)
        switch (rebuildFormat, explainFormat) {
        case (.json, _), (_, .json):
            try Output.print(try ReportView.contractJSON(report))
        case (_, .svg):
            try Output.print(
                TimelineSVG(
                    report: ReportView(report),
                    facts: HistoryFacts(history, asOf: report.asOf, environment: report.environment)
                ).render())
        case (_, .text):
            try Output.print(
                ReportText.explanation(
                    of: ReportView(report),
                    facts: HistoryFacts(history, asOf: report.asOf, environment: report.environment)))
        case (_, nil) where explain:
            try Output.print(
                ReportText.explanation(
                    of: ReportView(report),
                    facts: HistoryFacts(history, asOf: report.asOf, environment: report.environment)))
        default:
            try Output.print(
                ReportText.table(
                    of: ReportView(report),
                    facts: HistoryFacts(history, asOf: report.asOf, environment: report.environment)))
        }
    }
}

/// Adds to an error for a document that cannot be classified how to name its kind.
enum DocumentKind {
    /// Runs `body`, adding to a document it cannot classify how to name the kind.
    static func decode<T>(_ body: () throws(PayloadDecodingError) -> T) throws(PayloadDecodingError) -> T {
        do {
            return try body()
        } catch  where error.code == .unrecognisedDocument && error.message.contains("name the kind") {
            var error = error
            error.message += " (pass --kind NAME)"
            throw error
        }
    }
}
