import FamilyEntitlements
import Foundation

/// `explain --format svg`: the customer's timeline as a hand-written SVG picture.
///
/// One lane per product, and per family member's copy (originalTransactionId) where the history has several: each
/// period a bar from purchase to expiry (paler after a revocation cut it short), grace period and billing retry as
/// shading of their own, refunds, family revocations and upgrades as marked lines labelled with the transaction id and
/// the rule that applied, and the instant of evaluation as a line across every lane. Every string from the input is
/// escaped as in the table (`TerminalText`), then for XML.
struct TimelineSVG {
    let report: ReportView
    let facts: HistoryFacts

    static let width = 1100
    static let labelWidth = 350
    static let rightMargin = 40
    static let top = 64
    static let laneHeight = 84

    struct Lane {
        var productId: String
        var originalTransactionId: String
        var ownership: String?
        var transactions: [TransactionPayload]
    }

    /// The lanes: transactions grouped by product and originalTransactionId, sorted by product, then purchased
    /// before shared copies, then id.
    var lanes: [Lane] {
        var groups: [String: Lane] = [:]
        for transaction in facts.transactions.values {
            guard let productId = transaction.productId else { continue }
            let original = transaction.originalTransactionId ?? transaction.transactionId ?? ""
            let key = productId + "\u{0}" + original
            groups[
                key,
                default: Lane(
                    productId: productId, originalTransactionId: original,
                    ownership: transaction.inAppOwnershipType?.rawValue, transactions: [])
            ].transactions.append(transaction)
        }
        return groups.values.map { lane in
            var lane = lane
            lane.transactions.sort {
                ($0.purchaseDate ?? .distantPast, $0.transactionId ?? "") < (
                    $1.purchaseDate ?? .distantPast, $1.transactionId ?? ""
                )
            }
            // The newest transaction's ownership, whichever the dictionary yielded first.
            lane.ownership = lane.transactions.last?.inAppOwnershipType?.rawValue
            return lane
        }
        .sorted {
            ($0.productId, $0.ownership == "PURCHASED" ? 0 : 1, $0.originalTransactionId)
                < ($1.productId, $1.ownership == "PURCHASED" ? 0 : 1, $1.originalTransactionId)
        }
    }

