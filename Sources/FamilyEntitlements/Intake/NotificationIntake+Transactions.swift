#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension NotificationIntake {
    /// Verifies a signed transaction that an app sent (StoreKit's `jwsRepresentation`), decodes it and checks it.
    ///
    /// For the restore and link path: the verifier checks the signature, then `NotificationPolicy.check(_:)` the
    /// environment and bundle. A verified transaction proves a purchase, not who is asking: link it to the user of the
    /// server's own session, never to an account named in the request.
    public func verify(signedTransaction: String) async throws(TransactionRejection) -> TransactionPayload {
        let transaction = try Self.decode(
            TransactionPayload.self,
            from: try await verified { try await verifier.verifyTransaction(signedTransaction: signedTransaction) })
        if let rejection = policy.check(transaction) { throw rejection }
        return transaction
    }

    /// Verifies a signed `AppTransaction` that an app sent, decodes it and checks it against the policy.
    ///
    /// It needs a verifier that implements `verifyAppTransaction(signedAppTransaction:)`; with the default
    /// implementation every string is refused with `verification_not_implemented`.
    public func verify(signedAppTransaction: String) async throws(TransactionRejection) -> AppTransactionPayload {
        let appTransaction = try Self.decode(
            AppTransactionPayload.self,
            from: try await verified {
                try await verifier.verifyAppTransaction(signedAppTransaction: signedAppTransaction)
            })
        if let rejection = policy.check(appTransaction) { throw rejection }
        return appTransaction
    }

    func verified(_ verify: () async throws -> Data) async throws(TransactionRejection) -> Data {
        do {
            return try await verify()
        } catch {
            switch VerificationFailure(error) {
            case .unavailable(let message):
                throw TransactionRejection(code: .verificationUnavailable, path: "", message: message)
            case .notImplemented(let message):
                throw TransactionRejection(code: .verificationNotImplemented, path: "", message: message)
            case .invalid(let message):
                throw TransactionRejection(code: .signatureInvalid, path: "", message: message)
            case .refused(let cause, let message):
                throw TransactionRejection(code: .refusal(cause), path: "", message: message)
            }
        }
    }

    static func decode<T: AppStorePayload>(
        _ type: T.Type, from payload: Data
    ) throws(TransactionRejection) -> T {
        do {
            return try T(jsonData: payload)
        } catch {
            throw TransactionRejection(code: .undecodable, path: error.path, message: error.message)
        }
    }
}
