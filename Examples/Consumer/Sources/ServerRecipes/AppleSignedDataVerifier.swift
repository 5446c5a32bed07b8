import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// Apple's verifier behind FamilyEntitlements' verification seam.
struct AppleSignedDataVerifier: SignedDataVerifying {
    let verifier: SignedDataVerifier

    func verifyNotification(signedPayload: String) async throws -> Data {
        try payload(of: signedPayload, await verifier.verifyAndDecodeNotification(signedPayload: signedPayload))
    }

    func verifyTransaction(signedTransaction: String) async throws -> Data {
        try payload(
            of: signedTransaction, await verifier.verifyAndDecodeTransaction(signedTransaction: signedTransaction))
    }

    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data {
        try payload(
            of: signedRenewalInfo, await verifier.verifyAndDecodeRenewalInfo(signedRenewalInfo: signedRenewalInfo))
    }

    func verifyAppTransaction(signedAppTransaction: String) async throws -> Data {
        try payload(
            of: signedAppTransaction,
            await verifier.verifyAndDecodeAppTransaction(signedAppTransaction: signedAppTransaction))
    }

    private func payload<T>(of signed: String, _ result: VerificationResult<T>) throws -> Data {
        switch result {
        case .valid:
            return try UnverifiedJWS(compact: signed).payloadData
        case .invalid(let reason):
            throw Self.error(for: reason)
        }
    }

    /// What the intake reads of each of Apple's refusals: no verdict (503, Apple retries), or a refusal for good with
    /// the intake's code for its cause, so that a wrong bundle id or environment is not read as a forgery.
    static func error(for reason: VerificationError) -> any Error {
        switch reason {
        case .RETRYABLE_VERIFICATION_FAILURE:
            // The online revocation check could not reach Apple: no verdict. The intake answers 503; Apple retries.
            VerificationUnavailable(reason: "RETRYABLE_VERIFICATION_FAILURE")
        case .INVALID_APP_IDENTIFIER:
            VerificationRefused(.wrongBundleId, reason: "INVALID_APP_IDENTIFIER")  // wrong_bundle_id
        case .INVALID_ENVIRONMENT:
            VerificationRefused(.wrongEnvironment, reason: "INVALID_ENVIRONMENT")  // wrong_environment
        case .INVALID_JWT_FORMAT:
            VerificationRefused(.malformed, reason: "INVALID_JWT_FORMAT")  // malformed_jws
        default:
            // INVALID_CERTIFICATE, VERIFICATION_FAILURE: signature_invalid.
            VerificationRefused(.signatureInvalid, reason: "\(reason)")
        }
    }
}
