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
    public struct Code: OpenCode, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An entry of another environment than the rebuild's; it never grants.
        public static let foreignEnvironment = Code(rawValue: "foreign_environment")
        /// An entry without an environment; it never grants.
        public static let missingEnvironment = Code(rawValue: "missing_environment")
        /// A notification without the signedDate the rebuild needs to place its event in time.
        public static let incompleteNotification = Code(rawValue: "incomplete_notification")
        /// A transaction without the identifiers or purchase date the rebuild needs; it never grants.
        public static let incompleteTransaction = Code(rawValue: "incomplete_transaction")
        /// A transaction whose newest snapshot was left out, so that its older snapshots grant nothing.
        public static let untrustedSnapshot = Code(rawValue: "untrusted_snapshot")
        /// A snapshot signed after the instant of evaluation that was set aside, or used because it takes access
        /// away or because nothing signed by then is known.
        public static let signedAfterInstant = Code(rawValue: "signed_after_instant")
        /// A value no real payload carries (an expiry or revocation before the purchase, an empty identifier, a
        /// quantity below 1, a negative price, a date before the App Store opened); the entry never grants.
        public static let impossibleValue = Code(rawValue: "impossible_value")
        /// An entry of another app than the catalog's `bundleId`; it never grants.
        public static let foreignBundle = Code(rawValue: "foreign_bundle")
        /// A history that names more than one bundle id while the catalog names none.
        public static let mixedBundles = Code(rawValue: "mixed_bundles")
        /// A transaction whose type disagrees with the catalog's type for its product; it never grants.
        public static let catalogTypeMismatch = Code(rawValue: "catalog_type_mismatch")
        /// A product the history names that the catalog given lacks; it unlocks no entitlement.
        public static let uncataloguedProduct = Code(rawValue: "uncatalogued_product")
        /// A transaction whose snapshots disagree on what never changes (originalTransactionId, productId,
        /// purchaseDate); it never grants.
        public static let inconsistentTransaction = Code(rawValue: "inconsistent_transaction")
        /// Two different snapshots of one transaction or renewal info with the same signedDate.
        public static let conflictingSnapshots = Code(rawValue: "conflicting_snapshots")
        /// A notification type this library does not know; its contents were still evaluated.
        public static let unknownNotificationType = Code(rawValue: "unknown_notification_type")
        /// A notification subtype this library does not know; its contents were still evaluated.
        public static let unknownNotificationSubtype = Code(rawValue: "unknown_notification_subtype")
        /// An ownership type this library does not know; the transaction counts, without management rights.
        public static let unknownOwnership = Code(rawValue: "unknown_ownership")
        /// A product type this library does not know or cannot find; access only where an expiry bounds it.
        public static let unknownProductType = Code(rawValue: "unknown_product_type")
        /// A revocation type this library does not know; the cause is reported as unknown.
        public static let unknownRevocationType = Code(rawValue: "unknown_revocation_type")
        /// A revocation reason this library does not know.
        public static let unknownRevocationReason = Code(rawValue: "unknown_revocation_reason")
        /// An offer type this library does not know; the period is reported as normal.
        public static let unknownOfferType = Code(rawValue: "unknown_offer_type")
        /// An auto-renew status this library does not know; willRenew is reported as unknown.
        public static let unknownAutoRenewStatus = Code(rawValue: "unknown_auto_renew_status")
        /// A consumable marked FAMILY_SHARED, which Family Sharing never allows.
        public static let familySharedConsumable = Code(rawValue: "family_shared_consumable")
        /// A non-renewing subscription (or a product of unknown type) with no known duration; no access.
        public static let missingDuration = Code(rawValue: "missing_duration")
        /// An auto-renewable transaction without an expiresDate; no access.
        public static let missingExpiresDate = Code(rawValue: "missing_expires_date")
        /// A REVOKE notification about a transaction that is not FAMILY_SHARED.
        public static let unexpectedRevoke = Code(rawValue: "unexpected_revoke")
        /// A price whose currency is unknown or whose amount is not whole minor units.
        public static let inexactPrice = Code(rawValue: "inexact_price")
    }

    public var severity: Severity
    public var code: Code
    /// What happened, naming the transaction or notification concerned.
    public var message: String

    public init(severity: Severity, code: Code, message: String) {
        self.severity = severity
        self.code = code
        self.message = message
    }

    public var description: String { "\(severity.rawValue) \(code): \(message)" }
}

extension Diagnostic: Codable {}

extension Diagnostic: Comparable {
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        (lhs.severity.rawValue, lhs.code.rawValue, lhs.message) < (
            rhs.severity.rawValue, rhs.code.rawValue, rhs.message
        )
    }
}
