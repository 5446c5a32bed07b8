/// Why a notification was refused at the trust boundary, with the place in the notification that decided it.
///
/// `path` names the field at fault in the decoded notification, such as `data.environment` or
/// `data.signedTransactionInfo.bundleId`; it is `signedPayload` when the notification's own signature or JSON is at
/// fault. A rejected notification grants and removes nothing. Answer Apple with `httpStatus` and log `description`:
/// a refusal is final (200), but `verification_unavailable` decided nothing (503, so that Apple sends it again).
public struct NotificationRejection: Error, LocatedProblem {
    /// The reason for a rejection; an open set, so later versions may add codes.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The notification's environment is not the one the service runs in, such as `Sandbox` in production.
        public static let wrongEnvironment = Code(rawValue: "wrong_environment")
        /// The notification names another app's bundle identifier.
        public static let wrongBundleId = Code(rawValue: "wrong_bundle_id")
        /// The notification names another app's Apple identifier, or none where production requires one.
        public static let wrongAppAppleId = Code(rawValue: "wrong_app_apple_id")
        /// A nested transaction or renewal information has another environment than the notification around it.
        public static let nestedEnvironmentMismatch = Code(rawValue: "nested_environment_mismatch")
        /// A nested transaction has another bundle identifier than the notification around it.
        public static let nestedBundleIdMismatch = Code(rawValue: "nested_bundle_id_mismatch")
        /// A nested signed string was not decoded, so the policy cannot check it; run it through the intake.
        public static let nestedNotDecoded = Code(rawValue: "nested_not_decoded")
        /// The notification has no `notificationType`.
        public static let missingNotificationType = Code(rawValue: "missing_notification_type")
        /// The notification has none of `data`, `summary`, `externalPurchaseToken` and `appData` to name its app.
        public static let missingAppIdentity = Code(rawValue: "missing_app_identity")
        /// The verifier refused a signed string: the notification or one of its nested strings.
        public static let signatureInvalid = Code(rawValue: "signature_invalid")
        /// The verifier could not complete, as when its online revocation check is unreachable: retry later.
        ///
        /// The only code whose outcome is `IntakeOutcome.retryLater`; the verifier threw `VerificationUnavailable`.
        public static let verificationUnavailable = Code(rawValue: "verification_unavailable")
        /// A verified payload is not a document of the expected kind.
        public static let undecodable = Code(rawValue: "undecodable")
    }

    /// The reason for the rejection.
    public var code: Code
    /// The field at fault, as a dotted path in the notification.
    public var path: String
    /// What was wrong, in words, with the expected and found values where there are some.
    public var message: String

    public init(code: Code, path: String, message: String) {
        (self.code, self.path, self.message) = (code, path, message)
    }

    /// Whether the refusal is final or decided nothing; derived from `code`.
    public var outcome: IntakeOutcome {
        code == .verificationUnavailable ? .retryLater : .refused
    }

    /// The HTTP status to answer Apple's notification POST with: 503 for `verification_unavailable`, else 200.
    public var httpStatus: Int { outcome.httpStatus }
}
