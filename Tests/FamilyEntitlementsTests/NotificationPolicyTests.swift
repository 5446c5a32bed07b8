import FamilyEntitlements
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Notifications for the policy table: one app, with a member's shared subscription as the default contents.
private enum PolicySample {
    static let bundleId = "com.example.family"
    static let appAppleId: Int64 = 1_234_567_890
    static let production = NotificationPolicy.production(bundleId: bundleId, appAppleId: appAppleId)
    static let sandbox = NotificationPolicy.sandbox(bundleId: bundleId)

    static func transaction(
        environment: Environment? = .production, bundleId: String? = bundleId, ownership: OwnershipType = .familyShared
    ) -> TransactionPayload {
        TransactionPayload(
            originalTransactionId: "2000000100", transactionId: "2000000101", bundleId: bundleId,
            productId: "family.monthly", type: .autoRenewable, inAppOwnershipType: ownership,
            environment: environment)
    }

    static func renewalInfo(environment: Environment? = .production) -> RenewalInfoPayload {
        RenewalInfoPayload(
            originalTransactionId: "2000000100", autoRenewProductId: "family.monthly", autoRenewStatus: .on,
            environment: environment)
    }

    static func notification(
        _ type: NotificationType? = .subscribed,
        subtype: NotificationSubtype? = .initialBuy,
        environment: Environment? = .production,
        bundleId: String? = bundleId,
        appAppleId: Int64? = appAppleId,
        transaction: TransactionPayload? = transaction(),
        renewalInfo: RenewalInfoPayload? = renewalInfo()
    ) -> NotificationPayload {
        NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: "7c6f1b6e-1111-4a55-9f0e-0d2c6a1f7a10",
            version: "2.0",
            data: NotificationData(
                environment: environment, appAppleId: appAppleId, bundleId: bundleId,
                signedTransactionInfo: transaction == nil ? nil : "signed.transaction.info",
                signedRenewalInfo: renewalInfo == nil ? nil : "signed.renewal.info",
                transactionInfo: transaction, renewalInfo: renewalInfo))
    }

    static func withParts(_ change: (inout NotificationPayload) -> Void) -> NotificationPayload {
        var payload = notification()
        change(&payload)
        return payload
    }
}

struct PolicyCase: CustomTestStringConvertible, Sendable {
    enum Expected: Equatable, Sendable {
        case accept(unknown: [UnknownValue])
        case reject(NotificationRejection.Code, path: String)
    }

    var testDescription: String
    var policy: NotificationPolicy = PolicySample.production
    var notification: NotificationPayload
    var expected: Expected

    static let accepted = Expected.accept(unknown: [])
}

