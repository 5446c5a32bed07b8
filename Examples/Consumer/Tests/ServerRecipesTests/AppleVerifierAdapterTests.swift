import AppStoreServerLibrary
import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import ServerRecipes

/// Each of Apple's verification errors, through the documented adapter, reaches the intake as its own code.
struct AppleVerifierAdapterTests {
    /// A verifier whose every answer is the adapter's error for one of Apple's verification errors.
    struct Answering: SignedDataVerifying {
        let reason: VerificationError

        func verifyNotification(signedPayload: String) async throws -> Data {
            throw AppleSignedDataVerifier.error(for: reason)
        }
        func verifyTransaction(signedTransaction: String) async throws -> Data {
            throw AppleSignedDataVerifier.error(for: reason)
        }
        func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data {
            throw AppleSignedDataVerifier.error(for: reason)
        }
    }

    @Test(arguments: [
        (VerificationError.INVALID_APP_IDENTIFIER, "wrong_bundle_id", 200),
        (.INVALID_ENVIRONMENT, "wrong_environment", 200),
        (.INVALID_JWT_FORMAT, "malformed_jws", 200),
        (.INVALID_CERTIFICATE, "signature_invalid", 200),
        (.VERIFICATION_FAILURE, "signature_invalid", 200),
        (.RETRYABLE_VERIFICATION_FAILURE, "verification_unavailable", 503),
    ])
    func eachRefusalHasItsCode(_ reason: VerificationError, _ code: String, _ status: Int) async throws {
        let intake = NotificationIntake(
            policy: .production(bundleId: Recipe.app.bundleId, appAppleId: 1_234_567_890),
            verifier: Answering(reason: reason))
        let signed = try Recipe.signedPayload(day: 0)
        let notification = await #expect(throws: NotificationRejection.self) {
            try await intake.receive(signedPayload: signed)
        }
        #expect(notification?.code.rawValue == code)
        #expect(notification?.httpStatus == status)
        let transaction = await #expect(throws: TransactionRejection.self) {
            try await intake.verify(signedTransaction: signed)
        }
        #expect(transaction?.code.rawValue == code)
        #expect(transaction?.httpStatus == status)
    }
}
