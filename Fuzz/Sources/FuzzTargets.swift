import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fuzz targets: a name and what to do with one input. Adding a decoder is one line here; `Fuzz/run.sh` builds
/// an executable named after each target and seeds it from `Fuzz/corpus/<name>/` and `Fixtures/`.
///
/// Every target must return normally for any input: a decoder may throw, never trap, hang or exhaust memory. Targets
/// also check properties that must hold for whatever decodes, and trap (a finding) when one does not.
let fuzzTargets: [(name: String, run: @Sendable (Data) -> Void)] = [
    ("transaction-json", { FuzzProperty.roundTrip(TransactionPayload.self, $0) }),
    ("renewal-info-json", { FuzzProperty.roundTrip(RenewalInfoPayload.self, $0) }),
    ("notification-json", { FuzzProperty.notification($0) }),
    ("compact-jws", { FuzzProperty.compactJWS($0) }),
    ("app-store-document", { FuzzProperty.appStoreDocument($0) }),
    ("account-links-json", { FuzzProperty.accountLinks($0) }),
    ("rebuild-history", { FuzzProperty.rebuild($0) }),
    ("ledger-compaction", { FuzzProperty.ledgerCompaction($0) }),
]

enum FuzzProperty {
    static let policies = [
        NotificationPolicy.production(bundleId: "com.example.family", appAppleId: 1_234_567_890),
        NotificationPolicy.sandbox(bundleId: "com.example.family"),
    ]

    /// What decodes re-encodes, and the encoding decodes again to a value that encodes the same way.
    static func roundTrip<T: AppStorePayload>(_ type: T.Type, _ data: Data) {
        guard let value = try? T(jsonData: data) else { return }
        roundTrip(value)
    }

    static func roundTrip<T: AppStorePayload>(_ value: T) {
        guard let encoded = try? value.jsonData() else { fail("\(T.self) decoded but does not encode") }
        guard let again = try? T(jsonData: encoded) else {
            fail("\(T.self) re-encoding does not decode: \(String(decoding: encoded, as: UTF8.self))")
        }
        guard let encodedAgain = try? again.jsonData(), let third = try? T(jsonData: encodedAgain), third == again
        else { fail("\(T.self) does not reach a fixed point after one round trip") }
    }

    static func notification(_ data: Data) {
        guard let notification = try? NotificationPayload(jsonData: data) else { return }
        roundTrip(notification)
        let decoded = (try? notification.decodingNestedPayloadsUnverified()) ?? notification
        for policy in policies {
            if case .accept = policy.evaluate(decoded) {
                let identity = decoded.data?.environment ?? decoded.summary?.environment ?? decoded.appData?.environment
                if decoded.externalPurchaseToken == nil, identity != policy.environment {
                    fail("the policy accepted a notification from \(String(describing: identity))")
                }
            }
        }
        _ = NotificationCounts([decoded]).familySharedRevokeRate
    }

    static func compactJWS(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard let jws = try? UnverifiedJWS(compact: text) else { return }
        _ = try? jws.header()
        _ = try? jws.decodePayload(as: TransactionPayload.self)
        _ = try? jws.decodePayload(as: RenewalInfoPayload.self)
        _ = try? jws.decodePayload(as: NotificationPayload.self).decodingNestedPayloadsUnverified()
    }

    static func appStoreDocument(_ data: Data) {
        guard let document = try? AppStoreDocument(data: data) else { return }
        var warnings: [PayloadDecodingWarning] = []
        switch document {
        case .notificationRequestBody(let body):
            let lenient = body.decodeNotificationUnverified(reportingFailuresIn: &warnings)
            agree(try? body.decodeNotificationUnverified(), lenient, warnings, "a notification body")
        case .transactionHistory(let history):
            let lenient = history.decodeTransactionsUnverified(reportingFailuresIn: &warnings)
            agree(try? history.decodeTransactionsUnverified(), lenient, warnings, "a history page")
        case .subscriptionStatuses(let statuses):
            let lenient = statuses.decodeLastTransactionsUnverified(reportingFailuresIn: &warnings)
            let strict = try? statuses.decodeLastTransactionsUnverified()
            agree(strict?.transactions, lenient.transactions, warnings, "a status response")
        case .notification(let notification):
            let lenient = notification.decodingNestedPayloadsUnverified(reportingFailuresIn: &warnings)
            agree(try? notification.decodingNestedPayloadsUnverified(), lenient, warnings, "a notification")
        case .transactionInfo(let info):
            let lenient = info.decodeTransactionUnverified(reportingFailuresIn: &warnings)
            agree(try? info.decodeTransactionUnverified(), lenient, warnings, "a transaction info body")
        case .notificationHistory(let page):
            let lenient = page.decodeNotificationsUnverified(reportingFailuresIn: &warnings)
            agree(try? page.decodeNotificationsUnverified(), lenient, warnings, "a notification history page")
        case .transaction, .renewalInfo, .appTransaction, .renewalExtension: break
        }
        if let names = try? JSONDecoder().decode([String: JSONValue].self, from: data).keys,
            !Set(names).isEmpty, !document.kind.fits(Set(names))
        {
            fail("recognised as \(document.kind), which its members do not fit")
        }
        if (try? AppStoreDocument(data: data, as: document.kind)) != document {
            fail("decoding as the recognised kind \(document.kind) gives another document")
        }
    }