    func render() -> String {
        let lanes = self.lanes
        let range = timeRange(lanes)
        let plotLeft = Self.labelWidth
        let plotRight = Self.width - Self.rightMargin
        func x(_ date: Date) -> Int {
            let span = range.upperBound.timeIntervalSince(range.lowerBound)
            let fraction = span > 0 ? date.timeIntervalSince(range.lowerBound) / span : 0.5
            return plotLeft + Int((fraction * Double(plotRight - plotLeft)).rounded())
        }
        let productCounts = Dictionary(grouping: lanes, by: \.productId).mapValues(\.count)
        let height = Self.top + max(lanes.count, 1) * Self.laneHeight + 90
        var svg: [String] = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.width)\" height=\"\(height)\" "
                + "viewBox=\"0 0 \(Self.width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\" "
                + "font-size=\"12\">",
            "<title>\(Self.text("Timeline: customer \(report.customerStatus) as of \(Self.iso(report.asOf))"))</title>",
            "<defs><pattern id=\"retry\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                + "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f8d7d5\"/>"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#d9534f\" stroke-width=\"2\"/></pattern></defs>",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
            "<text x=\"16\" y=\"24\" font-size=\"15\" font-weight=\"bold\">"
                + Self.text(
                    "customer: \(report.customerStatus)" + (report.customerReason.map { " (\($0))" } ?? "")
                        + "  as of \(Self.iso(report.asOf))  environment \(report.environment)") + "</text>",
        ]
        if let keeping = ReportText.keptActiveBy(report) {
            svg.append("<text x=\"16\" y=\"44\" fill=\"#444444\">\(Self.text(keeping))</text>")
        }
        for (number, lane) in lanes.enumerated() {
            let laneTop = Self.top + number * Self.laneHeight
            let barTop = laneTop + 26
            svg.append(
                "<g class=\"lane\"><rect x=\"8\" y=\"\(laneTop)\" width=\"\(Self.width - 16)\" "
                    + "height=\"\(Self.laneHeight - 6)\" fill=\"\(number % 2 == 0 ? "#f6f7f9" : "#ffffff")\"/>")
            var title = lane.productId
            if productCounts[lane.productId, default: 0] > 1 {
                title += " (\(lane.ownership ?? "no ownership"))"
            }
            svg.append("<text x=\"16\" y=\"\(laneTop + 20)\" font-weight=\"bold\">\(Self.text(title))</text>")
            svg.append(
                "<text x=\"16\" y=\"\(laneTop + 36)\" fill=\"#555555\">"
                    + Self.text("original \(lane.originalTransactionId) · \(lane.ownership ?? "no ownership")")
                    + "</text>")
            if let decision = report.products.first(where: {
                $0.productId == lane.productId && $0.originalTransactionId == lane.originalTransactionId
            }) {
                let state =
                    decision.state + (decision.cause.map { ", \($0)" } ?? "")
                    + (decision.hasAccess ? ": access" : ": no access")
                svg.append(
                    "<text x=\"16\" y=\"\(laneTop + 52)\" fill=\"\(decision.hasAccess ? "#1a7f37" : "#b42318")\">"
                        + Self.text(state) + "</text>")
            }
            let colour = Self.colour(ownership: lane.ownership)
            var lastEnd: Date?
            var marks: [(date: Date, colour: String, label: String, dashed: Bool)] = []
            for transaction in lane.transactions {
                guard let purchase = transaction.purchaseDate else { continue }
                let revocation = transaction.transactionId.flatMap { facts.revocation(of: $0) }
                let end = transaction.expiresDate ?? revocation?.date ?? revocation?.noticeDate ?? range.upperBound
                let cut = (revocation?.date ?? revocation?.noticeDate).map { min($0, end) } ?? end
                let id = Self.text(transaction.transactionId ?? "")
                svg.append(
                    "<rect class=\"period\" x=\"\(x(purchase))\" y=\"\(barTop)\" "
                        + "width=\"\(max(1, x(cut) - x(purchase)))\" height=\"18\" fill=\"\(colour)\" rx=\"2\">"
                        + "<title>transaction \(id): \(Self.iso(purchase)) to \(Self.iso(end))</title></rect>")
                if cut < end {
                    svg.append(
                        "<rect class=\"cut-short\" x=\"\(x(cut))\" y=\"\(barTop)\" width=\"\(max(1, x(end) - x(cut)))\" "
                            + "height=\"18\" fill=\"\(colour)\" fill-opacity=\"0.25\" stroke=\"\(colour)\" "
                            + "stroke-dasharray=\"3 2\"><title>transaction \(id): the period the revocation cut short, "
                            + "to \(Self.iso(end))</title></rect>")
                }
                if transaction.expiresDate != nil { lastEnd = max(lastEnd ?? end, end) }
                if let revocation, let transactionId = transaction.transactionId,
                    let date = revocation.date ?? revocation.noticeDate
                {
                    marks.append(
                        (
                            date, Self.colour(revocation.kind),
                            "\(transactionId) · \(rule(for: transactionId, kind: revocation.kind))",
                            revocation.date == nil
                        ))
                }
            }
            if let renewal = facts.renewalInfos[lane.originalTransactionId], let lastEnd {
                var retryStart = lastEnd
                if let graceEnd = renewal.gracePeriodExpiresDate, graceEnd > lastEnd {
                    svg.append(
                        "<rect class=\"grace\" x=\"\(x(lastEnd))\" y=\"\(barTop)\" "
                            + "width=\"\(max(1, x(graceEnd) - x(lastEnd)))\" height=\"18\" fill=\"#f2b134\" "
                            + "fill-opacity=\"0.7\"><title>billing grace period to \(Self.iso(graceEnd))</title></rect>"
                    )
                    svg.append(
                        "<text x=\"\(x(lastEnd) + 2)\" y=\"\(barTop - 4)\" font-size=\"10\" fill=\"#8a5a00\">"
                            + "grace period</text>")
                    retryStart = graceEnd
                }
                if renewal.isInBillingRetryPeriod == true, report.asOf > retryStart {
                    svg.append(
                        "<rect class=\"billing-retry\" x=\"\(x(retryStart))\" y=\"\(barTop)\" "
                            + "width=\"\(max(1, x(report.asOf) - x(retryStart)))\" height=\"18\" fill=\"url(#retry)\">"
                            + "<title>billing retry from \(Self.iso(retryStart))</title></rect>")
                    svg.append(
                        "<text x=\"\(x(retryStart) + 2)\" y=\"\(barTop + 32)\" font-size=\"10\" fill=\"#b42318\">"
                            + "billing retry</text>")
                }
            }
            for (index, mark) in marks.sorted(by: { $0.date < $1.date }).enumerated() {
                let markX = x(mark.date)
                svg.append(
                    "<line class=\"mark\" x1=\"\(markX)\" y1=\"\(barTop - 8)\" x2=\"\(markX)\" y2=\"\(barTop + 26)\" "
                        + "stroke=\"\(mark.colour)\" stroke-width=\"2\"\(mark.dashed ? " stroke-dasharray=\"4 2\"" : "")/>"
                )
                let labelY = barTop + 38 + (index % 2) * 12
                let anchor = markX > (plotLeft + plotRight) / 2 ? "end" : "start"
                svg.append(
                    "<text x=\"\(anchor == "end" ? markX - 3 : markX + 3)\" y=\"\(labelY)\" font-size=\"10\" "
                        + "fill=\"\(mark.colour)\" text-anchor=\"\(anchor)\">\(Self.text(mark.label))</text>")
            }
            svg.append("</g>")
        }
        let lanesBottom = Self.top + max(lanes.count, 1) * Self.laneHeight
        let asOfX = x(report.asOf)
        svg.append(
            "<line class=\"as-of\" x1=\"\(asOfX)\" y1=\"\(Self.top - 6)\" x2=\"\(asOfX)\" y2=\"\(lanesBottom)\" "
                + "stroke=\"#111111\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>")
        svg.append(
            "<text x=\"\(asOfX)\" y=\"\(Self.top - 10)\" font-size=\"10\" text-anchor=\"middle\">"
                + Self.text("as of \(Self.iso(report.asOf))") + "</text>")
        let axisY = lanesBottom + 8
        svg.append(
            "<line x1=\"\(plotLeft)\" y1=\"\(axisY)\" x2=\"\(plotRight)\" y2=\"\(axisY)\" stroke=\"#888888\"/>")
        let span = range.upperBound.timeIntervalSince(range.lowerBound)
        for tick in 0...5 {
            let date = range.lowerBound.addingTimeInterval(span * Double(tick) / 5)
            let tickX = x(date)
            svg.append(
                "<line x1=\"\(tickX)\" y1=\"\(axisY)\" x2=\"\(tickX)\" y2=\"\(axisY + 5)\" stroke=\"#888888\"/>")
            let label = span < 3 * 86_400 ? Self.iso(date) : String(Self.iso(date).prefix(10))
            svg.append(
                "<text x=\"\(tickX)\" y=\"\(axisY + 18)\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555555\">"
                    + "\(label)</text>")
        }
        let legendY = axisY + 44
        let legend: [(String, String)] = [
            ("#3b6fd4", "purchased period"), ("#8a4fd1", "family-shared period"), ("#f2b134", "grace period"),
            ("url(#retry)", "billing retry"), ("#d62728", "refund"), ("#9467bd", "family revocation"),
            ("#2ca02c", "upgrade"),
        ]
        for (index, item) in legend.enumerated() {
            let itemX = 16 + index * 150
            svg.append(
                "<rect x=\"\(itemX)\" y=\"\(legendY - 10)\" width=\"12\" height=\"12\" fill=\"\(item.0)\"/>"
                    + "<text x=\"\(itemX + 16)\" y=\"\(legendY)\" font-size=\"11\">\(item.1)</text>")
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    /// The rule that decided a mark: the rule of the last reason that names the transaction, with what happened.
    func rule(for transactionId: String, kind: HistoryFacts.Revocation.Kind) -> String {
        let rules = report.products.flatMap(\.rules).filter { $0.transactionId == transactionId }
        guard let last = rules.last else { return kind.rawValue }
        return "rule \(last.rule): \(kind.rawValue)"
    }

    /// From the earliest purchase (or the instant) to the latest expiry, revocation, grace end (or the instant),
    /// with a margin on each side.
    func timeRange(_ lanes: [Lane]) -> ClosedRange<Date> {
        var dates = [report.asOf]
        for lane in lanes {
            for transaction in lane.transactions {
                dates.append(
                    contentsOf: [transaction.purchaseDate, transaction.expiresDate, transaction.revocationDate]
                        .compactMap { $0 })
            }
            if let grace = facts.renewalInfos[lane.originalTransactionId]?.gracePeriodExpiresDate {
                dates.append(grace)
            }
        }
        for date in facts.revokeNotices.values { dates.append(date) }
        let earliest = dates.min() ?? report.asOf
        let latest = dates.max() ?? report.asOf
        let margin = max(latest.timeIntervalSince(earliest) * 0.04, 3_600)
        return earliest.addingTimeInterval(-margin)...latest.addingTimeInterval(margin)
    }

    static func colour(ownership: String?) -> String {
        switch ownership {
        case "PURCHASED": "#3b6fd4"
        case "FAMILY_SHARED": "#8a4fd1"
        default: "#777777"
        }
    }

    static func colour(_ kind: HistoryFacts.Revocation.Kind) -> String {
        switch kind {
        case .refund: "#d62728"
        case .familyRevocation: "#9467bd"
        case .assignmentRevocation: "#8c564b"
        case .upgrade: "#2ca02c"
        case .revoked: "#555555"
        }
    }

    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    /// A string from the input as SVG text: escaped as in the table, then for XML. XML cannot hold U+FFFE or U+FFFF
    /// even as a reference; they are written as visible escapes too.
    static func text(_ value: String) -> String {
        var result = ""
        for scalar in TerminalText.escaped(value).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\u{FFFE}", "\u{FFFF}": result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
