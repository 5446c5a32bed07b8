import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// The rows of ``DecisionRule/environment``, in the order docs/decision-table.md lists them.
    static let environment: [DecisionRow] = environments + apps

    /// Chain `id` lapsed on day 30 and in its grace period to day 46, with a Production DID_FAIL_TO_RENEW signed on
    /// day 31, and `early`, a DID_FAIL_TO_RENEW wrapped as Production whose nested contents are another environment's.
    private static func failedToRenew(_ id: String, early: NotificationPayload) -> History {
        let failed = Given.subscription(id, from: 0, to: 30)
        let grace = Given.renewal(id, signed: 30.5) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(46)
        }
        return History(
            transactions: [failed], renewalInfos: [grace],
            notifications: [early, Given.notification(.didFailToRenew, .gracePeriod, signed: 31, transaction: failed)])
    }

    /// The entitlement of `failedToRenew(id, early:)`: in its grace period, the billing issue dated by the Production
    /// DID_FAIL_TO_RENEW of day 31 alone.
    private static func billingIssueOnDay31(_ id: String) -> [EntitlementID: EntitlementDecision] {
        [
            EntitlementID(Given.monthly): EntitlementDecision(
                isActive: true, state: .gracePeriod, productId: ProductID(Given.monthly),
                transactionId: TransactionID(id),
                originalTransactionId: OriginalTransactionID(id), expiresDate: Given.day(46), willRenew: true,
                period: .normal, ownership: .purchased, originalPurchaseDate: Given.day(0),
                latestPurchaseDate: Given.day(0), gracePeriodExpiresDate: Given.day(46),
                billingIssueDetectedAt: Given.day(31))
        ]
    }

    /// Rule 9: one environment per rebuild; other environments never grant.
    static let environments: [DecisionRow] = {
        let sandbox = Given.subscription("9001", from: 0, to: 30) { $0.environment = .sandbox }
        let production = Given.subscription("9002", Given.yearly, from: 0, to: 365)
        let xcode = Given.subscription("0", from: 0, to: 30) {
            $0.environment = .xcode
            $0.purchaseDate = Given.day(0).addingTimeInterval(0.049_729_7)
            $0.originalPurchaseDate = Date(timeIntervalSince1970: -62_135_769_600)
            $0.price = nil
            $0.currency = nil
        }
        return [
            DecisionRow(
                rule: .environment,
                name: "a Sandbox transaction in a Production history never grants and is reported as an error",
                source: "apple-facts 10: production must refuse sandbox; anyone can make a sandbox account",
                history: History(transactions: [sandbox]), asOf: 5, products: [], customer: .equals(.new),
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: .environment,
                name: "a Sandbox entry next to a real purchase: the purchase grants, the Sandbox entry does not",
                source: "apple-facts 10",
                history: History(transactions: [sandbox, production]), asOf: 5,
                products: [ProductExpectation(Given.yearly, .active, access: true)],
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: .environment,
                name: "a Sandbox notification wrapper in a Production history: none of its contents grant",
                source: "apple-facts 10",
                history: History(notifications: [
                    Given.notification(
                        .subscribed, .initialBuy, signed: 0, transaction: Given.subscription("9003", from: 0, to: 30),
                        environment: .sandbox)
                ]), asOf: 5, products: [], customer: .equals(.new), diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: .environment, name: "a Sandbox rebuild ignores Production entries",
                source: "decision table: the rebuild runs for one environment",
                history: History(transactions: [sandbox, production]), asOf: 5, environment: .sandbox,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: .environment, name: "an entry without environment never grants",
                source: "decision table: never access on bad data",
                history: History(transactions: [Given.subscription("9004", from: 0, to: 30) { $0.environment = nil }]),
                asOf: 5, products: [], customer: .equals(.new), diagnostics: [.missingEnvironment]),
            DecisionRow(
                rule: .environment,
                name: "a newer snapshot left out (no environment) may carry a refund: the transaction grants nothing",
                source: "decision table: never access on bad data; found by fuzzing the rebuild",
                history: History(transactions: [
                    Given.subscription("9005", from: 0, to: 30),
                    Given.subscription("9005", from: 0, to: 30, signed: 3) {
                        $0.environment = nil
                        $0.revocationDate = Given.day(3)
                    },
                ]), asOf: 5, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .environment,
                name:
                    "a left-out snapshot signed in the same millisecond as the kept one: the transaction is untrusted",
                source: "decision table: never access on bad data; at equal signedDates the revoking snapshot wins",
                history: History(transactions: [
                    Given.subscription("9006", from: 0, to: 30, signed: 3),
                    Given.subscription("9006", from: 0, to: 30, signed: 3) {
                        $0.environment = nil
                        $0.revocationDate = Given.day(3)
                    },
                ]), asOf: 5, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .environment,
                name: "an EXPIRED wrapped as Production carrying a Sandbox transaction does not end Production grace",
                source: "apple-facts 1 and 10: nested contents are signed on their own; production refuses sandbox",
                history: History(
                    transactions: [Given.subscription("9007", from: 0, to: 30)],
                    renewalInfos: [
                        Given.renewal("9007", signed: 30) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(40)
                        }
                    ],
                    notifications: [
                        Given.notification(
                            .expired, .billingRetry, signed: 32,
                            transaction: Given.subscription("9008", original: "9007", from: 0, to: 30) {
                                $0.environment = .sandbox
                            })
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: .environment,
                name: "a DID_FAIL_TO_RENEW wrapped as Production carrying a Sandbox transaction is no billing issue of "
                    + "the Production chain",
                source: "apple-facts 1 and 10: nested contents are signed on their own; production refuses sandbox",
                history: failedToRenew(
                    "9010",
                    early: Given.notification(
                        .didFailToRenew, .gracePeriod, signed: 30.2,
                        transaction: Given.subscription("9011", original: "9010", from: 0, to: 30) {
                            $0.environment = .sandbox
                        })), asOf: 35,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                diagnostics: [.foreignEnvironment], entitlementDecisions: billingIssueOnDay31("9010")),
            DecisionRow(
                rule: .environment,
                name: "a DID_FAIL_TO_RENEW wrapped as Production carrying only a Sandbox renewal info is no billing "
                    + "issue of the Production chain",
                source: "apple-facts 1 and 10: nested contents are signed on their own; production refuses sandbox",
                history: failedToRenew(
                    "9012",
                    early: Given.notification(
                        .didFailToRenew, .gracePeriod, signed: 30.2,
                        renewal: Given.renewal("9012", signed: 30.2) {
                            $0.isInBillingRetryPeriod = true
                            $0.environment = .sandbox
                        })), asOf: 35,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                diagnostics: [.foreignEnvironment], entitlementDecisions: billingIssueOnDay31("9012")),
            DecisionRow(
                rule: .environment,
                name: "a newer snapshot inside a Sandbox notification makes the older Production snapshot untrusted",
                source: "decision table: never access on bad data; a snapshot left out may carry a refund",
                history: History(
                    transactions: [Given.subscription("9009", from: 0, to: 30)],
                    notifications: [
                        Given.notification(
                            .refund, signed: 3,
                            transaction: Given.subscription("9009", from: 0, to: 30, signed: 3) {
                                $0.revocationDate = Given.day(3)
                            }, environment: .sandbox)
                    ]), asOf: 5, products: [], customer: .equals(.inactive),
                customerReason: .equals(.undetermined), diagnostics: [.foreignEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .environment,
                name: "Xcode payload (fractional ms, year-1 originalPurchaseDate) evaluates under Xcode",
                source: "apple-facts 1: Xcode-signed samples",
                history: History(transactions: [xcode]), asOf: 5, environment: .xcode,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
        ]
    }()

    /// Rule 9: entries of another app never grant.
    static let apps: [DecisionRow] = {
        let app = ProductCatalog(bundleId: "org.familyentitlements.demo")
        let otherLifetime = Given.oneTime("9401", Given.lifetime, type: .nonConsumable, on: 0) {
            $0.bundleId = "com.example.other"
        }
        let otherMonthly = Given.subscription("9402", from: 0, to: 30) { $0.bundleId = "com.example.other" }
        var otherNotification = Given.notification(.subscribed, .initialBuy, signed: 0, transaction: otherMonthly)
        otherNotification.data?.bundleId = "com.example.other"
        let ours = Given.subscription("9403", from: 0, to: 30)
        return [
            DecisionRow(
                rule: .environment, name: "the catalog names the app: another app's transaction grants nothing",
                source: "App Store Server API: bundleId identifies the app of a transaction",
                history: History(transactions: [otherLifetime, ours]), asOf: 5, catalog: app,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.foreignBundle, .uncataloguedProduct]),
            DecisionRow(
                rule: .environment, name: "the catalog names the app: another app's notification grants nothing",
                source: "App Store Server Notifications: data.bundleId identifies the app",
                history: History(notifications: [otherNotification]), asOf: 5, catalog: app, products: [],
                customer: .equals(.new), diagnostics: [.foreignBundle]),
            DecisionRow(
                rule: .environment,
                name: "the catalog names the app: a newer snapshot inside another app's notification makes the "
                    + "older one untrusted",
                source: "decision table: never access on bad data; a snapshot left out may carry a refund",
                history: History(
                    transactions: [ours],
                    notifications: [
                        {
                            var wrapper = Given.notification(
                                .refund, signed: 3,
                                transaction: Given.subscription("9403", from: 0, to: 30, signed: 3) {
                                    $0.revocationDate = Given.day(3)
                                })
                            wrapper.data?.bundleId = "com.example.other"
                            return wrapper
                        }()
                    ]), asOf: 5, catalog: app, products: [], customer: .equals(.inactive),
                customerReason: .equals(.undetermined), diagnostics: [.foreignBundle, .untrustedSnapshot]),
            // The notification is the app's, the transaction it carries another app's (signed before the app's own
            // snapshot, so that it corrects nothing): its event is no event of the app's chain.
            DecisionRow(
                rule: .environment,
                name: "the catalog names the app: a REVOKE of the app whose transaction is another app's revokes "
                    + "nothing",
                source: "App Store Server API: bundleId identifies the app of a transaction; decision table: an "
                    + "entry of another app says nothing of this one",
                history: History(
                    transactions: [ours],
                    notifications: [
                        Given.notification(
                            .revoke, signed: 5,
                            transaction: Given.subscription(
                                "9403", from: 0, to: 30, ownership: .familyShared, signed: -1
                            ) { $0.bundleId = "com.example.other" })
                    ]), asOf: 10, catalog: app,
                products: [ProductExpectation(Given.monthly, .active, access: true)], customer: .equals(.active),
                diagnostics: [.foreignBundle, .uncataloguedProduct]),
            DecisionRow(
                rule: .environment, name: "no bundle id in the catalog and a history of two apps: reported as an error",
                source: "decision table: one history is one app's",
                history: History(transactions: [otherLifetime, ours]), asOf: 5,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true),
                    ProductExpectation(Given.monthly, .active, access: true),
                ],
                diagnostics: [.mixedBundles]),
        ]
    }()
}