    /// Where the strict decoding of nested strings succeeds, the lenient one gives the same values and reports no
    /// undecodable string; where the strict one fails, the lenient one reports at least one.
    private static func agree<Value: Equatable>(
        _ strict: Value?, _ lenient: Value?, _ warnings: [PayloadDecodingWarning], _ what: String
    ) {
        let undecodable = warnings.filter { $0.code == .undecodableSignedString }
        if let strict {
            if strict != lenient || !undecodable.isEmpty {
                fail("\(what): the lenient nested decoding differs where the strict one succeeds")
            }
        } else if undecodable.isEmpty {
            fail("\(what): the strict nested decoding fails and the lenient one reports nothing")
        }
    }

    static func accountLinks(_ data: Data) {
        if let token = try? AppAccountToken(parsing: String(decoding: data, as: UTF8.self)) {
            guard (try? AppAccountToken(parsing: token.description)) == token,
                token.description == token.description.lowercased()
            else { fail("token \(token) does not re-parse to itself in lower case") }
        }
        guard let links = try? AccountLinks(jsonData: data) else { return }
        guard let encoded = try? links.jsonData(), (try? AccountLinks(jsonData: encoded)) == links
        else { fail("account links do not round-trip") }
    }

    /// The rebuild of any decodable history never traps, never grants what its data does not support (see
    /// `NoOverGrant`), does not depend on the order of the entries, and its `validUntil` is where rebuilding the whole
    /// history at every later date it names first decides otherwise.
    static func rebuild(_ data: Data) {
        guard let history = try? History.decodeUnverified(data).history else { return }
        let reversed = History(
            transactions: history.transactions.reversed(), renewalInfos: history.renewalInfos.reversed(),
            notifications: history.notifications.reversed(),
            subscriptionStatuses: history.subscriptionStatuses.reversed())
        for instant in instants(of: history) {
            for environment in [Environment.production, .sandbox] {
                let report = rebuildEntitlements(history: history, asOf: instant, environment: environment)
                let other = rebuildEntitlements(history: reversed, asOf: instant, environment: environment)
                if mirrored(other, of: history) != report {
                    fail("the rebuild depends on the order of the entries")
                }
                for product in report.products where product.hasAccess {
                    guard product.state == .active || product.state == .gracePeriod else {
                        fail("\(product.productId) has access in state \(product.state)")
                    }
                }
                if let violation = NoOverGrant.violation(
                    in: report, history: history, instant: instant, environment: environment)
                {
                    fail("over-grant: \(violation)")
                }
                if environment == .production, let reference = referenceValidUntil(history, at: instant, report),
                    reference != report.validUntil
                {
                    fail(
                        "validUntil is \(String(describing: report.validUntil)) at \(instant), rebuilding at every "
                            + "boundary gives \(String(describing: reference))")
                }
            }
        }
    }

    /// The instants a history is rebuilt at: 1970, 2026-09, and a second after dates the history names (purchases,
    /// expiries, signatures, revocations, grace periods), where a decision changes; eight at most, spread evenly.
    /// A stored ledger round-trips; a history absorbed into a ledger and compacted at an instant gives the same decision
    /// as the whole ledger at every instant from then on (statuses, states, access, willRenew, revocation causes,
    /// entitlements, diagnostic codes).
    static func ledgerCompaction(_ data: Data) {
        if let stored = try? CustomerLedger(jsonData: data) { roundTrip(stored) }
        guard let history = try? History.decodeUnverified(data).history else { return }
        let ledger = CustomerLedger(history)
        roundTrip(ledger)
        let instants = instants(of: history).sorted()
        for start in instants.prefix(4) {
            let compacted = ledger.compacted(asOf: start)
            for instant in instants where instant >= start {
                for environment in [Environment.production, .sandbox] {
                    let full = decision(ledger.rebuild(asOf: instant, environment: environment))
                    let kept = decision(compacted.rebuild(asOf: instant, environment: environment))
                    if full != kept {
                        fail("compacted at \(start), the ledger decides otherwise at \(instant): \(full) vs \(kept)")
                    }
                }
            }
        }
    }

