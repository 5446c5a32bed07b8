/// Which notifications a service accepts: those of its own app, in its own environment.
///
/// Apply it to every notification after its signatures are verified (`NotificationIntake` does both). It compares the
/// app and environment the notification names (in `data`, `summary`, `externalPurchaseToken` or `appData`) with the
/// configured ones, then the nested transaction and renewal information with the notification around them. Production
/// accepts only `Production`: anyone can make a sandbox account, and Xcode and local-testing payloads are not signed by
/// the App Store at all. A production policy requires `appAppleId`, as Apple's `SignedDataVerifier` does.
public struct NotificationPolicy: Hashable, Sendable {
    /// The only environment whose notifications are accepted.
    public let environment: Environment
    /// The app's bundle identifier; Apple's `bundleId`.
    public let bundleId: String
    /// The app's Apple identifier; Apple's `appAppleId`. Always set for `Environment.production`.
    public let appAppleId: Int64?

    /// A policy for the environment, bundle identifier and Apple identifier the service runs with.
    ///
    /// Throws when `environment` is `Production` and `appAppleId` is nil, or when `bundleId` is empty.
    public init(environment: Environment, bundleId: String, appAppleId: Int64?) throws(ConfigurationError) {
        guard !bundleId.isEmpty else {
            throw ConfigurationError(code: .bundleIdEmpty, message: "the bundle identifier is empty")
        }
        guard environment != .production || appAppleId != nil else {
            throw ConfigurationError(
                code: .appAppleIdRequired,
                message: "a production policy needs the app's appAppleId, as Apple's verifier does")
        }
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }

    /// A policy for the production App Store.
    public static func production(bundleId: String, appAppleId: Int64) -> NotificationPolicy {
        NotificationPolicy(checkedEnvironment: .production, bundleId: bundleId, appAppleId: appAppleId)
    }

    /// A policy for Apple's sandbox; `appAppleId` is checked only where both sides have one.
    public static func sandbox(bundleId: String, appAppleId: Int64? = nil) -> NotificationPolicy {
        NotificationPolicy(checkedEnvironment: .sandbox, bundleId: bundleId, appAppleId: appAppleId)
    }

    private init(checkedEnvironment: Environment, bundleId: String, appAppleId: Int64?) {
        self.environment = checkedEnvironment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }

    /// A policy that cannot be used as configured.
    public struct ConfigurationError: Error, CodedProblem {
        /// What is wrong with the configuration; an open set.
        public struct Code: OpenCode {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            /// A production policy without `appAppleId`.
            public static let appAppleIdRequired = Code(rawValue: "app_apple_id_required")
            /// An empty bundle identifier.
            public static let bundleIdEmpty = Code(rawValue: "bundle_id_empty")
        }

        /// What is wrong.
        public var code: Code
        /// What is wrong, in words.
        public var message: String

        public init(code: Code, message: String) {
            (self.code, self.message) = (code, message)
        }
    }
}

extension NotificationPolicy {
    /// Accepts or rejects one decoded notification whose nested payloads are decoded in `data.transactionInfo` and
    /// `data.renewalInfo`.
    ///
    /// The notification's own values are checked first, then the nested ones; the first failure is the answer. A
    /// notification type, subtype or ownership type the library does not know does not reject: it is accepted and
    /// listed in `unknownValues`.
    public func evaluate(_ notification: NotificationPayload) -> NotificationDecision {
        guard let notificationType = notification.notificationType else {
            return .reject(
                NotificationRejection(
                    code: .missingNotificationType, path: "notificationType",
                    message: "the notification has no notificationType"))
        }
        guard let identity = AppIdentity(notification) else {
            return .reject(
                NotificationRejection(
                    code: .missingAppIdentity, path: "",
                    message: "the notification has none of data, summary, externalPurchaseToken and appData, "
                        + "so nothing names its app and environment"))
        }
        if let rejection = check(identity) ?? checkNested(notification.data, environment: identity.environment) {
            return .reject(rejection)
        }
        return .accept(unknownValues: Self.unknownValues(notification, type: notificationType))
    }

    private func check(_ identity: AppIdentity) -> NotificationRejection? {
        if identity.environment != environment {
            return NotificationRejection(
                code: .wrongEnvironment, path: identity.environmentPath,
                message: "expected \(environment), found \(Self.describe(identity.environment))")
        }
        if identity.bundleId != bundleId {
            return NotificationRejection(
                code: .wrongBundleId, path: identity.prefix + ".bundleId",
                message: "expected \"\(bundleId)\", found \(Self.describe(identity.bundleId))")
        }
        let appAppleIdRequired = environment == .production
        let appAppleIdDiffers = appAppleId != nil && identity.appAppleId != nil && identity.appAppleId != appAppleId
        if (appAppleIdRequired && identity.appAppleId != appAppleId) || appAppleIdDiffers {
            return NotificationRejection(
                code: .wrongAppAppleId, path: identity.prefix + ".appAppleId",
                message: "expected \(Self.describe(appAppleId)), found \(Self.describe(identity.appAppleId))")
        }
        return nil
    }

