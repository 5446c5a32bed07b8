import FamilyEntitlements
import Foundation

/// The report as the tool shows it: plain strings, dates and flags read from `EntitlementReport` in this one place,
/// so that the table, the explanation, the timeline and reconciliation change together when the report's types do.
struct ReportView {
    struct Product {
        var productId: String
        var state: String
        var isRevoked: Bool
        var hasAccess: Bool
        var ownership: String?
        /// The revocation cause, with "(inferred)" where the history did not state it.
        var cause: String?
        var expiresDate: Date?
        var willRenew: Bool?
        var period: String
        var price: String?
        var transactionId: String
        var originalTransactionId: String
        var because: [String]
        /// When the rebuild ended access by revocation: the revocationDate or REVOKE instant its evidence names.
        var revokedAt: Date?
        /// The rule of each reason that names a transaction, by transaction id, in the evidence's order.
        var rules: [(transactionId: String, rule: Int)]
    }

    var asOf: Date
    /// When the same history gives another decision; nil when time alone changes nothing.
    var validUntil: Date?
    var environment: String
    var customerStatus: String
    var customerReason: String?
    var products: [Product]
    var entitlements: [String: Bool]
    var diagnostics: [String]

    init(_ report: EntitlementReport) {
        asOf = report.asOf
        validUntil = report.validUntil
        environment = report.environment.rawValue
        customerStatus = report.customerStatus.rawValue
        customerReason = report.customerReason?.rawValue
        entitlements = Dictionary(uniqueKeysWithValues: report.entitlements.map { ($0.key.rawValue, $0.value) })
        diagnostics = report.diagnostics.map { "\($0.severity.rawValue): \($0.code): \($0.message)" }
        products = report.products.map { product in
            Product(
                productId: product.productId.rawValue, state: product.state.rawValue,
                isRevoked: product.state == .revoked,
                hasAccess: product.hasAccess, ownership: product.ownership?.rawValue,
                cause: product.revocationCause.map { $0.rawValue + (product.causeInferred ? " (inferred)" : "") },
                expiresDate: product.expiresDate, willRenew: product.willRenew, period: product.period.rawValue,
                price: product.price.map {
                    "\(((try? $0.formattedAmount()) ?? "\($0.milliunits)/1000")) \($0.currency)"
                },
                transactionId: product.transactionId.rawValue,
                originalTransactionId: product.originalTransactionId.rawValue,
                because: product.because, revokedAt: Self.revokedAt(product.reasons),
                rules: product.reasons.compactMap { reason in
                    reason.fact.transactionId.map { ($0, reason.rule.rawValue) }
                })
        }
    }

    /// The instant the evidence says access was revoked, where it says so.
    static func revokedAt(_ reasons: [Reason]) -> Date? {
        reasons.lazy.compactMap { reason -> Date? in
            switch reason.fact {
            case .revoked(_, let at, _, _, _, _): at
            case .revokedByNotification(_, let signed, _, _): signed
            default: nil
            }
        }.last
    }

    /// The entitlements a report grants, sorted: what reconciliation compares with the service.
    static func granted(_ report: EntitlementReport) -> [String] {
        report.entitlements.filter(\.value).map(\.key.rawValue).sorted()
    }

    /// `rebuild --format json`'s bytes: the library's contract JSON, keys sorted, with the characters a terminal would
    /// act on written as `\uXXXX`. `reconcile` embeds exactly these bytes.
    static func contractJSON(_ report: EntitlementReport) throws -> String {
        TerminalText.escapedJSON(String(decoding: try report.contractJSON(), as: UTF8.self))
    }
}

/// What the history says about revocations and renewals that the report does not carry: when a transaction was
/// revoked, by what, and the grace and billing-retry state of each subscription, for the lanes of the timeline. Read
/// as the rebuild reads them: the newest snapshot of each transaction signed by the instant, of the report's
/// environment (history entries and the transactions notifications carry), with rule 7's causes. Where the report
/// itself says when access ended (`ReportView.Product.revokedAt`), that wins.
struct HistoryFacts {
    struct Revocation {
        var date: Date?
        var kind: Kind
        /// The REVOKE notification's signing instant, where the transaction has no revocationDate.
        var noticeDate: Date?