    /// `validUntil` found the plain way, from the public API alone: the first date after the instant that the history
    /// names (or the end of billing retry, 60 days after an expiry) at which the whole history, rebuilt, decides
    /// otherwise; `.some(nil)` where none does, and nil (not checked) where the history names more than 64 such dates.
    private static func referenceValidUntil(
        _ history: History, at instant: Date, _ report: EntitlementReport
    ) -> Date?? {
        let transactions = history.transactions + history.notifications.compactMap { $0.data?.transactionInfo }
        let renewalInfos = history.renewalInfos + history.notifications.compactMap { $0.data?.renewalInfo }
        var dates = transactions.flatMap {
            [
                $0.purchaseDate, $0.signedDate, $0.revocationDate, $0.expiresDate,
                $0.expiresDate?.addingTimeInterval(60 * 86_400),
            ]
        }
        dates += renewalInfos.flatMap { [$0.signedDate, $0.gracePeriodExpiresDate] }
        dates += history.notifications.map(\.signedDate)
        let boundaries = Set(dates.compactMap { $0 }.filter { $0 > instant }).sorted()
        guard boundaries.count <= 64 else { return nil }
        let key = DecisionKey(report)
        for boundary in boundaries
        where DecisionKey(rebuildEntitlements(history: history, asOf: boundary, environment: .production)) != key {
            return .some(boundary)
        }
        return .some(nil)
    }

    /// What "the same decision" means for `validUntil`, as `EntitlementReport.validUntil` states it.
    private struct DecisionKey: Equatable {
        var customer: CustomerStanding
        var products: [String]
        var entitlements: [EntitlementID: Bool]
        var codes: Set<String>
        var entitlementDecisions: [EntitlementID: EntitlementDecision]

        init(_ report: EntitlementReport) {
            customer = report.customer
            products = report.products.map {
                "\($0.productId) \($0.state) \(String(describing: $0.willRenew)) "
                    + "\(String(describing: $0.revocationCause)) \($0.causeInferred)"
            }
            entitlements = report.entitlements
            codes = Set(report.diagnostics.map(\.code.rawValue))
            entitlementDecisions = report.entitlementDecisions
        }
    }

    /// The fields of a report that compaction must keep, without the wording of the evidence.
    private static func decision(_ report: EntitlementReport) -> String {
        let products = report.products.map {
            "\($0.productId) \($0.state) \($0.hasAccess) \(String(describing: $0.willRenew)) "
                + "\(String(describing: $0.revocationCause)) \($0.causeInferred)"
        }
        let codes = Set(report.diagnostics.map(\.code.rawValue)).sorted()
        return "\(report.customerStatus) \(String(describing: report.customerReason)) \(products) "
            + "\(report.entitlements.sorted { $0.key < $1.key }) \(codes)"
    }

    /// The report of the reversed history with each entry named where it stands in `history`: a path such as
    /// `notifications[k]` names, in the reversed history, the entry at `count - 1 - k` of the history as given. So the
    /// order property still asks that every diagnostic and reason name the same entry, not merely the same position.
    static func mirrored(_ report: EntitlementReport, of history: History) -> EntitlementReport {
        let counts = [
            "transactions": history.transactions.count, "renewalInfos": history.renewalInfos.count,
            "notifications": history.notifications.count,
            "subscriptionStatuses": history.subscriptionStatuses.count,
        ]
        func mirror(_ text: String) -> String {
            var result = ""
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "[") {
                let name = rest[..<open].reversed().prefix { $0.isLetter }
                let digits = rest[rest.index(after: open)...].prefix { $0.isASCII && $0.isNumber }
                let close = rest.index(open, offsetBy: digits.count + 1)
                guard let count = counts[String(name.reversed())], let index = Int(digits), index < count,
                    close < rest.endIndex, rest[close] == "]"
                else {
                    result += rest[...open]
                    rest = rest[rest.index(after: open)...]
                    continue
                }
                result += rest[...open] + String(count - 1 - index) + "]"
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        }
        var report = report
        report.diagnostics = report.diagnostics.map { Diagnostic($0.code, message: mirror($0.message)) }.sorted()
        for index in report.products.indices {
            report.products[index].reasons = report.products[index].reasons.map {
                guard case .unreadEntries(let paths) = $0.fact else { return $0 }
                return Reason($0.rule, .unreadEntries(paths: paths.map(mirror).sorted()))
            }
        }
        return report
    }

    static func instants(of history: History) -> [Date] {
        let transactions = history.transactions + history.notifications.compactMap { $0.data?.transactionInfo }
        let renewalInfos = history.renewalInfos + history.notifications.compactMap { $0.data?.renewalInfo }
        var dates = transactions.flatMap { [$0.purchaseDate, $0.expiresDate, $0.signedDate, $0.revocationDate] }
        dates += renewalInfos.flatMap { [$0.signedDate, $0.gracePeriodExpiresDate] }
        dates += history.notifications.map(\.signedDate)
        dates += history.subscriptionStatuses.map(\.signedDate)
        let named = Set(dates.compactMap { $0?.addingTimeInterval(1) }).sorted()
        let step = max(1, named.count / 6)
        let spread = stride(from: 0, to: named.count, by: step).prefix(6).map { named[$0] }
        return [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_790_000_000)] + spread
    }

    static func fail(_ message: String) -> Never {
        fatalError("fuzz property failed: \(message)")
    }
}
