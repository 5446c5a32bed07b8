extension NotificationIntake {
    /// Verifies a signed renewal info (from Get All Subscription Statuses), decodes it and checks its environment.
    ///
    /// A renewal info carries no `bundleId`: the App Store Server API answers for the app whose key signed the
    /// request, and the verifier checks Apple's signature; the policy checks the environment.
    public func verify(signedRenewalInfo: String) async throws(TransactionRejection) -> RenewalInfoPayload {
        let renewalInfo = try Self.decode(
            RenewalInfoPayload.self,
            from: try await verified { try await verifier.verifyRenewalInfo(signedRenewalInfo: signedRenewalInfo) })
        if let rejection = policy.check(renewalInfo) { throw rejection }
        return renewalInfo
    }
}

extension NotificationPolicy {
    /// Checks a verified renewal info against the policy's environment; nil when it is of this environment.
    public func check(_ renewalInfo: RenewalInfoPayload) -> TransactionRejection? {
        guard renewalInfo.environment != environment else { return nil }
        return TransactionRejection(
            code: .wrongEnvironment, path: "environment",
            message: "expected \(environment), found "
                + (renewalInfo.environment.map { "\"\($0)\"" } ?? "nothing"))
    }
}
