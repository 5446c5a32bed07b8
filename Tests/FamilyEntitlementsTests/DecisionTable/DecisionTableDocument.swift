import FamilyEntitlements
import Foundation

/// Renders docs/decision-table.md from the rows and the library's `DecisionRule` titles and statements, so that the
/// document cannot drift from the tests or the code.
enum DecisionTableDocument {
    static func render(_ rows: [DecisionRow]) -> String {
        var lines = [
            "# The decision table",
            "",
            "How `rebuildEntitlements(history:asOf:environment:catalog:)` decides, rule by rule. Each row below is a",
            "test in `Tests/FamilyEntitlementsTests/DecisionTable/`; this page is generated from those rows",
            "(`REGENERATE_DECISION_TABLE=1 swift test --filter DecisionTable`) and a test fails when it drifts.",
            "",
            "Days count from 2026-01-01T00:00:00Z (`d30` is 2026-01-31). Transactions are written",
            "`tx ID product OWNERSHIP dFROM-dTO`, signed at their purchase unless `signed dN` says otherwise;",
            "renewal infos `ri ORIGINAL signed dN`; notifications `TYPE SUBTYPE dN (tx ID)`. Products drop the",
            "`org.familyentitlements.demo.` prefix. Sources cite `../shared/apple-facts.md` sections. Apple's status",
            "from Get All Subscription Statuses is written `status S of ORIGINAL signed dN`.",
        ]
        let decided = DecidedIn.record(rows).rules
        for rule in DecisionRule.allCases {
            lines += ["", "## Rule \(rule.rawValue): \(rule.title)", "", rule.statement, ""]
            lines += DecidedIn.lines(for: rule, in: decided) + [""]
            lines.append("| row | history | at | expected | source |")
            lines.append("| --- | --- | --- | --- | --- |")
            for row in rows where row.rule == rule {
                lines.append(
                    "| \(escape(row.name)) | \(escape(describe(row.history, environment: row.environment, row.decodingWarnings))) | "
                        + "d\(format(row.asOf))\(row.environment == .production ? "" : " \(row.environment)") | "
                        + "\(escape(expected(row))) | \(escape(row.source)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func expected(_ row: DecisionRow) -> String {
        var parts = row.products.map(\.summary)
        if row.products.isEmpty { parts.append("no product rows") }
        if case .equals(let status) = row.customer {
            var text = "customer \(status.rawValue)"
            if case .equals(let reason?) = row.customerReason { text += " (\(reason.rawValue))" }
            parts.append(text)
        }
        if !row.diagnostics.isEmpty {
            parts.append("diagnostics " + row.diagnostics.map(\.rawValue).sorted().joined(separator: ", "))
        }
        if let entitlements = row.entitlements {
            parts.append(
                "entitlements "
                    + entitlements.keys.sorted().map { "\($0)=\(entitlements[$0] == true)" }
                    .joined(separator: " "))
        }
        for (id, decision) in (row.entitlementDecisions ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts.append("entitlement \(id): \(decision.summary(dates: { day($0) }))")
        }
        return parts.joined(separator: "; ")
    }

    static func describe(
        _ history: History, environment: Environment, _ warnings: [PayloadDecodingWarning] = []
    ) -> String {
        var parts = history.transactions.map { describe($0, environment: environment) }
        parts += history.renewalInfos.map { describe($0, environment: environment) }
        for notification in history.notifications {
            var text = [notification.notificationType?.rawValue ?? "(no type)", notification.subtype?.rawValue]
                .compactMap { $0 }.joined(separator: " ")
            text += " \(day(notification.signedDate))"
            if let env = notification.data?.environment, env != environment { text += " \(env)" }
            var inner: [String] = []
            if let transaction = notification.data?.transactionInfo {
                inner.append(describe(transaction, environment: environment))
            }
            if let renewal = notification.data?.renewalInfo {
                inner.append(describe(renewal, environment: environment))
            }
            if !inner.isEmpty { text += " (" + inner.joined(separator: "; ") + ")" }
            parts.append(text)
        }
        for snapshot in history.subscriptionStatuses {
            var text =
                "status \(snapshot.status.map { String($0.rawValue) } ?? "none") of "
                + "\(snapshot.originalTransactionId ?? "?") signed \(day(snapshot.signedDate))"
            if snapshot.environment != environment { text += " \(snapshot.environment?.rawValue ?? "no environment")" }
            parts.append(text)
        }
        parts += warnings.map { "unread: \($0.code.rawValue) at \($0.path)" }
        return parts.isEmpty ? "empty" : parts.joined(separator: "; ")
    }

    private static func describe(_ transaction: TransactionPayload, environment: Environment) -> String {
        var text = "tx \(transaction.transactionId ?? "?")"
        if let original = transaction.originalTransactionId, original != transaction.transactionId {
            text += "<\(original)"
        }
        text += " " + (transaction.productId ?? "?").replacingOccurrences(of: "org.familyentitlements.demo.", with: "")
        if transaction.type != .autoRenewable { text += " [\(transaction.type?.rawValue ?? "no type")]" }
        text += " \(transaction.inAppOwnershipType?.rawValue ?? "no-ownership")"
        text += " \(day(transaction.purchaseDate))"
        if let expires = transaction.expiresDate { text += "-\(day(expires))" }
        if transaction.signedDate != transaction.purchaseDate { text += " signed \(day(transaction.signedDate))" }
        if let revoked = transaction.revocationDate { text += " revoked \(day(revoked))" }
        if let type = transaction.revocationType { text += " \(type.rawValue)" }
        if let reason = transaction.revocationReason { text += " reason \(reason.rawValue)" }
        if transaction.isUpgraded == true { text += " isUpgraded" }
        if let offer = transaction.offerType { text += " offerType \(offer.rawValue)" }
        if let discount = transaction.offerDiscountType { text += " \(discount.rawValue)" }
        if transaction.offerType != nil { text += transaction.price.map { " price \($0)" } ?? " no price" }
        if transaction.environment != environment {
            text += " \(transaction.environment?.rawValue ?? "no environment")"
        }
        return text
    }

    private static func describe(_ renewal: RenewalInfoPayload, environment: Environment) -> String {
        var text = "ri \(renewal.originalTransactionId ?? "?") signed \(day(renewal.signedDate))"
        if let status = renewal.autoRenewStatus { text += " autoRenew \(status.rawValue)" }
        if let next = renewal.autoRenewProductId, next != renewal.productId {
            text += " next " + next.replacingOccurrences(of: "org.familyentitlements.demo.", with: "")
        }
        if renewal.isInBillingRetryPeriod == true { text += " billingRetry" }
        if let grace = renewal.gracePeriodExpiresDate { text += " grace-\(day(grace))" }
        return text
    }

    private static func day(_ date: Date?) -> String {
        guard let date else { return "d?" }
        return "d" + format(date.timeIntervalSince(Given.origin) / 86_400)
    }

    private static func format(_ days: Double) -> String {
        days == days.rounded() && abs(days) < 1e6 ? String(Int(days)) : String(format: "%.4f", days)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
