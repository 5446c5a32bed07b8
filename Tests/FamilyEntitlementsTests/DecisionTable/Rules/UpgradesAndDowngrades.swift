import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 3: one subscription per group; upgrades at once, downgrades at the next renewal.
    static let upgradesAndDowngrades: [DecisionRow] = {
        let basic = Given.subscription("3001", Given.basic, from: 0, to: 30)
        let upgrade = Given.subscription("3002", Given.monthly, original: "3001", from: 10, to: 40) {
            $0.transactionReason = .purchase
        }
        let premium = Given.subscription("3101", Given.monthly, from: 0, to: 30)
        let downgraded = Given.subscription("3102", Given.basic, original: "3101", from: 30, to: 60)
        return [
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "upgrade without an isUpgraded snapshot: the older product is upgraded at once",
                source:
                    "apple-facts 8: an upgrade takes effect at once; the UPGRADE notification carries only the new transaction",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: basic),
                    Given.notification(.didChangeRenewalPref, .upgrade, signed: 10, transaction: upgrade),
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.basic, .upgraded, access: false) { $0.willRenew = .equals(false) },
                    ProductExpectation(Given.monthly, .active, access: true),
                ]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "exactly at the upgrade's purchaseDate: the older product is upgraded, the newer active",
                source: "apple-facts 8: an upgrade takes effect at once",
                history: History(transactions: [basic, upgrade]), asOf: 10,
                products: [
                    ProductExpectation(Given.basic, .upgraded, access: false) {
                        $0.reasons = [
                            Reason(
                                .upgradesAndDowngrades,
                                .replaced(
                                    transactionId: "3001", at: Given.day(10), by: "3002",
                                    productId: ProductID(Given.monthly)))
                        ]
                    },
                    ProductExpectation(Given.monthly, .active, access: true),
                ]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "upgrade known only from isUpgraded on the old transaction: upgraded, no access",
                source: "apple-facts 8: the old transaction gets isUpgraded = true and grants no more",
                history: History(transactions: [
                    Given.subscription("3001", Given.basic, from: 0, to: 30, signed: 10) { $0.isUpgraded = true }
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.basic, .upgraded, access: false) {
                        $0.reasons = [
                            Reason(.upgradesAndDowngrades, .markedUpgraded(transactionId: "3001", from: Given.day(10)))
                        ]
                    }
                ]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "isUpgraded has no effect before the signedDate of the snapshot that carries it",
                source:
                    "apple-facts 8: the old transaction gets isUpgraded; a snapshot says nothing before it is signed",
                history: History(transactions: [
                    Given.subscription("3001", Given.basic, from: 0, to: 30, signed: 10) { $0.isUpgraded = true }
                ]), asOf: 5,
                products: [ProductExpectation(Given.basic, .active, access: true)]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "isUpgraded signed after the transaction expired: between the two it expired, not upgraded",
                source:
                    "apple-facts 8: the old transaction gets isUpgraded; a snapshot says nothing before it is signed",
                history: History(transactions: [
                    Given.subscription("3001", Given.basic, from: 0, to: 30, signed: 40) { $0.isUpgraded = true }
                ]), asOf: 35,
                products: [ProductExpectation(Given.basic, .expired, access: false)]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "downgrade before it takes effect: the higher product keeps access to its expiresDate",
                source: "apple-facts 8: a downgrade takes effect at the next renewal",
                history: History(
                    transactions: [premium],
                    renewalInfos: [
                        Given.renewal("3101", Given.monthly, signed: 10) { $0.autoRenewProductId = Given.basic }
                    ]),
                asOf: 20,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(true) }]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "downgrade after it takes effect: the higher product expired, the lower one renews",
                source: "apple-facts 8: a downgrade appears as a RENEWAL of the lower product",
                history: History(transactions: [premium, downgraded]), asOf: 35,
                products: [
                    ProductExpectation(Given.basic, .active, access: true),
                    ProductExpectation(Given.monthly, .expired, access: false) { $0.willRenew = .equals(false) },
                ]),
            DecisionRow(
                rule: .upgradesAndDowngrades,
                name: "after a downgrade, later billing trouble belongs to the lower product",
                source: "apple-facts 7 and 8: renewal info describes the newest transaction of the chain",
                history: History(
                    transactions: [premium, downgraded],
                    renewalInfos: [
                        Given.renewal("3101", Given.basic, signed: 60) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(66)
                        }
                    ]), asOf: 62,
                products: [
                    ProductExpectation(Given.basic, .gracePeriod, access: true),
                    ProductExpectation(Given.monthly, .expired, access: false),
                ]),
        ]
    }()
}
