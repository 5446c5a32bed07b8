import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 9: one environment per rebuild; rule 10: unknown values never crash and never disappear.
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
                rule: 9, name: "a Sandbox transaction in a Production history never grants and is reported as an error",
                source: "apple-facts 10: production must refuse sandbox; anyone can make a sandbox account",
                history: History(transactions: [sandbox]), asOf: 5, products: [], customer: .equals(.new),
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: 9,
                name: "a Sandbox entry next to a real purchase: the purchase grants, the Sandbox entry does not",
                source: "apple-facts 10",
                history: History(transactions: [sandbox, production]), asOf: 5,
                products: [ProductExpectation(Given.yearly, .active, access: true)],
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: 9, name: "a Sandbox notification wrapper in a Production history: none of its contents grant",
                source: "apple-facts 10",
                history: History(notifications: [
                    Given.notification(
                        .subscribed, .initialBuy, signed: 0, transaction: Given.subscription("9003", from: 0, to: 30),
                        environment: .sandbox)
                ]), asOf: 5, products: [], customer: .equals(.new), diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: 9, name: "a Sandbox rebuild ignores Production entries",
                source: "decision table: the rebuild runs for one environment",
                history: History(transactions: [sandbox, production]), asOf: 5, environment: .sandbox,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: 9, name: "an entry without environment never grants",
                source: "decision table: never access on bad data",
                history: History(transactions: [Given.subscription("9004", from: 0, to: 30) { $0.environment = nil }]),
                asOf: 5, products: [], customer: .equals(.new), diagnostics: [.missingEnvironment]),
            DecisionRow(
                rule: 9,
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
                rule: 9,
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
                rule: 9,
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
                rule: 9, name: "Xcode payload (fractional ms, year-1 originalPurchaseDate) evaluates under Xcode",
                source: "apple-facts 1: Xcode-signed samples",
                history: History(transactions: [xcode]), asOf: 5, environment: .xcode,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: 10, name: "an unknown notification type: reported as a warning, its transaction still counts",
                source: "apple-facts 3: Apple adds types every year",
                history: History(notifications: [
                    Given.notification(
                        NotificationType(rawValue: "SUBSCRIPTION_PAUSED"), signed: 0,
                        transaction: Given.subscription("1101", from: 0, to: 30))
                ]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.unknownNotificationType]),
            DecisionRow(
                rule: 10, name: "an unknown subtype: reported as a warning, its transaction still counts",
                source: "apple-facts 3",
                history: History(notifications: [
                    Given.notification(
                        .subscribed, NotificationSubtype(rawValue: "REACTIVATED"), signed: 0,
                        transaction: Given.subscription("1102", from: 0, to: 30))
                ]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.unknownNotificationSubtype]),
            DecisionRow(
                rule: 10,
                name: "an unknown ownership (ASSIGNED): counts where its fields allow, cannot manage, reported",
                source: "apple-facts 2: StoreKit added an assigned ownership; no server value is documented",
                history: History(transactions: [
                    Given.subscription("1103", from: 0, to: 30, ownership: OwnershipType(rawValue: "ASSIGNED"))
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.canManage = .equals(false)
                        $0.ownership = .equals(OwnershipType(rawValue: "ASSIGNED"))
                    }
                ], diagnostics: [.unknownOwnership]),
            DecisionRow(
                rule: 10, name: "an unknown product type with expiresDate: access only until it",
                source: "decision table: counts where its fields allow",
                history: History(transactions: [
                    Given.subscription("1104", from: 0, to: 30) {
                        $0.type = ProductType(rawValue: "Bundle Subscription")
                    }
                ]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(nil) }],
                diagnostics: [.unknownProductType]),
            DecisionRow(
                rule: 10, name: "an unknown product type without expiresDate: undetermined, never unlimited",
                source: "decision table: never access on bad data",
                history: History(transactions: [
                    Given.oneTime("1105", Given.lifetime, type: ProductType(rawValue: "Bundle"), on: 0)
                ]), asOf: 5,
                products: [ProductExpectation(Given.lifetime, .undetermined, access: false)],
                diagnostics: [.unknownProductType]),
            DecisionRow(
                rule: 10, name: "a transaction without purchaseDate never grants and is reported",
                source: "decision table: never access on bad data",
                history: History(transactions: [Given.subscription("1106", from: 0, to: 30) { $0.purchaseDate = nil }]),
                asOf: 5, products: [], customer: .equals(.new), diagnostics: [.incompleteTransaction]),
        ]
    }()
}
