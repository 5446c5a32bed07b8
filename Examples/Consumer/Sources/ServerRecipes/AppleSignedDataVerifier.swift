import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// Apple's verifier behind FamilyEntitlements' verification seam.
struct AppleSignedDataVerifier: SignedDataVerifying {
    let verifier: SignedDataVerifier

    /// Apple's `VerificationError` is not an `Error`; this carries it.
    struct Refused: Error {
        let reason: VerificationError
    }

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
        case .invalid(.RETRYABLE_VERIFICATION_FAILURE):
            // The online revocation check could not reach Apple: no verdict. The intake answers 503; Apple retries.
            throw VerificationUnavailable(reason: "RETRYABLE_VERIFICATION_FAILURE")
        case .invalid(let reason):
            throw Refused(reason: reason)
        }
    }
}
