/// Why a signed transaction or app transaction that an app sent was refused, with the field that decided it.
///
/// The restore and link path receives a transaction (StoreKit's `jwsRepresentation`) or an `AppTransaction` from the
/// app, not a notification from Apple. `path` names the field at fault in the decoded payload, such as `environment`
/// or `bundleId`; it is empty when the signature is at fault. A refused transaction links and grants nothing.
public struct TransactionRejection: Error, LocatedProblem {
    /// The reason for a rejection; an open set, so later versions may add codes.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The payload's environment (`environment`, or an app transaction's `receiptType`) is not the policy's.
        public static let wrongEnvironment = Code(rawValue: "wrong_environment")
        /// The payload names another app's bundle identifier, or none.
        public static let wrongBundleId = Code(rawValue: "wrong_bundle_id")
        /// The app transaction names another app's Apple identifier, or none where production requires one.
        public static let wrongAppAppleId = Code(rawValue: "wrong_app_apple_id")
        /// The verifier refused the signed string.
        public static let signatureInvalid = Code(rawValue: "signature_invalid")
        /// The verifier could not complete, as when its online revocation check is unreachable: retry later.
        public static let verificationUnavailable = Code(rawValue: "verification_unavailable")
        /// The verifier does not implement the method for this kind of string, so it refuses every one.
        public static let verificationNotImplemented = Code(rawValue: "verification_not_implemented")
        /// The verified payload is not a document of the expected kind.
        public static let undecodable = Code(rawValue: "undecodable")
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

    /// Whether the refusal is final or decided nothing (`verification_unavailable`); derived from `code`.
    public var outcome: IntakeOutcome {
        code == .verificationUnavailable ? .retryLater : .refused
    }
}