@Suite struct NotificationPolicyTests {
    static let cases: [PolicyCase] = [
        PolicyCase(
            testDescription: "production: member's SUBSCRIBED for this app -> accept",
            notification: PolicySample.notification(), expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: member's REVOKE (no subtype) -> accept",
            notification: PolicySample.notification(.revoke, subtype: nil), expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: EXPIRED VOLUNTARY -> accept, never dropped (expired rows must end)",
            notification: PolicySample.notification(.expired, subtype: .voluntary), expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: DID_FAIL_TO_RENEW without grace -> accept, never dropped",
            notification: PolicySample.notification(.didFailToRenew, subtype: nil), expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: GRACE_PERIOD_EXPIRED -> accept, never dropped",
            notification: PolicySample.notification(.gracePeriodExpired, subtype: nil),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "sandbox policy: Sandbox notification without appAppleId -> accept",
            policy: PolicySample.sandbox,
            notification: PolicySample.notification(
                environment: .sandbox, appAppleId: nil, transaction: PolicySample.transaction(environment: .sandbox),
                renewalInfo: PolicySample.renewalInfo(environment: .sandbox)),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription:
                "sandbox policy with appAppleId: notification without one -> accept (compared where both have one)",
            policy: NotificationPolicy.sandbox(bundleId: PolicySample.bundleId, appAppleId: PolicySample.appAppleId),
            notification: PolicySample.notification(
                environment: .sandbox, appAppleId: nil, transaction: PolicySample.transaction(environment: .sandbox),
                renewalInfo: PolicySample.renewalInfo(environment: .sandbox)),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription:
                "production: external purchase token without externalPurchaseId is Production, as Apple reads it",
            notification: NotificationPayload(
                notificationType: .externalPurchaseToken, subtype: .unreported,
                externalPurchaseToken: ExternalPurchaseToken(
                    appAppleId: PolicySample.appAppleId, bundleId: PolicySample.bundleId)),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: TEST notification with data and no nested strings -> accept",
            notification: PolicySample.notification(.test, subtype: nil, transaction: nil, renewalInfo: nil),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: RENEWAL_EXTENSION SUMMARY names its app in summary -> accept",
            notification: NotificationPayload(
                notificationType: .renewalExtension, subtype: .summary,
                summary: NotificationSummary(
                    environment: .production, appAppleId: PolicySample.appAppleId, bundleId: PolicySample.bundleId)),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: RESCIND_CONSENT names its app in appData -> accept",
            notification: NotificationPayload(
                notificationType: .rescindConsent,
                appData: NotificationAppData(
                    appAppleId: PolicySample.appAppleId, bundleId: PolicySample.bundleId, environment: .production)),
            expected: PolicyCase.accepted),
        PolicyCase(
            testDescription: "production: unknown notification type -> accept, flagged at notificationType",
            notification: PolicySample.notification(NotificationType(rawValue: "FAMILY_MEMBER_JOINED"), subtype: nil),
            expected: .accept(unknown: [UnknownValue(path: "notificationType", rawValue: "FAMILY_MEMBER_JOINED")])),
        PolicyCase(
            testDescription: "production: known type with unknown subtype -> accept, flagged at subtype",
            notification: PolicySample.notification(.subscribed, subtype: NotificationSubtype(rawValue: "REJOIN")),
            expected: .accept(unknown: [UnknownValue(path: "subtype", rawValue: "REJOIN")])),
        PolicyCase(
            testDescription: "production: transaction with unknown ownership ASSIGNED -> accept, flagged",
            notification: PolicySample.notification(
                transaction: PolicySample.transaction(ownership: OwnershipType(rawValue: "ASSIGNED"))),
            expected: .accept(unknown: [
                UnknownValue(path: "data.signedTransactionInfo.inAppOwnershipType", rawValue: "ASSIGNED")
            ])),
        PolicyCase(
            testDescription: "production refuses a Sandbox notification -> wrong_environment",
            notification: PolicySample.notification(
                environment: .sandbox, transaction: PolicySample.transaction(environment: .sandbox),
                renewalInfo: PolicySample.renewalInfo(environment: .sandbox)),
            expected: .reject(.wrongEnvironment, path: "data.environment")),
        PolicyCase(
            testDescription: "production refuses an Xcode notification -> wrong_environment",
            notification: PolicySample.notification(environment: .xcode),
            expected: .reject(.wrongEnvironment, path: "data.environment")),
        PolicyCase(
            testDescription: "production refuses a LocalTesting notification -> wrong_environment",
            notification: PolicySample.notification(environment: .localTesting),
            expected: .reject(.wrongEnvironment, path: "data.environment")),
        PolicyCase(
            testDescription: "production refuses an unknown environment -> wrong_environment",
            notification: PolicySample.notification(environment: Environment(rawValue: "Staging")),
            expected: .reject(.wrongEnvironment, path: "data.environment")),
        PolicyCase(
            testDescription: "production refuses a notification naming no environment -> wrong_environment",
            notification: PolicySample.notification(environment: nil),
            expected: .reject(.wrongEnvironment, path: "data.environment")),
        PolicyCase(
            testDescription: "sandbox policy refuses a Production notification -> wrong_environment",
            policy: PolicySample.sandbox, notification: PolicySample.notification(),
            expected: .reject(.wrongEnvironment, path: "data.environment")),
        PolicyCase(
            testDescription: "production refuses a SANDBOX external purchase token -> wrong_environment",
            notification: NotificationPayload(
                notificationType: .externalPurchaseToken, subtype: .unreported,
                externalPurchaseToken: ExternalPurchaseToken(
                    externalPurchaseId: "SANDBOX_7f1e2a", appAppleId: PolicySample.appAppleId,
                    bundleId: PolicySample.bundleId)),
            expected: .reject(.wrongEnvironment, path: "externalPurchaseToken.externalPurchaseId")),
        PolicyCase(
            testDescription: "production: summary from the sandbox -> wrong_environment at summary.environment",
            notification: NotificationPayload(
                notificationType: .renewalExtension, subtype: .summary,
                summary: NotificationSummary(
                    environment: .sandbox, appAppleId: PolicySample.appAppleId, bundleId: PolicySample.bundleId)),
            expected: .reject(.wrongEnvironment, path: "summary.environment")),
        PolicyCase(
            testDescription: "another app's bundle id -> wrong_bundle_id",
            notification: PolicySample.notification(
                bundleId: "com.example.other", transaction: PolicySample.transaction(bundleId: "com.example.other")),
            expected: .reject(.wrongBundleId, path: "data.bundleId")),
        PolicyCase(
            testDescription: "no bundle id -> wrong_bundle_id",
            notification: PolicySample.notification(bundleId: nil),
            expected: .reject(.wrongBundleId, path: "data.bundleId")),
        PolicyCase(
            testDescription: "production: another app's appAppleId -> wrong_app_apple_id",
            notification: PolicySample.notification(appAppleId: 999),
            expected: .reject(.wrongAppAppleId, path: "data.appAppleId")),
        PolicyCase(
            testDescription: "production: no appAppleId -> wrong_app_apple_id (production requires it)",
            notification: PolicySample.notification(appAppleId: nil),
            expected: .reject(.wrongAppAppleId, path: "data.appAppleId")),
        PolicyCase(
            testDescription: "sandbox policy with appAppleId: notification names another -> wrong_app_apple_id",
            policy: NotificationPolicy.sandbox(bundleId: PolicySample.bundleId, appAppleId: PolicySample.appAppleId),
            notification: PolicySample.notification(
                environment: .sandbox, appAppleId: 999, transaction: PolicySample.transaction(environment: .sandbox),
                renewalInfo: PolicySample.renewalInfo(environment: .sandbox)),
            expected: .reject(.wrongAppAppleId, path: "data.appAppleId")),
        PolicyCase(
            testDescription: "Production notification holding a Sandbox transaction -> nested_environment_mismatch",
            notification: PolicySample.notification(transaction: PolicySample.transaction(environment: .sandbox)),
            expected: .reject(.nestedEnvironmentMismatch, path: "data.signedTransactionInfo.environment")),
        PolicyCase(
            testDescription: "Production notification holding a transaction without environment -> nested mismatch",
            notification: PolicySample.notification(transaction: PolicySample.transaction(environment: nil)),
            expected: .reject(.nestedEnvironmentMismatch, path: "data.signedTransactionInfo.environment")),
        PolicyCase(
            testDescription: "notification holding another app's transaction -> nested_bundle_id_mismatch",
            notification: PolicySample.notification(
                transaction: PolicySample.transaction(bundleId: "com.example.other")),
            expected: .reject(.nestedBundleIdMismatch, path: "data.signedTransactionInfo.bundleId")),
        PolicyCase(
            testDescription: "notification holding a transaction without bundleId -> nested_bundle_id_mismatch",
            notification: PolicySample.notification(transaction: PolicySample.transaction(bundleId: nil)),
            expected: .reject(.nestedBundleIdMismatch, path: "data.signedTransactionInfo.bundleId")),
        PolicyCase(
            testDescription: "Production notification holding Sandbox renewal info -> nested_environment_mismatch",
            notification: PolicySample.notification(renewalInfo: PolicySample.renewalInfo(environment: .sandbox)),
            expected: .reject(.nestedEnvironmentMismatch, path: "data.signedRenewalInfo.environment")),
        PolicyCase(
            testDescription: "signedTransactionInfo present but not decoded -> nested_not_decoded",
            notification: PolicySample.withParts { $0.data?.transactionInfo = nil },
            expected: .reject(.nestedNotDecoded, path: "data.signedTransactionInfo")),
        PolicyCase(
            testDescription: "signedRenewalInfo present but not decoded -> nested_not_decoded",
            notification: PolicySample.withParts { $0.data?.renewalInfo = nil },
            expected: .reject(.nestedNotDecoded, path: "data.signedRenewalInfo")),
        PolicyCase(
            testDescription: "no notificationType -> missing_notification_type",
            notification: PolicySample.notification(nil, subtype: nil),
            expected: .reject(.missingNotificationType, path: "notificationType")),
        PolicyCase(
            testDescription: "no data, summary, externalPurchaseToken or appData -> missing_app_identity",
            notification: NotificationPayload(notificationType: .test),
            expected: .reject(.missingAppIdentity, path: "")),
    ]

