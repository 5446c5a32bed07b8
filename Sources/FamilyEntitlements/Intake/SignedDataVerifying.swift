#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Checks the signatures of the App Store's signed strings; the service implements it with a cryptographic verifier.
///
/// This library ships no cryptography. A service adapts Apple's `SignedDataVerifier` (from
/// app-store-server-library-swift) in a few lines, as `docs/integrating.md` shows. Each method verifies one compact
/// JWS (its signature, and the certificate chain up to Apple's root) and returns the payload bytes that signature
/// covers, or throws. A verifier may also refuse payloads for another app or environment, as Apple's does.
///
/// Two kinds of failure: throw `VerificationUnavailable` when the verification could not be completed (Apple's
/// `RETRYABLE_VERIFICATION_FAILURE`, an online check that cannot reach the network), so that the string is tried again
/// later; throw any other error when the string is invalid, which is final.
///
/// The methods mirror Apple's verifier: the notification and each nested string are verified on their own, because
/// verifying a notification does not verify the `signedTransactionInfo` and `signedRenewalInfo` inside it.
public protocol SignedDataVerifying: Sendable {
    /// Verifies a notification's `signedPayload` and returns the JSON of Apple's `ResponseBodyV2DecodedPayload`.
    func verifyNotification(signedPayload: String) async throws -> Data
    /// Verifies a `signedTransactionInfo` and returns the JSON of Apple's `JWSTransactionDecodedPayload`.
    func verifyTransaction(signedTransaction: String) async throws -> Data
    /// Verifies a `signedRenewalInfo` and returns the JSON of Apple's `JWSRenewalInfoDecodedPayload`.
    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data
    /// Verifies a signed `AppTransaction` from the app and returns the JSON of Apple's `AppTransaction` payload.
    ///
    /// The default implementation refuses every string, so a verifier written before this method existed still
    /// compiles and never accepts an app transaction it did not check: implement it with Apple's
    /// `verifyAndDecodeAppTransaction(signedAppTransaction:)` to accept them.
    func verifyAppTransaction(signedAppTransaction: String) async throws -> Data
}

extension SignedDataVerifying {
    public func verifyAppTransaction(signedAppTransaction: String) async throws -> Data {
        throw VerificationNotImplemented(method: "verifyAppTransaction(signedAppTransaction:)")
    }
}

/// What the default implementation of a verifier method throws: the adapter does not verify this kind of string.
struct VerificationNotImplemented: Error, CustomStringConvertible {
    var method: String

    var description: String { "the verifier does not implement \(method), so it refuses every such string" }
}
