#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One piece of evidence for a product's decision: the rule of the decision table that applied, and what it found.
///
/// The rebuild records reasons as data (transactions, snapshots, notifications, instants) and writes them in words
/// only when `text` (or `ProductDecision.because`) is read.
public struct Reason: Hashable, Sendable, CustomStringConvertible {
    /// The rule that applied.
    public var rule: DecisionRule
    /// What the rule found.
    public var fact: Fact

    /// Where the rebuild found it; nil for a reason made elsewhere (decoded, or made by a caller).
    package var origin: Origin?

    public init(_ rule: DecisionRule, _ fact: Fact) {
        self.rule = rule
        self.fact = fact
    }

    /// A reason the rebuild found, with where it found it (`origin`): the one way the engine makes evidence.
    static func found(
        _ rule: DecisionRule, _ fact: Fact, file: StaticString = #fileID, function: StaticString = #function
    ) -> Reason {
        var reason = Reason(rule, fact)
        reason.origin = Origin(file: file, function: function)
        return reason
    }

    /// What a rule found, with the values it found it in.
    public enum Fact: Hashable, Sendable {
        /// The snapshot of a transaction that speaks for it, and when it was signed.
        case newestSnapshot(transactionId: String, signed: Date)
        /// A DID_RENEW BILLING_RECOVERY notification carried the transaction: a recovery, not a new purchase.
        case billingRecovery(transactionId: String)
        /// A REFUND_REVERSED notification carried the transaction.
        case refundReversed(transactionId: String)
        /// Another notification carried the transaction.
        case carriedBy(NotificationMention)
        /// A subscription transaction grants from its purchase until the end of its access.
        case subscriptionGrants(transactionId: String, ownership: OwnershipType?, from: Date, until: Date)
        /// An auto-renewable transaction without an expiresDate.
        case missingExpiresDate(transactionId: String)
        /// A transaction expired and a later transaction of its chain followed it.
        case expiredAndFollowed(transactionId: String, expires: Date)
        /// An EXPIRED notification ended the subscription.
        case endedByNotification(NotificationMention, signed: Date)
        /// The newest transaction expired and no renewal info signed since its purchase shows billing retry.
        case expiredWithoutBillingRetry(transactionId: String, expires: Date)
        /// Billing retry is over: 60 days or more have passed since the expiry.
        case billingRetryOver(expires: Date)
        /// The renewal failed and the billing grace period lasts until `until`.
        case gracePeriod(transactionId: String, until: Date, renewalInfoSigned: Date)
        /// A GRACE_PERIOD_EXPIRED notification ended the grace period.
        case gracePeriodEndedByNotification(NotificationMention, signed: Date)
        /// The renewal failed and Apple is retrying billing.
        case billingRetry(transactionId: String, renewalInfoSigned: Date)
        /// The transaction is marked isUpgraded and grants nothing from `from`.
        case markedUpgraded(transactionId: String, from: Date)
        /// A transaction of another product of the chain replaced the transaction.
        case replaced(transactionId: String, at: Date, by: String, productId: ProductID?)
        /// A non-consumable grants from its purchase until revoked.
        case nonConsumableGrants(transactionId: String, ownership: OwnershipType?, from: Date)
        /// A non-renewing subscription without a catalog duration.
        case missingDuration
        /// A non-renewing subscription marked FAMILY_SHARED, which Apple never shares: invalid data.
        case familySharedNonRenewing(transactionId: String)
        /// A non-renewing subscription lasts the catalog's duration from its purchase.
        case lasts(ISO8601Duration, from: Date)
        /// A product type this library does not know, with no expiresDate to bound it.
        case unknownTypeUnbounded(productType: ProductType?)
        /// A product type this library does not know, bounded by its expiresDate.
        case unknownTypeBounded(productType: ProductType?)
        /// A one-time transaction grants until `until`.
        case grantsUntil(transactionId: String, ownership: OwnershipType?, until: Date)
        /// A one-time transaction's access ended at `at`.
        case ended(transactionId: String, at: Date)
        /// Several transactions name the product and none grants; the newest is reported.
        case noneGrants(transactions: Int, productId: ProductID)
        /// Several transactions name the product; it is granted while any grants, and this one is reported.
        case anyGrants(transactions: Int, productId: ProductID, reported: String, ownership: OwnershipType?)
        /// The newest renewal info says auto-renew is off.
        case autoRenewOff
        /// The transaction's snapshot carries a revocationDate: when, the cause and what it was read from.
        case revoked(
            transactionId: String, at: Date, cause: RevocationCause, revocationType: RevocationType?,
            revocationReason: RevocationReason?, ownership: OwnershipType?)
        /// A REVOKE notification without revocationDate revoked the chain as purchased up to its signedDate.
        case revokedByNotification(
            NotificationMention, signed: Date, originalTransactionId: OriginalTransactionID, cause: RevocationCause)
        /// Entries of the history could not be read (the JSON paths of `History.decodeUnverified`'s warnings, in
        /// ascending order, whatever the order of the warnings): any of them might have ended the access, so the
        /// product grants nothing.
        case unreadEntries(paths: [String])
        /// Evidence read back from its words (a decoded report), no longer as data.
        case text(String)
    }

