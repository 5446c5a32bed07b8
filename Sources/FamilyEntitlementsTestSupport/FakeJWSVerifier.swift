import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A verifier for tests: it accepts exactly what `FakeJWSSigner` signs and refuses anything else as invalid.
///
/// Give it to `NotificationIntake` in your tests where production has Apple's verifier. It checks each string on its
/// own, as Apple's does, and returns the payload that the fake signature covers. Set `outage` to make every
/// verification fail retryably (`VerificationUnavailable`), as Apple's verifier does when its online revocation check
/// cannot reach the network: the intake then answers 503 and Apple would send the notification again. It checks no
/// app or environment: that is the policy's job. NOT a verifier of Apple's signatures: never use it in production.
public struct FakeJWSVerifier: SignedDataVerifying, Hashable {
    /// When set, every verification throws it instead of checking anything.
    public var outage: VerificationUnavailable?

    public init(outage: VerificationUnavailable? = nil) {
        self.outage = outage
    }

    /// A verifier in an outage: every verification fails retryably with `reason`.
    public static func unavailable(
        reason: String = "RETRYABLE_VERIFICATION_FAILURE: the online revocation check could not reach the network"
    ) -> FakeJWSVerifier {
        FakeJWSVerifier(outage: VerificationUnavailable(reason: reason))
    }

    /// Why a string was refused: it is not a compact JWS, or not signed by `FakeJWSSigner`.
    public struct InvalidSignature: Error, Hashable, Sendable, CustomStringConvertible {
        /// What was wrong with the string.
        public var reason: String

        public init(reason: String) {
            self.reason = reason
        }

        public var description: String { "invalid signature: \(reason)" }
    }

    public func verifyNotification(signedPayload: String) async throws -> Data { try check(signedPayload) }
    public func verifyTransaction(signedTransaction: String) async throws -> Data { try check(signedTransaction) }
    public func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data { try check(signedRenewalInfo) }
    public func verifyAppTransaction(signedAppTransaction: String) async throws -> Data {
        try check(signedAppTransaction)
    }

    private func check(_ signed: String) throws -> Data {
        if let outage { throw outage }
        let jws: UnverifiedJWS
        let keyIdentifier: String?
        do {
            jws = try UnverifiedJWS(compact: signed)
            keyIdentifier = try jws.header().kid
        } catch {
            throw InvalidSignature(reason: "not a compact JWS: \(error)")
        }
        guard keyIdentifier == FakeJWSSigner.keyIdentifier, jws.signature == FakeJWSSigner.signatureMarker else {
            throw InvalidSignature(reason: "the signature is not FakeJWSSigner's")
        }
        return jws.payloadData
    }
}
