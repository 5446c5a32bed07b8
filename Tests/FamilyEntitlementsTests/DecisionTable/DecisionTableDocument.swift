import FamilyEntitlements
import Foundation

/// Renders docs/decision-table.md from the rows, so that the document cannot drift from the tests.
enum DecisionTableDocument {
    static let rules: [Int: (title: String, statement: String)] = [
        1: (
            "Snapshots",
            """
            The same transactionId may arrive many times; the snapshot with the newest signedDate is the truth \
            (REFUND then REFUND_REVERSED restores access, RENEWAL_EXTENDED moves expiresDate, a stale snapshot \
            arriving late changes nothing). At an instant, the truth is the newest snapshot signed by then; a \
            snapshot signed later is used only where nothing signed by then is known (the earliest such), and may \
            take access away (a revocationDate at or before the instant) but never give it; either is reported. At \
            equal signedDates the snapshot that grants less wins (revoked, then the earlier revocation, upgraded, \
            the earlier expiry) and the conflict is reported. Renewal infos follow the same rules (no billing \
            retry grants less than billing retry, which grants less than a grace period, by its end). A snapshot \
            left out (another environment, none, missing or impossible values) makes the one kept untrusted unless \
            the kept one was signed by the instant and after it: the transaction grants nothing, the chain keeps \
            no grace period. A \
            transaction purchased after the instant of evaluation does not count yet.
            """
        ),
        2: (
            "Auto-renewable subscriptions",
            """
            A subscription is the chain of transactions sharing an originalTransactionId. Access while \
            purchaseDate <= t < expiresDate and not revoked. The chain's newest renewal info describes its newest \
            transaction only (and only if signed since that transaction's purchase; where the newest was left out \
            or not trusted, it describes none of the others): after that transaction \
            expires, in billing retry with gracePeriodExpiresDate > t -> gracePeriod, with access; in billing \
            retry after or without grace -> billingRetry, no access; 60 days or more after expiry, or otherwise \
            -> expired. An EXPIRED notification (any subtype) or GRACE_PERIOD_EXPIRED signed by t, and since the \
            newest transaction's purchase, ends what it ends even if an older renewal info says otherwise. \
            DID_RENEW with BILLING_RECOVERY is a recovery and the evidence says so. Refunding a past renewal does \
            not end the current period; refunding the current one does.
            """
        ),
        3: (
            "Upgrades and downgrades",
            """
            One subscription per group at a time. When a newer transaction of another product in the same chain \
            starts before an older one expires, the older one grants nothing from then on and its product is \
            `upgraded`, with or without an isUpgraded snapshot. A downgrade takes effect at the next renewal: the \
            higher product keeps access until its expiresDate, then is `expired` while the lower product renews; \
            later billing trouble belongs to the lower product.
            """
        ),
        4: (
            "Non-consumables, non-renewing subscriptions, consumables",
            """
            Non-consumables: access from purchaseDate until revoked. Non-renewing subscriptions: access for the \
            catalog's duration from purchaseDate; with no duration known, no access (`undetermined`) and a \
            diagnostic, never unlimited access. Consumables: never an entitlement; a FAMILY_SHARED consumable is \
            invalid data and gets a diagnostic.
            """
        ),
        5: (
            "Family Sharing",
            """
            A FAMILY_SHARED transaction grants on its own, with canManage = false. Where one person holds both a \
            PURCHASED and a FAMILY_SHARED transaction for a product, the product is granted while either grants, \
            PURCHASED preferred; revoking one leaves the other. Where none grants, the newest transaction is \
            reported, and the customer's reason follows it.
            """
        ),
        6: (
            "willRenew",
            """
            For an auto-renewable subscription with access or in billing retry: the autoRenewStatus of the \
            chain's newest renewal info, for members too (never assumed true); null when no renewal info is \
            known; false once expired, revoked or upgraded; null for products that do not renew.
            """
        ),
        7: (
            "Revocation cause",
            """
            revocationType decides where present (REFUND_FULL -> refund, REFUND_PRORATED -> proratedRefund, \
            FAMILY_REVOKE -> familyRevocation, ASSIGNMENT_REVOKE -> assignmentRevocation, other -> unknown with \
            a diagnostic). Without it the cause is inferred and marked so: PURCHASED with revocationDate -> \
            refund when revocationReason is 0, 1 or absent, else unknown; FAMILY_SHARED with revocationDate -> \
            refund when revocationReason is 1, else unknown; any other ownership -> unknown; a REVOKE \
            notification for a FAMILY_SHARED transaction without revocationDate -> familyRevocation at the \
            notification's signedDate, revoking that chain's transactions purchased up to it. A later transaction \
            grants again; a stale snapshot does not undo it.
            """
        ),
        8: (
            "Offers",
            """
            `freeTrial` only for offerType 1 with FREE_TRIAL, or, where offerDiscountType is absent, offerType 1 \
            with an explicit price of 0 (an absent price is not a zero price); offerType 1 otherwise -> \
            `introductory`, never a trial; 2 `promotional`; 3 `offerCode`; 4 `winBack`; none `normal`.
            """
        ),
        9: (
            "Environment",
            """
            The rebuild runs for one environment (default Production). Entries of another environment, or with \
            none, never grant and each is reported; a Sandbox entry in a Production history is an attack or a \
            bug, not a purchase. Xcode payloads evaluate under Xcode. A catalog that names the app's bundleId \
            makes every entry of another bundle grant nothing, each reported; without one, a history that names \
            more than one bundle id is an error diagnostic.
            """
        ),
        10: (
            "Unknown values",
            """
            An unknown notification type, subtype, ownership, product type or revocation value never crashes the \
            rebuild and never disappears: it yields a warning naming the raw value, and the transaction still \
            counts where its fields allow (an unknown product type grants only while an expiresDate bounds it). \
            A transaction missing its ids or purchaseDate never grants. Impossible values (an expiry or \
            revocation before the purchase, an empty identifier, a quantity below 1, a negative price, a date \
            before the App Store opened on 2008-07-10, which can only be seconds mistaken for milliseconds) never \
            grant and are reported; the customer is then inactive (undetermined), not new. Xcode's year-1 \
            originalPurchaseDate is documented (rule 9) and never read.
            """
        ),
        11: (
            "Customer status",
            """
            `new` (no non-consumable, non-renewing or auto-renewable transaction by the instant), `active` (any \
            product grants) or `inactive`, with why, most actionable first: billingRetry (ask to update payment), \
            billingRetryFamilyMember (the member cannot), refunded, familyRevocation, revoked, expired, \
            undetermined. A catalog maps products to entitlements; without one each product id is its own \
            entitlement. With a catalog, even an empty one, a product it lacks unlocks nothing, and a transaction \
            whose type disagrees with the catalog's grants nothing; both are reported.
            """
        ),
        12: (
            "Evidence",
            """
            Every decision carries, in words, which transaction granted or ended access and which rule applied.
            """
        ),
    ]

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
            "`org.familyentitlements.demo.` prefix. Sources cite `../shared/apple-facts.md` sections.",
        ]
        for rule in 1...12 {
            guard let text = rules[rule] else { continue }
            lines += ["", "## Rule \(rule): \(text.title)", "", text.statement, ""]
            lines.append("| row | history | at | expected | source |")
            lines.append("| --- | --- | --- | --- | --- |")
            for row in rows where row.rule == rule {
                lines.append(
                    "| \(escape(row.name)) | \(escape(describe(row.history, environment: row.environment))) | "
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
        return parts.joined(separator: "; ")
    }

    static func describe(_ history: History, environment: Environment) -> String {
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