        enum Kind: String {
            case refund, familyRevocation = "family revocation", assignmentRevocation = "assignment revocation"
            case upgrade, revoked

            /// The kind of a revocation of this cause.
            init(_ cause: RevocationCause) {
                switch cause {
                case .refund, .proratedRefund: self = .refund
                case .familyRevocation: self = .familyRevocation
                case .assignmentRevocation: self = .assignmentRevocation
                case .unknown: self = .revoked
                }
            }
        }
    }

    /// The newest snapshot of each transaction, by transactionId.
    var transactions: [String: TransactionPayload] = [:]
    /// The newest renewal info of each subscription, by originalTransactionId.
    var renewalInfos: [String: RenewalInfoPayload] = [:]
    /// REVOKE notifications' signing instants, by the transactionId they carry.
    var revokeNotices: [String: Date] = [:]

    init(_ history: History, asOf instant: Date, environment: Environment) {
        func counts(_ signed: Date?, _ entryEnvironment: Environment?) -> Bool {
            guard let signed, signed <= instant else { return false }
            return entryEnvironment == environment
        }
        var all = history.transactions.filter { counts($0.signedDate, $0.environment) }
        var renewals = history.renewalInfos.filter { counts($0.signedDate, $0.environment) }
        for notification in history.notifications {
            guard counts(notification.signedDate, notification.data?.environment) else { continue }
            if let transaction = notification.data?.transactionInfo,
                counts(transaction.signedDate, transaction.environment)
            {
                all.append(transaction)
                if notification.notificationType == .revoke, let id = transaction.transactionId {
                    revokeNotices[id] = max(revokeNotices[id] ?? .distantPast, notification.signedDate ?? .distantPast)
                }
            }
            if let renewal = notification.data?.renewalInfo, counts(renewal.signedDate, renewal.environment) {
                renewals.append(renewal)
            }
        }
        for transaction in all {
            guard let id = transaction.transactionId else { continue }
            if let known = transactions[id],
                !Self.isNewer(transaction.signedDate, than: known.signedDate, or: transaction.revocationDate != nil)
            {
                continue
            }
            transactions[id] = transaction
        }
        for renewal in renewals {
            guard let id = renewal.originalTransactionId else { continue }
            if let known = renewalInfos[id], !Self.isNewer(renewal.signedDate, than: known.signedDate, or: false) {
                continue
            }
            renewalInfos[id] = renewal
        }
    }

    /// Whether a snapshot signed at `date` replaces one signed at `known`; a tie goes to the revoked snapshot.
    private static func isNewer(_ date: Date?, than known: Date?, or tieBreak: Bool) -> Bool {
        let date = date ?? .distantPast
        let known = known ?? .distantPast
        return date > known || (date == known && tieBreak)
    }

    /// How and when a transaction was revoked, if the history says it was.
    func revocation(of transactionId: String) -> Revocation? {
        let transaction = transactions[transactionId]
        let notice = revokeNotices[transactionId]
        if let transaction, transaction.isUpgraded == true {
            // An upgrade ends the old product when the upgraded snapshot was signed, where it carries no
            // revocationDate.
            return Revocation(
                date: transaction.revocationDate ?? transaction.signedDate, kind: .upgrade, noticeDate: notice)
        }
        // A REVOKE without revocationDate revokes a family member's copy only (rule 7).
        let memberNotice = transaction?.inAppOwnershipType == .familyShared ? notice : nil
        guard let transaction, transaction.revocationDate != nil || memberNotice != nil else { return nil }
        let kind: Revocation.Kind =
            transaction.revocationDate == nil
            ? .familyRevocation : Revocation.Kind(RevocationCauseFinding.of(transaction).cause)
        return Revocation(date: transaction.revocationDate, kind: kind, noticeDate: memberNotice)
    }
}