    @Test(arguments: cases)
    func decides(_ row: PolicyCase) {
        let decision = row.policy.evaluate(row.notification)
        switch (decision, row.expected) {
        case (.accept(let unknown), .accept(let expectedUnknown)):
            #expect(unknown == expectedUnknown)
            #expect(decision.rejection == nil)
        case (.reject(let rejection), .reject(let code, let path)):
            // The convenience accessor gives the same rejection the case holds.
            #expect(decision.rejection == rejection)
            #expect(rejection.code == code)
            #expect(rejection.path == path)
            #expect(!rejection.message.isEmpty)
        case (let decision, let expected):
            Issue.record("expected \(expected), got \(decision)")
        }
    }

    struct ConfigurationCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var environment: Environment
        var bundleId: String
        var appAppleId: Int64?
        var expectedError: NotificationPolicy.ConfigurationError.Code?
    }

    static let configurations: [ConfigurationCase] = [
        ConfigurationCase(
            testDescription: "Production with appAppleId -> valid", environment: .production,
            bundleId: PolicySample.bundleId, appAppleId: PolicySample.appAppleId, expectedError: nil),
        ConfigurationCase(
            testDescription: "Production without appAppleId -> app_apple_id_required, as Apple's verifier",
            environment: .production, bundleId: PolicySample.bundleId, appAppleId: nil,
            expectedError: .appAppleIdRequired),
        ConfigurationCase(
            testDescription: "Sandbox without appAppleId -> valid", environment: .sandbox,
            bundleId: PolicySample.bundleId, appAppleId: nil, expectedError: nil),
        ConfigurationCase(
            testDescription: "empty bundle id -> bundle_id_empty", environment: .sandbox, bundleId: "",
            appAppleId: nil, expectedError: .bundleIdEmpty),
    ]

    @Test(arguments: configurations)
    func configuration(_ row: ConfigurationCase) {
        do throws(NotificationPolicy.ConfigurationError) {
            let policy = try NotificationPolicy(
                environment: row.environment, bundleId: row.bundleId, appAppleId: row.appAppleId)
            #expect(row.expectedError == nil)
            #expect(policy.environment == row.environment)
        } catch {
            #expect(error.code == row.expectedError)
        }
    }
}

