#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every stage of a rebuild reads: the instant of evaluation, the environment and the catalog.
struct RebuildScope {
    /// The instant of evaluation, at its whole millisecond taken down (rule 1): every comparison with it is made
    /// through it.
    let instant: RebuildInstant
    let environment: Environment
    /// The catalog and the reading's warnings, behind one reference: every stage holds the scope, and a copy then
    /// retains one object rather than each of their arrays and dictionaries.
    private let shared: Shared

    private final class Shared {
        let catalog: ProductCatalog?
        let catalogProducts: [ProductID: ProductCatalog.Product]
        let decodingWarnings: [PayloadDecodingWarning]

        init(catalog: ProductCatalog?, decodingWarnings: [PayloadDecodingWarning]) {
            self.catalog = catalog
            catalogProducts = catalog?.products ?? [:]
            self.decodingWarnings = decodingWarnings
        }
    }

    var catalog: ProductCatalog? { shared.catalog }
    /// The catalog's products; none without a catalog.
    var catalogProducts: [ProductID: ProductCatalog.Product] { shared.catalogProducts }
    /// What reading the history noticed (rule 10): each becomes a diagnostic, and an entry that could not be read
    /// leaves nothing granting.
    var decodingWarnings: [PayloadDecodingWarning] { shared.decodingWarnings }

    /// Whether the rebuild can decide at the instant it was given: a finite instant within the years the report's
    /// readers accept (up to 9999-12-31T23:59:59.999Z). An instant before the App Store opened is a real question,
    /// whose customer is `new`.
    let isDecidable: Bool
    /// The instant as it was given, for the diagnostic of one the rebuild cannot decide at.
    let given: Date

    init(
        instant: Date, environment: Environment, catalog: ProductCatalog?,
        decodingWarnings: [PayloadDecodingWarning] = [], recorder: ComparedDates? = nil
    ) {
        self.init(
            instant, environment: environment, shared: Shared(catalog: catalog, decodingWarnings: decodingWarnings),
            recorder: recorder)
    }

    private init(_ instant: Date, environment: Environment, shared: Shared, recorder: ComparedDates?) {
        // Rule 1: the instant is taken down to its whole millisecond, the one the report prints as asOf. One the rebuild
        // cannot decide at is held at the nearest end of the range, so that the report it gives can still be written:
        // after the range (or +infinity) at its last millisecond, anything else (NaN, -infinity) at its first.
        let down = MillisecondDate.whole(instant, .down)
        let milliseconds = down.timeIntervalSince1970 * 1000
        given = instant
        if let decidable = RuleInstant(instant: down) {
            (isDecidable, self.instant) = (true, RebuildInstant(decidable, recorder: recorder))
        } else {
            isDecidable = false
            self.instant = RebuildInstant(milliseconds > MillisecondDate.latest ? .latest : .earliest)
        }
        (self.environment, self.shared) = (environment, shared)
    }

    /// The same scope at another instant: the one place a rebuild moves in time. A recorder of compared dates stays
    /// with the instant it was given for.
    func at(_ instant: Date) -> RebuildScope {
        RebuildScope(instant, environment: environment, shared: shared, recorder: nil)
    }
}

/// A stage of the rebuild: a value holding the scope, whose functions never mutate it and record what they notice in
/// a `DiagnosticsLog` passed to them. See docs/architecture.md for the order data flows through the stages.
protocol RebuildStage {
    var scope: RebuildScope { get }
}

extension RebuildStage {
    var instant: RebuildInstant { scope.instant }
    var environment: Environment { scope.environment }
    var catalog: ProductCatalog? { scope.catalog }
    var catalogProducts: [ProductID: ProductCatalog.Product] { scope.catalogProducts }
}

/// What the rebuild noticed, each diagnostic once: passed explicitly to every stage that reports.
struct DiagnosticsLog {
    private(set) var diagnostics: Set<Diagnostic> = []

    /// Records a diagnostic of `code`, whose severity and rule the code carries, with where it was reported.
    mutating func report(
        _ code: Diagnostic.Code, _ message: String, file: StaticString = #fileID, function: StaticString = #function
    ) {
        var diagnostic = Diagnostic(code, message: message)
        diagnostic.origin = Origin(file: file, function: function)
        diagnostics.insert(diagnostic)
    }

    /// Records every diagnostic of `other`.
    mutating func formUnion(_ other: DiagnosticsLog) {
        if !other.diagnostics.isEmpty { diagnostics.formUnion(other.diagnostics) }
    }

    /// The diagnostics, sorted.
    var sorted: [Diagnostic] { diagnostics.sorted() }
}

