/// Something the rebuild noticed in the history that a service should log: never silently dropped.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable, Codable, CaseIterable {
        /// Something new or unusual that was still evaluated, such as an unknown notification type.
        case warning
        /// Data that was left out of the decision or cannot be trusted, such as a Sandbox entry in production.
        case error
    }

    /// What a diagnostic is about; an open set, so later versions may add codes.
    ///
    /// Each code carries its severity and the rule of the decision table that reports it, so that a diagnostic cannot
    /// pair a code with another severity or rule. Codes compare by raw value alone.
    public struct Code: OpenCode, Codable {
        public let rawValue: String
        /// How serious a diagnostic of this code is.
        public let severity: Severity
        /// The rule of the decision table that reports diagnostics of this code.
        public let rule: DecisionRule

        /// A code this library defines, or one that a later version added: an error of rule 10 (unknown values) until
        /// its diagnostic says otherwise.
        public init(rawValue: String) {
            self =
                Self.known.first { $0.rawValue == rawValue }
                ?? Code(rawValue: rawValue, severity: .error, rule: .unknownValues)
        }

        /// A code with its severity and rule.
        public init(rawValue: String, severity: Severity, rule: DecisionRule) {
            self.rawValue = rawValue
            self.severity = severity
            self.rule = rule
        }

        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.rawValue == rhs.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

        /// Every code this version of the library reports.
        public static let known: [Code] = [
            foreignEnvironment, missingEnvironment, incompleteNotification, incompleteTransaction, untrustedSnapshot,
            signedAfterInstant, impossibleValue, foreignBundle, mixedBundles, catalogTypeMismatch,
            uncataloguedProduct, inconsistentTransaction, conflictingSnapshots, unknownNotificationType,
            unknownNotificationSubtype, unknownOwnership, unknownProductType, unknownRevocationType,
            unknownRevocationReason, unknownOfferType, unknownAutoRenewStatus, familySharedConsumable,
            familySharedNonRenewing, missingDuration, appleStatusDisagrees, missingExpiresDate, unexpectedRevoke,
            inexactPrice, undecodableSignedString, undecodedSignedString, unsignedContentsIgnored, undatedEntry,
            invalidInstant, partialHistory,
        ]

        /// An entry of another environment than the rebuild's; it never grants.
        public static let foreignEnvironment = Code(
            rawValue: "foreign_environment", severity: .error, rule: .environment)
        /// An entry without an environment; it never grants.
        public static let missingEnvironment = Code(
            rawValue: "missing_environment", severity: .error, rule: .environment)
        /// A notification without the signedDate the rebuild needs to place its event in time. No longer reported: such
        /// a notification is placed by its nested payloads, or reported as `undatedEntry`; kept so that a report stored
        /// by an earlier release still names a known code.
        public static let incompleteNotification = Code(
            rawValue: "incomplete_notification", severity: .error, rule: .unknownValues)
        /// A transaction without the identifiers or purchase date the rebuild needs; it never grants.
        public static let incompleteTransaction = Code(
            rawValue: "incomplete_transaction", severity: .error, rule: .unknownValues)
        /// A transaction whose newest snapshot was left out, so that its older snapshots grant nothing.
        public static let untrustedSnapshot = Code(
            rawValue: "untrusted_snapshot", severity: .error, rule: .snapshots)
        /// A snapshot signed after the instant of evaluation that was set aside, or used because it takes access
        /// away or because nothing signed by then is known.
        public static let signedAfterInstant = Code(
            rawValue: "signed_after_instant", severity: .warning, rule: .snapshots)
        /// A value no real payload carries (an expiry or revocation before the purchase, an empty identifier, a
        /// quantity below 1, a negative price, a date before the App Store opened); the entry never grants.
        public static let impossibleValue = Code(
            rawValue: "impossible_value", severity: .error, rule: .unknownValues)
        /// An entry of another app than the catalog's `bundleId`; it never grants.
        public static let foreignBundle = Code(
            rawValue: "foreign_bundle", severity: .error, rule: .environment)
        /// A history that names more than one bundle id while the catalog names none.
        public static let mixedBundles = Code(
            rawValue: "mixed_bundles", severity: .error, rule: .environment)
        /// A transaction whose type disagrees with the catalog's type for its product; it never grants.
        public static let catalogTypeMismatch = Code(
            rawValue: "catalog_type_mismatch", severity: .error, rule: .customerStatus)
        /// A product the history names that the catalog given lacks; it unlocks no entitlement.
        public static let uncataloguedProduct = Code(
            rawValue: "uncatalogued_product", severity: .error, rule: .customerStatus)
        /// A transaction whose snapshots disagree on what never changes (originalTransactionId, productId,
        /// purchaseDate); it never grants.
        public static let inconsistentTransaction = Code(
            rawValue: "inconsistent_transaction", severity: .error, rule: .snapshots)
        /// Two different snapshots of one transaction or renewal info with the same signedDate.
        public static let conflictingSnapshots = Code(
            rawValue: "conflicting_snapshots", severity: .warning, rule: .snapshots)
        /// A notification type this library does not know; its contents were still evaluated.
        public static let unknownNotificationType = Code(
            rawValue: "unknown_notification_type", severity: .warning, rule: .unknownValues)
        /// A notification subtype this library does not know; its contents were still evaluated.
        public static let unknownNotificationSubtype = Code(
            rawValue: "unknown_notification_subtype", severity: .warning, rule: .unknownValues)
        /// An ownership type this library does not know; the transaction counts, without management rights.
        public static let unknownOwnership = Code(
            rawValue: "unknown_ownership", severity: .warning, rule: .unknownValues)
        /// A product type this library does not know or cannot find; access only where an expiry bounds it.
        public static let unknownProductType = Code(
            rawValue: "unknown_product_type", severity: .warning, rule: .unknownValues)
        /// A revocation type this library does not know; the cause is reported as unknown.
        public static let unknownRevocationType = Code(
            rawValue: "unknown_revocation_type", severity: .warning, rule: .revocationCause)
        /// A revocation reason this library does not know.
        public static let unknownRevocationReason = Code(
            rawValue: "unknown_revocation_reason", severity: .warning, rule: .revocationCause)
        /// An offer type this library does not know; the period is reported as normal.
        public static let unknownOfferType = Code(
            rawValue: "unknown_offer_type", severity: .warning, rule: .offers)
        /// An auto-renew status this library does not know; willRenew is reported as unknown.
        public static let unknownAutoRenewStatus = Code(
            rawValue: "unknown_auto_renew_status", severity: .warning, rule: .willRenew)
        /// A consumable marked FAMILY_SHARED, which Family Sharing never allows.
        public static let familySharedConsumable = Code(
            rawValue: "family_shared_consumable", severity: .error, rule: .oneTimePurchases)
        /// Apple's own status of a subscription, stated after everything else known of its chain, disagrees with the
        /// rebuilt state; both are named and neither is preferred.
        public static let appleStatusDisagrees = Code(
            rawValue: "apple_status_disagrees", severity: .warning, rule: .autoRenewableSubscriptions)
        /// A non-renewing subscription marked FAMILY_SHARED, which Family Sharing never allows; it grants nothing.
        public static let familySharedNonRenewing = Code(
            rawValue: "family_shared_non_renewing", severity: .error, rule: .oneTimePurchases)
        /// A non-renewing subscription (or a product of unknown type) with no known duration; no access.
        public static let missingDuration = Code(
            rawValue: "missing_duration", severity: .error, rule: .oneTimePurchases)
        /// An auto-renewable transaction without an expiresDate; no access.
        public static let missingExpiresDate = Code(
            rawValue: "missing_expires_date", severity: .error, rule: .autoRenewableSubscriptions)
        /// A REVOKE notification about a transaction that is not FAMILY_SHARED.
        public static let unexpectedRevoke = Code(
            rawValue: "unexpected_revoke", severity: .warning, rule: .revocationCause)
        /// A signed string of the input that could not be decoded (`PayloadDecodingWarning`'s code of that name, at
        /// its JSON path): an entry that could not be read, which might have named any chain, so nothing grants and
        /// the customer is inactive with reason `undetermined`.
        public static let undecodableSignedString = Code(
            rawValue: "undecodable_signed_string", severity: .error, rule: .unknownValues)
        /// A notification of the history that holds a signed string without its decoded contents, at the string's path
        /// (`notifications[2].data.signedTransactionInfo`): the rebuild never decodes a signed string, so the entry was
        /// not read. It might have named any chain, so nothing grants and the customer is inactive with reason
        /// `undetermined`, as for `undecodable_signed_string`. Verify the string and pass its payload
        /// (`NotificationIntake`), or read the file with `History.decodeUnverified(_:as:)`.
        public static let undecodedSignedString = Code(
            rawValue: "undecoded_signed_string", severity: .error, rule: .unknownValues)
        /// Decoded contents of the input written beside a signed string (`PayloadDecodingWarning`'s code of that
        /// name, at its JSON path): ignored, the signed string decided.
        public static let unsignedContentsIgnored = Code(
            rawValue: "unsigned_contents_ignored", severity: .warning, rule: .unknownValues)
        /// An entry that cannot be placed in time: no signedDate of its own, nor one its notification or its nested
        /// payloads give. One that ends access (a REVOKE, REFUND, EXPIRED, GRACE_PERIOD_EXPIRED, a revoking snapshot)
        /// still ends what it names; one that grants never grants.
        public static let undatedEntry = Code(
            rawValue: "undated_entry", severity: .error, rule: .snapshots)
        /// The instant of evaluation is not one the rebuild can decide at (NaN, an infinity, or after the year 9999):
        /// the report grants nothing.
        public static let invalidInstant = Code(
            rawValue: "invalid_instant", severity: .error, rule: .snapshots)
        /// The input was one page of Get Transaction History with more to come (`PayloadDecodingWarning`'s code of
        /// that name, at `hasMore`): the decision rests on that page alone, and a transaction of a later page (a
        /// refund, a revocation, a renewal) may change it. Fetch every page, or decide from a ledger that absorbed
        /// them all.
        public static let partialHistory = Code(
            rawValue: "partial_history", severity: .warning, rule: .unknownValues)
        /// A price whose currency is unknown or whose amount is not whole minor units.
        public static let inexactPrice = Code(
            rawValue: "inexact_price", severity: .warning, rule: .unknownValues)
    }

    public var code: Code
    /// What happened, naming the transaction or notification concerned.
    public var message: String

    /// How serious the diagnostic is: its code's severity.
    public var severity: Severity { code.severity }
    /// The rule of the decision table that reported the diagnostic: its code's rule.
    public var rule: DecisionRule { code.rule }

    /// Where the rebuild reported it; nil for a diagnostic made elsewhere (decoded, or made by a caller).
    package var origin: Origin?

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(severity.rawValue) \(code): \(message)" }

    /// Equal where the code and message are: where it was reported takes no part.
    public static func == (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension Diagnostic: Codable {
    enum CodingKeys: String, CodingKey {
        case severity, code, message
    }

    /// Reads a diagnostic as `EntitlementReport.contractJSON` writes it; a code this version does not know keeps the
    /// severity written with it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let severity = try container.decode(Severity.self, forKey: .severity)
        var code = try container.decode(Code.self, forKey: .code)
        if code.severity != severity {
            code = Code(rawValue: code.rawValue, severity: severity, rule: code.rule)
        }
        self.init(code, message: try container.decode(String.self, forKey: .message))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(severity, forKey: .severity)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
    }
}

extension Diagnostic: Comparable {
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.severity.rawValue, lhs.code.rawValue, lhs.message) < (
            rhs.severity.rawValue, rhs.code.rawValue, rhs.message
        )
    }
}
