import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// The rows of ``DecisionRule/customerStatus``, in the order docs/decision-table.md lists them.
    static let customerStatus: [DecisionRow] = customers + catalogs

    /// Rule 11: the customer status for the launch screen; entitlements through a catalog.
    static let customers: [DecisionRow] = {
        let proCatalog = ProductCatalog(products: [
            ProductID(Given.monthly): ProductCatalog.Product(entitlements: ["pro"]),
            ProductID(Given.yearly): ProductCatalog.Product(entitlements: ["pro"]),
            ProductID(Given.lifetime): ProductCatalog.Product(entitlements: ["pro", "extras"]),
        ])
        return [
            DecisionRow(
                rule: .customerStatus, name: "no purchase ever: new",
                source: "apple-facts 10: customer status at launch",
                history: History(), asOf: 0, products: [], customer: .equals(.new), customerReason: .equals(nil)),
            DecisionRow(
                rule: .customerStatus,
                name: "billing retry on a family member's copy: the member is not asked to update payment",
                source: "apple-facts 10: the member cannot manage; members get DID_FAIL_TO_RENEW",
                history: History(
                    transactions: [Given.subscription("1201", from: 0, to: 30, ownership: .familyShared)],
                    renewalInfos: [Given.renewal("1201", signed: 30) { $0.isInBillingRetryPeriod = true }]),
                asOf: 32,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.billingRetryFamilyMember)),
            DecisionRow(
                rule: .customerStatus,
                name: "billing retry on a copy of unknown ownership (ASSIGNED): not asked to update payment either",
                source: "apple-facts 2 and 10: only the purchaser can manage; an unknown ownership cannot manage",
                history: History(
                    transactions: [
                        Given.subscription("1210", from: 0, to: 30, ownership: OwnershipType(rawValue: "ASSIGNED"))
                    ],
                    renewalInfos: [Given.renewal("1210", signed: 30) { $0.isInBillingRetryPeriod = true }]),
                asOf: 32,
                products: [
                    ProductExpectation(Given.monthly, .billingRetry, access: false) { $0.canManage = .equals(false) }
                ],
                customer: .equals(.inactive), customerReason: .equals(.billingRetryFamilyMember),
                diagnostics: [.unknownOwnership]),
            DecisionRow(
                rule: .customerStatus, name: "one product active among expired ones: active",
                source: "apple-facts 10",
                history: History(transactions: [
                    Given.subscription("1202", from: 0, to: 30),
                    Given.oneTime("1203", Given.lifetime, type: .nonConsumable, on: 40),
                ]), asOf: 50,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true),
                    ProductExpectation(Given.monthly, .expired, access: false),
                ], customer: .equals(.active), customerReason: .equals(nil)),
            DecisionRow(
                rule: .customerStatus, name: "billing retry outranks an older refund in the inactive reason",
                source: "apple-facts 10: in billing retry, ask to update payment",
                history: History(
                    transactions: [
                        Given.subscription("1204", from: 0, to: 30),
                        Given.oneTime("1205", Given.lifetime, type: .nonConsumable, on: 1, signed: 2) {
                            $0.revocationDate = Given.day(2)
                        },
                    ], renewalInfos: [Given.renewal("1204", signed: 30) { $0.isInBillingRetryPeriod = true }]),
                asOf: 32,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false),
                    ProductExpectation(Given.monthly, .billingRetry, access: false),
                ], customer: .equals(.inactive), customerReason: .equals(.billingRetry)),
            DecisionRow(
                rule: .customerStatus, name: "a refund outranks a later expiry in the inactive reason",
                source: "apple-facts 10: a refund is what the customer should be told about before an expiry",
                history: History(transactions: [
                    Given.subscription("1211", from: 0, to: 30),
                    Given.oneTime("1212", Given.lifetime, type: .nonConsumable, on: 1, signed: 2) {
                        $0.revocationDate = Given.day(2)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 40,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    },
                    ProductExpectation(Given.monthly, .expired, access: false),
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .customerStatus, name: "REFUND_PRORATED: the customer is inactive (refunded), not merely revoked",
                source: "apple-facts 2 and 5: REFUND_PRORATED is a refund, with revocationPercentage",
                history: History(transactions: [
                    Given.subscription("1209", from: 0, to: 30, signed: 3) {
                        $0.revocationDate = Given.day(3)
                        $0.revocationType = .refundProrated
                        $0.revocationPercentage = 50_000
                    }
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.proratedRefund)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .customerStatus,
                name: "a catalog maps several products to one entitlement: pro is on while any grants",
                source: "decision table: a catalog maps product ids to entitlement ids",
                history: History(transactions: [
                    Given.subscription("1206", from: 0, to: 30),
                    Given.subscription("1207", Given.yearly, from: 20, to: 385),
                ]), asOf: 40, catalog: proCatalog,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false),
                    ProductExpectation(Given.yearly, .active, access: true),
                ], entitlements: ["pro": true, "extras": false]),
        ]
    }()

    /// Rule 11: with a catalog, the catalog decides what a product unlocks, and disagreement grants nothing.
    static let catalogs: [DecisionRow] = {
        let season = ProductCatalog(products: [
            ProductID(Given.pass): ProductCatalog.Product(
                entitlements: ["season"], type: .nonRenewing, duration: .init(months: 3))
        ])
        let pro = ProductCatalog(products: [ProductID(Given.monthly): ProductCatalog.Product(entitlements: ["pro"])])
        return [
            DecisionRow(
                rule: .customerStatus,
                name: "the transaction's type against the catalog's: the disagreement grants nothing",
                source: "decision table: never access on contradictory data",
                history: History(transactions: [
                    Given.oneTime("4402", Given.pass, type: .nonConsumable, on: 0)
                ]), asOf: 200, catalog: season, products: [],
                customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.catalogTypeMismatch], entitlements: ["season": false]),
            DecisionRow(
                rule: .customerStatus,
                name: "with a catalog, a product it lacks unlocks nothing, not an entitlement of its own id",
                source: "decision table: a catalog maps product ids to entitlement ids",
                history: History(transactions: [
                    Given.subscription("1402", from: 0, to: 30),
                    Given.oneTime("4403", "pro", type: .nonConsumable, on: 0),
                ]), asOf: 40, catalog: pro,
                products: [
                    ProductExpectation("pro", .active, access: true),
                    ProductExpectation(Given.monthly, .expired, access: false),
                ],
                diagnostics: [.uncataloguedProduct], entitlements: ["pro": false]),
        ]
    }()
}