// MARK: - A signed transaction on its own (restore, link)

struct StandalonePolicyCase: CustomTestStringConvertible, Sendable {
    enum Payload: Hashable, Sendable {
        case transaction(TransactionPayload)
        case appTransaction(AppTransactionPayload)
        case renewalInfo(RenewalInfoPayload)
    }

    var testDescription: String
    var policy: NotificationPolicy = PolicySample.production
    var payload: Payload
    /// The rejection's code and path, or nil where the payload is accepted.
    var expected: (code: TransactionRejection.Code, path: String)?

    static func transaction(
        environment: Environment? = .production, bundleId: String? = PolicySample.bundleId
    ) -> Payload {
        .transaction(PolicySample.transaction(environment: environment, bundleId: bundleId, ownership: .purchased))
    }

    static func appTransaction(
        receiptType: Environment? = .production, bundleId: String? = PolicySample.bundleId,
        appAppleId: Int64? = PolicySample.appAppleId
    ) -> Payload {
        .appTransaction(AppTransactionPayload(receiptType: receiptType, appAppleId: appAppleId, bundleId: bundleId))
    }

    static func renewalInfo(environment: Environment?) -> Payload {
        .renewalInfo(PolicySample.renewalInfo(environment: environment))
    }
}

extension NotificationPolicyTests {
    static let standalone: [StandalonePolicyCase] = [
        StandalonePolicyCase(
            testDescription: "production: this app's Production transaction -> accept",
            payload: StandalonePolicyCase.transaction(), expected: nil),
        StandalonePolicyCase(
            testDescription: "production: a Sandbox transaction from the app -> wrong_environment",
            payload: StandalonePolicyCase.transaction(environment: .sandbox),
            expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "production: an Xcode-signed transaction from the app -> wrong_environment",
            payload: StandalonePolicyCase.transaction(environment: .xcode),
            expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "production: a transaction naming no environment -> wrong_environment",
            payload: StandalonePolicyCase.transaction(environment: nil), expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "sandbox policy: a Production transaction -> wrong_environment",
            policy: PolicySample.sandbox, payload: StandalonePolicyCase.transaction(),
            expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "sandbox policy: this app's Sandbox transaction -> accept", policy: PolicySample.sandbox,
            payload: StandalonePolicyCase.transaction(environment: .sandbox), expected: nil),
        StandalonePolicyCase(
            testDescription: "another app's transaction -> wrong_bundle_id",
            payload: StandalonePolicyCase.transaction(bundleId: "com.example.other"),
            expected: (.wrongBundleId, "bundleId")),
        StandalonePolicyCase(
            testDescription: "a transaction without bundle id -> wrong_bundle_id",
            payload: StandalonePolicyCase.transaction(bundleId: nil), expected: (.wrongBundleId, "bundleId")),
        StandalonePolicyCase(
            testDescription: "production: this app's AppTransaction -> accept",
            payload: StandalonePolicyCase.appTransaction(), expected: nil),
        StandalonePolicyCase(
            testDescription: "production: a Sandbox AppTransaction -> wrong_environment at receiptType",
            payload: StandalonePolicyCase.appTransaction(receiptType: .sandbox),
            expected: (.wrongEnvironment, "receiptType")),
        StandalonePolicyCase(
            testDescription: "another app's AppTransaction -> wrong_bundle_id",
            payload: StandalonePolicyCase.appTransaction(bundleId: "com.example.other"),
            expected: (.wrongBundleId, "bundleId")),
        StandalonePolicyCase(
            testDescription: "production: an AppTransaction of another appAppleId -> wrong_app_apple_id",
            payload: StandalonePolicyCase.appTransaction(appAppleId: 999), expected: (.wrongAppAppleId, "appAppleId")),
        StandalonePolicyCase(
            testDescription: "production: an AppTransaction without appAppleId -> wrong_app_apple_id, as Apple's",
            payload: StandalonePolicyCase.appTransaction(appAppleId: nil), expected: (.wrongAppAppleId, "appAppleId")),
        StandalonePolicyCase(
            testDescription: "sandbox policy: a Sandbox AppTransaction without appAppleId -> accept",
            policy: NotificationPolicy.sandbox(bundleId: PolicySample.bundleId, appAppleId: PolicySample.appAppleId),
            payload: StandalonePolicyCase.appTransaction(receiptType: .sandbox, appAppleId: nil), expected: nil),
        StandalonePolicyCase(
            testDescription: "sandbox policy with appAppleId: an AppTransaction naming another -> wrong_app_apple_id",
            policy: NotificationPolicy.sandbox(bundleId: PolicySample.bundleId, appAppleId: PolicySample.appAppleId),
            payload: StandalonePolicyCase.appTransaction(receiptType: .sandbox, appAppleId: 999),
            expected: (.wrongAppAppleId, "appAppleId")),
        StandalonePolicyCase(
            testDescription: "production: a renewal info of Get All Subscription Statuses in Production -> accept",
            payload: StandalonePolicyCase.renewalInfo(environment: .production), expected: nil),
        StandalonePolicyCase(
            testDescription: "production: a Sandbox renewal info -> wrong_environment",
            payload: StandalonePolicyCase.renewalInfo(environment: .sandbox),
            expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "production: a renewal info naming no environment -> wrong_environment",
            payload: StandalonePolicyCase.renewalInfo(environment: nil), expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "sandbox policy: a renewal info naming no environment -> wrong_environment",
            policy: PolicySample.sandbox, payload: StandalonePolicyCase.renewalInfo(environment: nil),
            expected: (.wrongEnvironment, "environment")),
        StandalonePolicyCase(
            testDescription: "sandbox policy: a Sandbox renewal info -> accept", policy: PolicySample.sandbox,
            payload: StandalonePolicyCase.renewalInfo(environment: .sandbox), expected: nil),
    ]

    @Test(arguments: standalone)
    func checksWhatTheAppSends(_ row: StandalonePolicyCase) {
        let rejection: TransactionRejection? =
            switch row.payload {
            case .transaction(let transaction): row.policy.check(transaction)
            case .appTransaction(let appTransaction): row.policy.check(appTransaction)
            case .renewalInfo(let renewalInfo): row.policy.check(renewalInfo)
            }
        #expect(rejection?.code == row.expected?.code, "\(String(describing: rejection))")
        #expect(rejection?.path == row.expected?.path)
        #expect(rejection.map { $0.outcome == .refused && !$0.message.isEmpty } ?? true)
    }
}
