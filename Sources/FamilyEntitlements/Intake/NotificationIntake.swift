#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The trust boundary for App Store Server Notifications: verify, decode, then apply the policy.
///
/// For each notification it verifies `signedPayload`, then verifies `data.signedTransactionInfo` and
/// `data.signedRenewalInfo` each on its own, decodes each verified payload, and only then applies the
/// `NotificationPolicy`. Decoded contents found inside the notification itself (`data.transactionInfo`,
/// `data.renewalInfo`) are discarded, and reported in `VerifiedNotification.warnings`: only what a signature of its own
/// covers reaches the caller.
///
/// A refusal is a thrown `NotificationRejection` whose `outcome` says whether it is final (`refused`, answer 200) or
/// decided nothing because the verifier could not complete (`retryLater`, answer 503 so that Apple sends it again):
/// answer Apple with its `httpStatus`. `verify(signedTransaction:)` and `verify(signedAppTransaction:)` apply the same
/// verifier and policy to what an app sends on a restore or a link.
public struct NotificationIntake<Verifier: SignedDataVerifying>: Sendable {
    /// Which notifications are accepted.
    public var policy: NotificationPolicy
    /// The service's verifier of signed strings.
    public var verifier: Verifier

    public init(policy: NotificationPolicy, verifier: Verifier) {
        self.policy = policy
        self.verifier = verifier
    }

    /// Verifies and checks the body Apple posts to the notification URL: JSON with `signedPayload`.
    public func receive(requestBody: some DataProtocol) async throws(NotificationRejection) -> VerifiedNotification {
        let body: NotificationRequestBody
        do {
            body = try NotificationRequestBody(jsonData: requestBody)
        } catch {
            throw NotificationRejection(
                code: .undecodable, path: error.path, message: "the request body is not Apple's: \(error.message)")
        }
        guard let signedPayload = body.signedPayload else {
            throw NotificationRejection(
                code: .undecodable, path: "signedPayload", message: "the request body has no signedPayload")
        }
        return try await receive(signedPayload: signedPayload)
    }

    /// Verifies and checks one notification's `signedPayload`.
    public func receive(signedPayload: String) async throws(NotificationRejection) -> VerifiedNotification {
        var notification = try Self.decode(
            NotificationPayload.self, at: "signedPayload",
            from: try await verified(signedPayload, at: "signedPayload", by: verifier.verifyNotification))
        var warnings: [PayloadDecodingWarning] = []
        if var data = notification.data {
            if data.transactionInfo != nil {
                warnings.append(Self.discarded("data.transactionInfo", signedBeside: "data.signedTransactionInfo"))
            }
            if data.renewalInfo != nil {
                warnings.append(Self.discarded("data.renewalInfo", signedBeside: "data.signedRenewalInfo"))
            }
            data.transactionInfo = nil
            data.renewalInfo = nil
            if let signed = data.signedTransactionInfo {
                let path = "data.signedTransactionInfo"
                data.transactionInfo = try Self.decode(
                    TransactionPayload.self, at: path,
                    from: try await verified(signed, at: path, by: verifier.verifyTransaction))
            }
            if let signed = data.signedRenewalInfo {
                let path = "data.signedRenewalInfo"
                data.renewalInfo = try Self.decode(
                    RenewalInfoPayload.self, at: path,
                    from: try await verified(signed, at: path, by: verifier.verifyRenewalInfo))
            }
            notification.data = data
        }
        switch policy.evaluate(notification) {
        case .accept(let unknownValues):
            return VerifiedNotification(notification: notification, unknownValues: unknownValues, warnings: warnings)
        case .reject(let rejection):
            throw rejection
        }
    }

    /// The warning for decoded contents at `path` inside a signed notification, which the intake does not take.
    private static func discarded(_ path: String, signedBeside signedPath: String) -> PayloadDecodingWarning {
        PayloadDecodingWarning(
            code: .unsignedContentsIgnored, path: path,
            message: "decoded contents inside the signed notification are ignored: Apple signs them on their own in "
                + "\(signedPath), and only that string, verified, is taken")
    }

    private func verified(
        _ signed: String, at path: String, by verify: (String) async throws -> Data
    ) async throws(NotificationRejection) -> Data {
        do {
            return try await verify(signed)
        } catch {
            switch VerificationFailure(error) {
            case .unavailable(let message):
                throw NotificationRejection(code: .verificationUnavailable, path: path, message: message)
            case .notImplemented(let message), .invalid(let message):
                throw NotificationRejection(code: .signatureInvalid, path: path, message: message)
            case .refused(let cause, let message):
                throw NotificationRejection(code: .refusal(cause), path: path, message: message)
            }
        }
    }

    private static func decode<T: AppStorePayload>(
        _ type: T.Type, at path: String, from payload: Data
    ) throws(NotificationRejection) -> T {
        do {
            return try T(jsonData: payload)
        } catch {
            let nested = error.nested(under: path)
            throw NotificationRejection(code: .undecodable, path: nested.path, message: nested.message)
        }
    }
}
