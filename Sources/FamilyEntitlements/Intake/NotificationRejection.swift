/// Why a notification was refused at the trust boundary, with the place in the notification that decided it.
///
/// `path` names the field at fault in the decoded notification, such as `data.environment` or
/// `data.signedTransactionInfo.bundleId`; it is `signedPayload` when the notification's own signature or JSON is at
/// fault. A rejected notification grants and removes nothing. Answer Apple with `httpStatus` and log `description`:
/// a refusal is final (200), but `verification_unavailable` decided nothing (503, so that Apple sends it again).
public struct NotificationRejection: IntakeRejection {
    /// The reason for a rejection; an open set, so later versions may add codes. Besides its own, the codes of
    /// `IntakeRejectionCode`: `wrongEnvironment`, `wrongBundleId`, `wrongAppAppleId`, `signatureInvalid`,
    /// `verificationUnavailable` and `undecodable`.
    public struct Code: IntakeRejectionCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

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
}