    public var description: String { text }

    /// Two reasons are equal when they read the same, so that a report read back from its JSON, whose reasons are
    /// words only, equals the report written.
    public static func == (lhs: Reason, rhs: Reason) -> Bool {
        lhs.fact == rhs.fact && lhs.rule == rhs.rule || lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }

    /// The evidence in words.
    public var text: String {
        switch fact {
        case .newestSnapshot(let id, let signed):
            return "rule 1: the newest snapshot of transaction \(id) is the truth: signed \(signed.evidenceText)"
        case .billingRecovery(let id):
            return
                "DID_RENEW BILLING_RECOVERY: transaction \(id) is a recovery after failed billing, not a new purchase"
        case .refundReversed(let id):
            return "REFUND_REVERSED: Apple reversed the refund of transaction \(id)"
        case .carriedBy(let mention):
            return "carried by \(mention.name)"
        case .subscriptionGrants(let id, let ownership, let from, let until):
            return "rule 2: transaction \(id) (\(Self.text(ownership))) grants from \(from.evidenceText) until "
                + "\(until.evidenceText)"
        case .missingExpiresDate(let id):
            return "rule 2: transaction \(id) has no expiresDate, so its period is unknown"
        case .expiredAndFollowed(let id, let expires):
            return "rule 2: transaction \(id) expired at \(expires.evidenceText); a later transaction of the chain "
                + "followed it"
        case .endedByNotification(let mention, let signed):
            return "rule 2: \(mention.name) signed \(signed.evidenceText) ended the subscription; any older renewal "
                + "info is outdated"
        case .expiredWithoutBillingRetry(let id, let expires):
            return "rule 2: transaction \(id) expired at \(expires.evidenceText) and no renewal info signed since its "
                + "purchase shows billing retry"
        case .billingRetryOver(let expires):
            return "rule 2: billing retry lasts at most 60 days after the expiry at \(expires.evidenceText); it is over"
        case .gracePeriod(let id, let until, let signed):
            return "rule 2: the renewal of transaction \(id) failed; in the billing grace period until "
                + "\(until.evidenceText) (renewal info signed \(signed.evidenceText)), with access"
        case .gracePeriodEndedByNotification(let mention, let signed):
            return "rule 2: \(mention.name) signed \(signed.evidenceText) ended the grace period"
        case .billingRetry(let id, let signed):
            return "rule 2: the renewal of transaction \(id) failed and Apple is retrying billing (renewal info signed "
                + "\(signed.evidenceText)); no access until billing recovers"
        case .markedUpgraded(let id, let from):
            return "rule 3: transaction \(id) is marked isUpgraded; it grants nothing from \(from.evidenceText)"
        case .replaced(let id, let at, let by, let productId):
            return "rule 3: transaction \(id) was replaced at \(at.evidenceText) by transaction \(by) of "
                + "\(productId?.rawValue ?? "another product") in the same subscription group; it grants nothing from then on"
        case .nonConsumableGrants(let id, let ownership, let from):
            return "rule 4: non-consumable transaction \(id) (\(Self.text(ownership))) grants from "
                + "\(from.evidenceText) until revoked"
        case .missingDuration:
            return "rule 4: non-renewing subscription without a catalog duration: undetermined, never unlimited"
        case .familySharedNonRenewing(let id):
            return "rule 4: non-renewing transaction \(id) is FAMILY_SHARED, which Family Sharing never allows: "
                + "invalid data, it grants nothing"
        case .lasts(let duration, let from):
            return "rule 4: non-renewing subscription lasts \(duration) from \(from.evidenceText)"
        case .unknownTypeUnbounded(let type):
            return "rule 10: product type \(type?.rawValue ?? "(absent)") is unknown and no expiresDate bounds it: "
                + "undetermined"
        case .unknownTypeBounded(let type):
            return "rule 10: product type \(type?.rawValue ?? "(absent)") is unknown; its expiresDate bounds access"
        case .grantsUntil(let id, let ownership, let until):
            return "transaction \(id) (\(Self.text(ownership))) grants until \(until.evidenceText)"
        case .ended(let id, let at):
            return "transaction \(id) ended at \(at.evidenceText)"
        case .noneGrants(let count, let productId):
            return "rule 5: \(count) transactions name \(productId) and none grants; the newest is reported"
        case .anyGrants(let count, let productId, let reported, let ownership):
            return "rule 5: \(count) transactions name \(productId); the product is granted while any grants, and "
                + "transaction \(reported) (\(Self.text(ownership))) is reported"
        case .autoRenewOff:
            return "rule 6: auto-renew is off; the subscription ends at the end of the period"
        case .revoked(let id, let at, let cause, let type, let reason, let ownership):
            return "rule 7: transaction \(id) was revoked at \(at.evidenceText): "
                + Self.causeText(cause: cause, type: type, reason: reason, ownership: ownership)
        case .revokedByNotification(let mention, let signed, let originalId, let cause):
            return "rule 7: \(mention.name) signed \(signed.evidenceText) carries no revocationDate; it revokes "
                + "original transaction \(originalId) as purchased up to then, cause inferred as \(cause.rawValue)"
        case .unreadEntries(let paths):
            return "rule 10: the history holds \(paths.count == 1 ? "an entry" : "\(paths.count) entries") that could "
                + "not be read (\(paths.joined(separator: ", "))); it might have revoked or ended this access, so it "
                + "grants nothing: undetermined"
        case .text(let text):
            return text
        }
    }

