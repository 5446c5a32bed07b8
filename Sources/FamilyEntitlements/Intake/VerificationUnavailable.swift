/// The error a `SignedDataVerifying` adapter throws when it could not complete a verification: retry later.
///
/// Throw it where the verifier could not decide, not where it decided against the string: Apple's `SignedDataVerifier`
/// answers `RETRYABLE_VERIFICATION_FAILURE` when its online revocation check cannot reach the network. The intake then
/// refuses nothing for good: it answers `IntakeOutcome.retryLater` (HTTP 503), so that Apple sends the notification
/// again. Any other error an adapter throws means the signed string is invalid, and the refusal is final.
public struct VerificationUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the verification could not be completed, such as Apple's `RETRYABLE_VERIFICATION_FAILURE`.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "verification unavailable: \(reason)" }
}