/// Facts gathered from notifications during admission, for evaluation and for the evidence.
struct NotificationFacts {
    /// Events that end access or grace, by original transaction id; ordered once admission is over.
    var events: [String: ChainEvents] = [:]
    /// The notifications that carried each transaction, by transaction id.
    var notifications: [String: Set<NotificationMention>] = [:]
    /// DID_FAIL_TO_RENEW and DID_CHANGE_RENEWAL_STATUS notifications, by original transaction id.
    var renewalNotices: [String: [RenewalNotice]] = [:]
    /// Apple's own status of a chain (a notification's `data.status`, an item of Get All Subscription Statuses), by
    /// original transaction id.
    var appleStatuses: [String: [AppleStatusNotice]] = [:]
}

/// A DID_FAIL_TO_RENEW or DID_CHANGE_RENEWAL_STATUS notification of a chain: what it says and when it was signed.
struct RenewalNotice: Hashable {
    enum Kind: Int, Hashable {
        case billingIssue, autoRenewDisabled, autoRenewEnabled
    }

    var kind: Kind
    var signed: RuleInstant
}

/// Apple's status of a subscription as one notification or one Get All Subscription Statuses item states it, and when
/// it was signed.
struct AppleStatusNotice: Hashable {
    var status: SubscriptionStatus
    var signed: RuleInstant
    var source: AppleStatusSource
}

/// Where Apple's status of a chain came from.
enum AppleStatusSource: Hashable, Comparable {
    /// A notification's `data.status`.
    case notification(NotificationMention)
    /// An item of a Get All Subscription Statuses answer, by its subscription group.
    case subscriptionStatuses(group: String?)

    /// The source in words, as the diagnostic names it.
    var text: String {
        switch self {
        case .notification(let mention): mention.name
        case .subscriptionStatuses(let group?): "Get All Subscription Statuses (subscription group \(group))"
        case .subscriptionStatuses(nil): "Get All Subscription Statuses"
        }
    }

    /// Notifications first, in their own order, then Get All Subscription Statuses items by group (none first): the
    /// latest of two statuses signed in the same millisecond is Apple's answer to the API.
    static func < (lhs: AppleStatusSource, rhs: AppleStatusSource) -> Bool {
        switch (lhs, rhs) {
        case (.notification(let left), .notification(let right)): left < right
        case (.notification, .subscriptionStatuses): true
        case (.subscriptionStatuses, .notification): false
        case (.subscriptionStatuses(let left), .subscriptionStatuses(let right)):
            left == right ? false : left.map { left in right.map { left < $0 } ?? false } ?? true
        }
    }
}

extension NotificationPayload {
    /// The notification as evidence names it.
    var mention: NotificationMention {
        NotificationMention(
            type: notificationType ?? NotificationType(rawValue: ""), subtype: subtype, signedDate: signedDate,
            notificationUUID: notificationUUID)
    }
}

/// What the renewal side of a subscription chain shows about its newest transaction.
struct RenewalFacts: Hashable {
    var gracePeriodExpiresDate: Date?
    var billingIssueDetectedAt: Date?
    var unsubscribeDetectedAt: Date?
    var autoRenewProductId: ProductID?
}

/// The facts of a product's reported transaction that its `ProductDecision` does not carry: the dates
/// `EntitlementDecision` reports, and the instants rule 11 ranks products by.
struct ProductFacts {
    var originalPurchaseDate: Date?
    var latestPurchaseDate: Date?
    var revocationDate: Date?
    var renewal = RenewalFacts()
    /// When the reported candidate's access ends (its `expiresDate`); nil where nothing ends it.
    var end: RuleInstant?
    /// The reported transaction's purchase.
    var purchase: RuleInstant?
}

/// One transaction's evaluation for the product it names: its state and the reasons for it, recorded as data.
struct Candidate {
    /// The transaction's position in the admitted transactions.
    var index: Int
    var state: AccessState
    /// When the access the state describes ends: the expiry, grace end or end reported.
    var expires: RuleInstant?
    var willRenew: Bool?
    var revocation: Revocation?
    /// What the chain's renewal side shows, for the newest transaction of a subscription chain.
    var renewal = RenewalFacts()
    /// The evidence of the evaluation, in the order it was found; rendered to words only on request.
    var reasons: [Reason]

    var grants: Bool { state.grantsAccess }
}

/// A revocation of one transaction: when, and its cause as stated or inferred.
struct Revocation {
    var at: RuleInstant
    var cause: RevocationCauseFinding
    /// The REVOKE notification that revoked the transaction, when its snapshot carries no revocationDate.
    var event: ChainEvent?
}

extension TransactionPayload {
    /// The transaction identifier, or a placeholder naming the product for messages.
    ///
    /// Small enough to inline, so that reading it from a payload in place reads one field rather than copying the
    /// payload; the placeholder is built out of line.
    @inline(__always)
    var id: String { transactionId ?? placeholderId() }

    @inline(never)
    private func placeholderId() -> String { "without transactionId (product \(productId ?? "unknown"))" }
}
