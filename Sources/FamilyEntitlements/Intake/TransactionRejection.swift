/// Why a signed transaction or app transaction that an app sent was refused, with the field that decided it.
///
/// The restore and link path receives a transaction (StoreKit's `jwsRepresentation`) or an `AppTransaction` from the
/// app, not a notification from Apple. `path` names the field at fault in the decoded payload, such as `environment`
/// or `bundleId`; it is empty when the signature is at fault. A refused transaction links and grants nothing.
public struct TransactionRejection: IntakeRejection {
    /// The reason for a rejection; an open set, so later versions may add codes. Besides its own, the codes of
    /// `IntakeRejectionCode`: `wrongEnvironment`, `wrongBundleId`, `wrongAppAppleId`, `signatureInvalid`,
    /// `verificationUnavailable` and `undecodable`.
    public struct Code: IntakeRejectionCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The verifier does not implement the method for this kind of string, so it refuses every one.
        public static let verificationNotImplemented = Code(rawValue: "verification_not_implemented")
    }

    /// The reason for the rejection.
    public var code: Code
    /// The field at fault, as a dotted path in the decoded payload; empty for the signature.
    public var path: String
    /// What was wrong, in words, with the expected and found values where there are some.
    public var message: String

    public init(code: Code, path: String, message: String) {
        (self.code, self.path, self.message) = (code, path, message)
    }
}
