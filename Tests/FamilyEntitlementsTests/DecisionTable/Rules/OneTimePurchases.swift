import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 4: non-consumables, non-renewing subscriptions and consumables.
    static let oneTimePurchases: [DecisionRow] = {
        let seasonCatalog = ProductCatalog(products: [
            ProductID(Given.pass): ProductCatalog.Product(type: .nonRenewing, duration: ISO8601Duration(months: 3))
        ])
        return [
            DecisionRow(
                rule: .oneTimePurchases, name: "non-consumable: access from purchaseDate until revoked",
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
                rule: .oneTimePurchases,
                name: "canManage only for an auto-renewable subscription: a purchased non-consumable or non-renewing "
                    + "subscription has no plan to cancel or change",
                source: "apple-facts 9: a non-renewing subscription has no renewal, and a non-consumable none either",
                history: History(transactions: [
                    Given.oneTime("4001", Given.lifetime, type: .nonConsumable, on: 0),
                    Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0),
                ]), asOf: 10,
                catalog: ProductCatalog(products: [
                    ProductID(Given.pass): ProductCatalog.Product(
                        type: .nonRenewing, duration: ISO8601Duration(months: 3)),
                    ProductID(Given.lifetime): ProductCatalog.Product(type: .nonConsumable),
                ]),
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true) { $0.canManage = .equals(false) },
                    ProductExpectation(Given.pass, .active, access: true) { $0.canManage = .equals(false) },
                ], customer: .equals(.active)),
            DecisionRow(
                rule: .oneTimePurchases,
                name: "FAMILY_SHARED non-renewing subscription: invalid data, reported, grants nothing",
                source: "apple-facts 4: consumables and non-renewing subscriptions are never shared",
                history: History(transactions: [
                    Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0, ownership: .familyShared)
                ]), asOf: 10, catalog: seasonCatalog,
                products: [
                    ProductExpectation(Given.pass, .undetermined, access: false) {
                        $0.canManage = .equals(false)
                        $0.reasons = [
                            Reason(.oneTimePurchases, .familySharedNonRenewing(transactionId: "4101"))
                        ]
                    }
                ], diagnostics: [.familySharedNonRenewing], entitlements: [EntitlementID(Given.pass): false]),
            DecisionRow(
                rule: .oneTimePurchases, name: "non-consumable refunded: revoked",
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
                rule: .oneTimePurchases,
                name: "non-consumable refunded at a fraction of a millisecond, nothing else fractional: revoked from "
                    + "that whole millisecond, taken down",
                source: "decision table rule 1: ends and revocations are decided at whole milliseconds, taken down",
                history: History(transactions: [
                    Given.oneTime("4002", Given.lifetime, type: .nonConsumable, on: 0, signed: 5) {
                        $0.revocationDate = Given.day(5).addingTimeInterval(0.0004)
                        $0.revocationReason = .appIssue
                    }
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .oneTimePurchases,
                name: "non-renewing subscription: access for the catalog's duration from purchaseDate",
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
                rule: .oneTimePurchases, name: "non-renewing subscription after its duration: expired",
                source: "apple-facts 9",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 91, catalog: seasonCatalog,
                products: [ProductExpectation(Given.pass, .expired, access: false)]),
            DecisionRow(
                rule: .oneTimePurchases,
                name: "exactly at the end of a non-renewing duration (d0 + P3M = d90): expired",
                source:
                    "apple-facts 9: the app decides how long it lasts; it ends at that instant, as expiresDate does",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 90, catalog: seasonCatalog,
                products: [
                    ProductExpectation(Given.pass, .expired, access: false) { $0.expiresDate = .equals(Given.day(90)) }
                ]),
            DecisionRow(
                rule: .oneTimePurchases,
                name: "non-renewing subscription with no known duration: undetermined, never unlimited",
                source: "apple-facts 9: no expiresDate; never grant unlimited access",
                history: History(transactions: [Given.oneTime("4101", Given.pass, type: .nonRenewing, on: 0)]),
                asOf: 1,
                products: [ProductExpectation(Given.pass, .undetermined, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.undetermined), diagnostics: [.missingDuration]),
            DecisionRow(
                rule: .oneTimePurchases, name: "consumable: never an entitlement, and the customer is still new",
                source: "apple-facts 9 and 10: consumables grant no lasting access",
                history: History(transactions: [Given.oneTime("4201", Given.coins, type: .consumable, on: 0)]),
                asOf: 1, products: [], customer: .equals(.new)),
            DecisionRow(
                rule: .oneTimePurchases, name: "FAMILY_SHARED consumable: invalid data, reported, grants nothing",
                source: "apple-facts 4: consumables are never shared",
                history: History(transactions: [
                    Given.oneTime("4201", Given.coins, type: .consumable, on: 0, ownership: .familyShared)
                ]), asOf: 1, products: [], customer: .equals(.new), diagnostics: [.familySharedConsumable]),
            DecisionRow(
                rule: .oneTimePurchases, name: "the catalog gives the type where the payload lacks it",
                source: "decision table: a catalog may give a product's type",
                history: History(transactions: [Given.oneTime("4001", Given.lifetime, type: nil, on: 0)]),
                asOf: 1,
                catalog: ProductCatalog(products: [
                    ProductID(Given.lifetime): ProductCatalog.Product(type: .nonConsumable)
                ]),
                products: [ProductExpectation(Given.lifetime, .active, access: true)]),
        ]
    }()
}