    private func checkNested(_ data: NotificationData?, environment wrapperEnvironment: Environment?)
        -> NotificationRejection?
    {
        guard let data else { return nil }
        let transactionPath = "data.signedTransactionInfo"
        let renewalPath = "data.signedRenewalInfo"
        if data.signedTransactionInfo != nil, data.transactionInfo == nil {
            return Self.notDecoded(transactionPath)
        }
        if data.signedRenewalInfo != nil, data.renewalInfo == nil {
            return Self.notDecoded(renewalPath)
        }
        if let transaction = data.transactionInfo {
            if transaction.environment != wrapperEnvironment {
                return Self.nestedMismatch(
                    .nestedEnvironmentMismatch, transactionPath + ".environment",
                    wrapper: Self.describe(wrapperEnvironment), nested: Self.describe(transaction.environment))
            }
            if transaction.bundleId != data.bundleId {
                return Self.nestedMismatch(
                    .nestedBundleIdMismatch, transactionPath + ".bundleId",
                    wrapper: Self.describe(data.bundleId), nested: Self.describe(transaction.bundleId))
            }
        }
        if let renewalInfo = data.renewalInfo, renewalInfo.environment != wrapperEnvironment {
            return Self.nestedMismatch(
                .nestedEnvironmentMismatch, renewalPath + ".environment",
                wrapper: Self.describe(wrapperEnvironment), nested: Self.describe(renewalInfo.environment))
        }
        return nil
    }

    private static func notDecoded(_ path: String) -> NotificationRejection {
        NotificationRejection(
            code: .nestedNotDecoded, path: path,
            message: "the signed string is present but its contents were not verified and decoded")
    }

    private static func nestedMismatch(
        _ code: NotificationRejection.Code, _ path: String, wrapper: String, nested: String
    ) -> NotificationRejection {
        NotificationRejection(code: code, path: path, message: "the notification says \(wrapper), this says \(nested)")
    }

    private static func unknownValues(_ notification: NotificationPayload, type: NotificationType) -> [UnknownValue] {
        var unknown: [UnknownValue] = []
        if !type.isKnown {
            unknown.append(UnknownValue(path: "notificationType", rawValue: type.rawValue))
        }
        if let subtype = notification.subtype, !subtype.isKnown {
            unknown.append(UnknownValue(path: "subtype", rawValue: subtype.rawValue))
        }
        if let ownership = notification.data?.transactionInfo?.inAppOwnershipType, !ownership.isKnown {
            unknown.append(
                UnknownValue(path: "data.signedTransactionInfo.inAppOwnershipType", rawValue: ownership.rawValue))
        }
        return unknown
    }

    private static func describe(_ value: (some CustomStringConvertible)?) -> String {
        guard let value else { return "nothing" }
        return "\"\(value)\""
    }
}

/// The app and environment a notification names, from whichever of its parts carries them.
private struct AppIdentity {
    var prefix: String
    var environmentPath: String
    var environment: Environment?
    var bundleId: String?
    var appAppleId: Int64?

    /// Reads `data`, else `summary`, else `externalPurchaseToken`, else `appData`, in the order Apple's verifier does.
    ///
    /// An external purchase token names no environment: as in Apple's verifier, an `externalPurchaseId` starting with
    /// `SANDBOX` is a sandbox token and any other is a production one.
    init?(_ notification: NotificationPayload) {
        if let data = notification.data {
            self.init(prefix: "data", data.environment, data.bundleId, data.appAppleId)
        } else if let summary = notification.summary {
            self.init(prefix: "summary", summary.environment, summary.bundleId, summary.appAppleId)
        } else if let token = notification.externalPurchaseToken {
            let isSandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
            self.init(
                prefix: "externalPurchaseToken", isSandbox ? .sandbox : .production, token.bundleId, token.appAppleId)
            environmentPath = "externalPurchaseToken.externalPurchaseId"
        } else if let appData = notification.appData {
            self.init(prefix: "appData", appData.environment, appData.bundleId, appData.appAppleId)
        } else {
            return nil
        }
    }

    private init(prefix: String, _ environment: Environment?, _ bundleId: String?, _ appAppleId: Int64?) {
        self.prefix = prefix
        self.environmentPath = prefix + ".environment"
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }
}
