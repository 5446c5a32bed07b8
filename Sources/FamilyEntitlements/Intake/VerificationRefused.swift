/// The error a `SignedDataVerifying` adapter throws when the verifier decided against a string for a stated cause, so
/// that the intake's refusal names that cause instead of a forged signature.
///
/// Apple's `SignedDataVerifier` answers `INVALID_APP_IDENTIFIER` when the string names another bundle id than the
/// verifier was configured with, `INVALID_ENVIRONMENT` when it names another environment, and `INVALID_JWT_FORMAT`
/// when it is not a JWS at all. An operator who reads `signature_invalid` for each looks for a forgery where the cause
/// is a wrong bundle id or environment in the service's own configuration. Throw this with the matching cause; the
/// intake refuses for good (HTTP 200, since a retry gets the same answer) with the code the cause names. Any other
/// error, and `signatureInvalid`, is `signature_invalid`; `VerificationUnavailable` alone asks Apple to retry.
public struct VerificationRefused: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the verifier refused the string.
    public enum Cause: Hashable, Sendable {
        /// The string names another app's bundle identifier than the verifier's (Apple: `INVALID_APP_IDENTIFIER`):
        /// the intake's `wrong_bundle_id`.
        case wrongBundleId
        /// The string names another environment than the verifier's (Apple: `INVALID_ENVIRONMENT`): the intake's
        /// `wrong_environment`.
        case wrongEnvironment
        /// The string is not a JWS in compact form, or its parts cannot be read (Apple: `INVALID_JWT_FORMAT`): the
        /// intake's `malformed_jws`.
        case malformed
        /// The certificate chain or the signature does not verify (Apple: `INVALID_CERTIFICATE`,
        /// `VERIFICATION_FAILURE`): the intake's `signature_invalid`.
        case signatureInvalid
    }

    /// Why the verifier refused the string.
    public var cause: Cause
    /// The verifier's own words, such as Apple's `INVALID_APP_IDENTIFIER`.
    public var reason: String

    public init(_ cause: Cause, reason: String) {
        self.cause = cause
        self.reason = reason
    }

    public var description: String { "verification refused (\(cause)): \(reason)" }
}

extension IntakeRejectionCode {
    /// The signed string is not a JWS in compact form, as the verifier found (`VerificationRefused.Cause.malformed`).
    public static var malformedJWS: Self { Self(rawValue: "malformed_jws") }

    /// The code of a refusal for `cause`.
    static func refusal(_ cause: VerificationRefused.Cause) -> Self {
        switch cause {
        case .wrongBundleId: .wrongBundleId
        case .wrongEnvironment: .wrongEnvironment
        case .malformed: .malformedJWS
        case .signatureInvalid: .signatureInvalid
        }
    }
}
