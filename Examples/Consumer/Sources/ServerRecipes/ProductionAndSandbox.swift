import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// One intake per notification URL: production's and the sandbox's, each with its own verifier and policy.
struct NotificationURLs {
    let production: NotificationIntake<AppleSignedDataVerifier>
    let sandbox: NotificationIntake<AppleSignedDataVerifier>

    init(bundleId: String, appAppleId: Int64, appleRootCertificates: [Data]) throws {
        production = NotificationIntake(
            policy: .production(bundleId: bundleId, appAppleId: appAppleId),
            verifier: AppleSignedDataVerifier(
                verifier: try SignedDataVerifier(
                    rootCertificates: appleRootCertificates, bundleId: bundleId, appAppleId: appAppleId,
                    environment: .production, enableOnlineChecks: true)))
        sandbox = NotificationIntake(
            policy: .sandbox(bundleId: bundleId, appAppleId: appAppleId),
            verifier: AppleSignedDataVerifier(
                verifier: try SignedDataVerifier(
                    rootCertificates: appleRootCertificates, bundleId: bundleId, appAppleId: appAppleId,
                    environment: .sandbox, enableOnlineChecks: true)))
    }
}

/// Apple's root certificates, DER files from https://www.apple.com/certificateauthority/ shipped with the service.
func appleRootCertificates(in directory: URL) throws -> [Data] {
    try ["AppleRootCA-G3.cer", "AppleRootCA-G2.cer", "AppleIncRootCertificate.cer"].map { name in
        try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
