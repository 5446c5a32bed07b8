extension NotificationPolicy {
    /// Checks a verified transaction that an app sent (a restore, a link) against the policy's environment and app.
    ///
    /// Returns nil when the transaction is this app's, in this environment. Apple's transaction payload carries no
    /// `appAppleId`: its `bundleId` and `environment` are what name the app, and both must be present and equal to the
    /// policy's. Production accepts only `Production`, as for notifications.
    public func check(_ transaction: TransactionPayload) -> TransactionRejection? {
        if transaction.environment != environment {
            return TransactionRejection(
                code: .wrongEnvironment, path: "environment",
                message: "expected \(environment), found \(Self.quoted(transaction.environment))")
        }
        if transaction.bundleId != bundleId {
            return TransactionRejection(
                code: .wrongBundleId, path: "bundleId",
                message: "expected \"\(bundleId)\", found \(Self.quoted(transaction.bundleId))")
        }
        return nil
    }

    /// Checks a verified `AppTransaction` that an app sent against the policy's environment, bundle and Apple id.
    ///
    /// Returns nil when it is this app's, in this environment. Its environment is `receiptType`. As in Apple's
    /// verifier, a production policy requires the app transaction's `appAppleId` to equal its own; a sandbox policy
    /// compares them only where both have one (Apple leaves `appAppleId` out in the sandbox and in Xcode).
    public func check(_ appTransaction: AppTransactionPayload) -> TransactionRejection? {
        if appTransaction.receiptType != environment {
            return TransactionRejection(
                code: .wrongEnvironment, path: "receiptType",
                message: "expected \(environment), found \(Self.quoted(appTransaction.receiptType))")
        }
        if appTransaction.bundleId != bundleId {
            return TransactionRejection(
                code: .wrongBundleId, path: "bundleId",
                message: "expected \"\(bundleId)\", found \(Self.quoted(appTransaction.bundleId))")
        }
        let found = appTransaction.appAppleId
        let required = environment == .production
        if (required && found != appAppleId) || (appAppleId != nil && found != nil && found != appAppleId) {
            return TransactionRejection(
                code: .wrongAppAppleId, path: "appAppleId",
                message: "expected \(Self.quoted(appAppleId)), found \(Self.quoted(found))")
        }
        return nil
    }

    private static func quoted(_ value: (some CustomStringConvertible)?) -> String {
        guard let value else { return "nothing" }
        return "\"\(value)\""
    }
}