    private static func text(_ ownership: OwnershipType?) -> String {
        ownership?.rawValue ?? "no inAppOwnershipType"
    }

    private static func causeText(
        cause: RevocationCause, type: RevocationType?, reason: RevocationReason?, ownership: OwnershipType?
    ) -> String {
        if let type {
            return "revocationType \(type.rawValue) says \(cause.rawValue)"
        }
        let reason = reason.map { "revocationReason \($0.rawValue)" } ?? "no revocationReason"
        let why =
            ownership == .familyShared && cause == .unknown
            ? " (on a member's copy, 0 is set both when the member leaves and when the purchaser is refunded)" : ""
        return "no revocationType; \(reason) on a \(ownership?.rawValue ?? "unknown ownership") transaction, cause "
            + "inferred as \(cause.rawValue)\(why)"
    }
}

/// A notification that carried a transaction or changed a subscription chain, named in evidence.
public struct NotificationMention: Hashable, Sendable, Comparable {
    public var type: NotificationType
    public var subtype: NotificationSubtype?
    public var signedDate: Date?
    public var notificationUUID: String?

    public init(
        type: NotificationType, subtype: NotificationSubtype? = nil, signedDate: Date? = nil,
        notificationUUID: String? = nil
    ) {
        self.type = type
        self.subtype = subtype
        self.signedDate = signedDate
        self.notificationUUID = notificationUUID
    }

    /// The type and subtype, as evidence writes them.
    public var label: String { subtype.map { "\(type.rawValue) \($0.rawValue)" } ?? type.rawValue }

    /// The notification in words: its label and UUID.
    public var name: String { "\(label) notification \(notificationUUID ?? "(no notificationUUID)")" }

    /// Orders by signedDate, then type, subtype and UUID (an absent subtype or UUID first): the order of their
    /// words, compared as values.
    public static func < (lhs: NotificationMention, rhs: NotificationMention) -> Bool {
        if lhs.signedDate != rhs.signedDate {
            return (lhs.signedDate ?? .distantPast) < (rhs.signedDate ?? .distantPast)
        }
        if lhs.type != rhs.type { return lhs.type.rawValue < rhs.type.rawValue }
        if lhs.subtype != rhs.subtype { return precedes(lhs.subtype?.rawValue, rhs.subtype?.rawValue) }
        return precedes(lhs.notificationUUID, rhs.notificationUUID)
    }

    /// Whether an optional text sorts first: absent before any text.
    private static func precedes(_ lhs: String?, _ rhs: String?) -> Bool {
        guard let rhs else { return false }
        guard let lhs else { return true }
        return lhs < rhs
    }
}
