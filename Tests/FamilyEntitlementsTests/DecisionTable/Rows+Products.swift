import FamilyEntitlements

extension DecisionRow {
    /// Rule 3: one subscription per group; upgrades at once, downgrades at the next renewal.
    static let upgrades: [DecisionRow] = {
        let basic = Given.subscription("3001", Given.basic, from: 0, to: 30)
        let upgrade = Given.subscription("3002", Given.monthly, original: "3001", from: 10, to: 40) {
            $0.transactionReason = .purchase
        }
        let premium = Given.subscription("3101", Given.monthly, from: 0, to: 30)
        let downgraded = Given.subscription("3102", Given.basic, original: "3101", from: 30, to: 60)
        return [
            DecisionRow(
                rule: 3, name: "upgrade without an isUpgraded snapshot: the older product is upgraded at once",
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
                rule: 3, name: "exactly at the upgrade's purchaseDate: the older product is upgraded, the newer active",
                source: "apple-facts 8: an upgrade takes effect at once",
                history: History(transactions: [basic, upgrade]), asOf: 10,
                products: [
                    ProductExpectation(Given.basic, .upgraded, access: false),
                    ProductExpectation(Given.monthly, .active, access: true),
                ]),
            DecisionRow(
                rule: 3, name: "upgrade known only from isUpgraded on the old transaction: upgraded, no access",
                source: "apple-facts 8: the old transaction gets isUpgraded = true and grants no more",
                history: History(transactions: [
                    Given.subscription("3001", Given.basic, from: 0, to: 30, signed: 10) { $0.isUpgraded = true }
                ]), asOf: 15,
                products: [ProductExpectation(Given.basic, .upgraded, access: false)]),
            DecisionRow(
                rule: 3, name: "isUpgraded has no effect before the signedDate of the snapshot that carries it",
                source:
                    "apple-facts 8: the old transaction gets isUpgraded; a snapshot says nothing before it is signed",
                history: History(transactions: [
                    Given.subscription("3001", Given.basic, from: 0, to: 30, signed: 10) { $0.isUpgraded = true }
                ]), asOf: 5,
                products: [ProductExpectation(Given.basic, .active, access: true)]),
            DecisionRow(
                rule: 3, name: "downgrade before it takes effect: the higher product keeps access to its expiresDate",
                source: "apple-facts 8: a downgrade takes effect at the next renewal",
                history: History(
                    transactions: [premium],
                    renewalInfos: [
                        Given.renewal("3101", Given.monthly, signed: 10) { $0.autoRenewProductId = Given.basic }
                    ]),
                asOf: 20,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(true) }]),
            DecisionRow(
                rule: 3, name: "downgrade after it takes effect: the higher product expired, the lower one renews",
                source: "apple-facts 8: a downgrade appears as a RENEWAL of the lower product",
                history: History(transactions: [premium, downgraded]), asOf: 35,
                products: [
                    ProductExpectation(Given.basic, .active, access: true),
                    ProductExpectation(Given.monthly, .expired, access: false) { $0.willRenew = .equals(false) },
                ]),
            DecisionRow(
                rule: 3, name: "after a downgrade, later billing trouble belongs to the lower product",
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

    /// Rule 4: non-consumables, non-renewing subscriptions and consumables.
    static let oneTimeProducts: [DecisionRow] = {
        let seasonCatalog = ProductCatalog(products: [
            Given.pass: ProductCatalog.Product(type: .nonRenewing, duration: ISO8601Duration(months: 3))
        ])
        return [
            DecisionRow(
                rule: 4, name: "non-consumable: access from purchaseDate until revoked",
                source: "apple-facts 2 and 9",
                history: History(transactions: [Given.oneTime("4001", Given.lifetime, type: .nonConsumable, on: 0)]),
                asOf: 3000,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true) {
                        $0.willRenew = .equals(nil)
                        $0.expiresDate = .equals(nil)
                    }
                ]),
            DecisionRow(
                rule: 4, name: "non-consumable refunded: revoked",
                source: "apple-facts 5",
                history: History(transactions: [
                    Given.oneTime("4001", Given.lifetime, type: .nonConsumable, on: 0, signed: 5) {
                        $0.revocationDate = Given.day(5)
                        $0.revocationReason = .appIssue
                    }
                ]), asOf: 6,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: 4, name: "non-renewing subscription: access for the catalog's duration from purchaseDate",
                source: "apple-facts 9: the app decides how long it lasts",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 80, catalog: seasonCatalog,
                products: [
                    ProductExpectation(Given.pass, .active, access: true) {
                        $0.expiresDate = .equals(Given.day(90))
                        $0.willRenew = .equals(nil)
                    }
                ]),
            DecisionRow(
                rule: 4, name: "non-renewing subscription after its duration: expired",
                source: "apple-facts 9",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 91, catalog: seasonCatalog,
                products: [ProductExpectation(Given.pass, .expired, access: false)]),
            DecisionRow(
                rule: 4, name: "exactly at the end of a non-renewing duration (d0 + P3M = d90): expired",
                source:
                    "apple-facts 9: the app decides how long it lasts; it ends at that instant, as expiresDate does",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 90, catalog: seasonCatalog,
                products: [
                    ProductExpectation(Given.pass, .expired, access: false) { $0.expiresDate = .equals(Given.day(90)) }
                ]),
            DecisionRow(
                rule: 4, name: "non-renewing subscription with no known duration: undetermined, never unlimited",
                source: "apple-facts 9: no expiresDate; never grant unlimited access",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 1,
                products: [ProductExpectation(Given.pass, .undetermined, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.undetermined), diagnostics: [.missingDuration]),
            DecisionRow(
                rule: 4, name: "consumable: never an entitlement, and the customer is still new",
                source: "apple-facts 9 and 10: consumables grant no lasting access",
                history: History(transactions: [Given.oneTime("4201", Given.coins, type: .consumable, on: 0)]),
                asOf: 1, products: [], customer: .equals(.new)),
            DecisionRow(
                rule: 4, name: "FAMILY_SHARED consumable: invalid data, reported, grants nothing",
                source: "apple-facts 4: consumables are never shared",
                history: History(transactions: [
                    Given.oneTime("4201", Given.coins, type: .consumable, on: 0, ownership: .familyShared)
                ]), asOf: 1, products: [], customer: .equals(.new), diagnostics: [.familySharedConsumable]),
            DecisionRow(
                rule: 4, name: "the catalog gives the type where the payload lacks it",
                source: "decision table: a catalog may give a product's type",
                history: History(transactions: [Given.oneTime("4001", Given.lifetime, type: nil, on: 0)]),
                asOf: 1,
                catalog: ProductCatalog(products: [Given.lifetime: ProductCatalog.Product(type: .nonConsumable)]),
                products: [ProductExpectation(Given.lifetime, .active, access: true)]),
        ]
    }()
}
