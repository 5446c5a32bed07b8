import Foundation

/// The human-readable forms of a report; every value taken from the report or the history passes through
/// `TerminalText.escaped`.
enum ReportText {
    static func table(of report: ReportView, facts: HistoryFacts) -> String {
        var lines = [header(of: report), ""]
        let columns = [
            "PRODUCT", "STATE", "ACCESS", "OWNERSHIP", "EXPIRES / ENDED", "WILL RENEW", "CAUSE", "PERIOD", "PRICE",
        ]
        var rows = [columns]
        var notes: [String] = []
        for product in report.products {
            var expires = product.expiresDate.map(text) ?? "-"
            if product.isRevoked {
                let ended = endOfAccess(product, facts: facts)
                expires = "ended " + (ended.map(text) ?? "(date not in the history)")
                notes.append(
                    "\(product.productId): access ended "
                        + (ended.map { "at \(text($0))" } ?? "(the history gives no date)")
                        + ", \(product.cause ?? "revoked")"
                        + (product.expiresDate.map { "; the period it cut short ran to \(text($0))" } ?? ""))
            }
            let cells: [String] = [
                product.productId, product.state, product.hasAccess ? "yes" : "no", product.ownership ?? "-",
                expires, product.willRenew.map { $0 ? "yes" : "no" } ?? "-", product.cause ?? "-", product.period,
                product.price ?? "-",
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
        if !notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: notes.map(TerminalText.escaped))
        }
        lines.append("")
        lines.append(
            "entitlements: "
                + (report.entitlements.isEmpty
                    ? "none"
                    : report.entitlements.keys.sorted().map {
                        TerminalText.escaped($0) + "=\(report.entitlements[$0] == true)"
                    }
                    .joined(separator: " ")))
        lines.append(validity(of: report))
        lines.append(contentsOf: report.diagnostics.map(TerminalText.escaped))
        return lines.joined(separator: "\n")
    }

    static func explanation(of report: ReportView, facts: HistoryFacts) -> String {
        var lines = [header(of: report)]
        for product in report.products {
            lines.append("")
            lines.append(
                TerminalText.escaped(
                    "\(product.productId): \(product.state), access \(product.hasAccess ? "yes" : "no") "
                        + "(transaction \(product.transactionId))"))
            if product.isRevoked {
                let ended = endOfAccess(product, facts: facts)
                lines.append(
                    TerminalText.escaped(
                        "  access ended " + (ended.map { "at \(text($0))" } ?? "(the history gives no date)")
                            + ", \(product.cause ?? "revoked")"))
            }
            lines.append(contentsOf: product.because.map { "  - " + TerminalText.escaped($0) })
        }
        lines.append("")
        lines.append(validity(of: report))
        if !report.diagnostics.isEmpty {
            lines.append("")
            lines.append("diagnostics:")
            lines.append(contentsOf: report.diagnostics.map { "  - " + TerminalText.escaped($0) })
        }
        return lines.joined(separator: "\n")
    }

    /// When a revoked product's access ended: its transaction's revocationDate, or the REVOKE notification's
    /// signing instant where the transaction carries none (a member who left the family).
    static func endOfAccess(_ product: ReportView.Product, facts: HistoryFacts) -> Date? {
        if let revokedAt = product.revokedAt { return revokedAt }
        let revocation = facts.revocation(of: product.transactionId)
        return revocation?.date ?? revocation?.noticeDate
    }

    /// The customer line: status, reason, instant and environment, and, when a product was revoked while the
    /// customer stays active, the products that keep them active.
    /// How long the decision holds: until the report's `validUntil`, or until the history changes.
    static func validity(of report: ReportView) -> String {
        report.validUntil.map { "valid until: \(text($0)) (decide again then)" }
            ?? "valid until: none (time alone changes nothing)"
    }

    static func header(of report: ReportView) -> String {
        var lines = [
            "customer: \(report.customerStatus)" + (report.customerReason.map { " (\($0))" } ?? "")
                + "  as of \(text(report.asOf))  environment \(report.environment)"
        ]
        if let keeping = keptActiveBy(report) { lines.append(keeping) }
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }

    /// "kept active by A although B was revoked", where a product was revoked and another still grants.
    static func keptActiveBy(_ report: ReportView) -> String? {
        let revoked = report.products.filter(\.isRevoked).map(\.productId)
        let keeping = report.products.filter(\.hasAccess).map(\.productId)
        guard !revoked.isEmpty, !keeping.isEmpty else { return nil }
        return "kept active by \(keeping.joined(separator: ", ")) although \(revoked.joined(separator: ", ")) "
            + (revoked.count == 1 ? "was" : "were") + " revoked"
    }

    static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
