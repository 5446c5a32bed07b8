import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// The rows of ``DecisionRule/customerStatus``, in the order docs/decision-table.md lists them.
    static let customerStatus: [DecisionRow] = customers + reasonOrder + catalogs + answers

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

    /// Rule 11: one answer per entitlement, every field checked: which product answers, and what each field reads.
    static let answers: [DecisionRow] = {
        let premium = ProductCatalog(products: [
            ProductID(Given.monthly): .init(entitlements: ["premium"], type: .autoRenewable),
            ProductID(Given.yearly): .init(entitlements: ["premium"], type: .autoRenewable),
            ProductID(Given.basic): .init(entitlements: ["premium"], type: .autoRenewable),
            ProductID(Given.lifetime): .init(entitlements: ["premium"], type: .nonConsumable),
            ProductID(Given.pass): .init(entitlements: ["season"], type: .nonRenewing, duration: .init(months: 3)),
        ])
        let d = Given.day
        /// The answer of an auto-renewable chain `id` purchased by the customer, as most rows expect it.
        func subscription(
            _ id: String, _ product: String = Given.monthly, _ state: AccessState = .active, from: Double,
            to: Double, ownership: OwnershipType = .purchased, willRenew: Bool? = nil,
            _ change: (inout EntitlementDecision) -> Void = { _ in }
        ) -> EntitlementDecision {
            var answer = EntitlementDecision(
                isActive: state.grantsAccess, state: state, productId: ProductID(product),
                transactionId: TransactionID(id),
                originalTransactionId: OriginalTransactionID(id), expiresDate: d(to), willRenew: willRenew,
                period: .normal, ownership: ownership, originalPurchaseDate: d(from), latestPurchaseDate: d(from))
            change(&answer)
            return answer
        }
        let lifetime = EntitlementDecision(
            isActive: true, state: .active, productId: ProductID(Given.lifetime), transactionId: "1330",
            originalTransactionId: "1330", period: .normal, ownership: .purchased, originalPurchaseDate: d(5),
            latestPurchaseDate: d(5))
        let nothing = EntitlementDecision(isActive: false)
        return [
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a product that grants answers before a newer one that does not",
                source: "decision table: the entitlement is unlocked by the product that grants",
                history: History(transactions: [
                    Given.oneTime("1330", Given.lifetime, type: .nonConsumable, on: 5),
                    Given.subscription("1301", from: 10, to: 40),
                ]), asOf: 50, catalog: premium,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true),
                    ProductExpectation(Given.monthly, .expired, access: false),
                ],
                entitlementDecisions: ["premium": lifetime, "season": nothing]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: PURCHASED answers before FAMILY_SHARED, though the shared one "
                    + "lasts longer",
                source: "apple-facts 4: only the purchaser can manage or cancel; the member's copy follows it",
                history: History(transactions: [
                    Given.subscription("1302", Given.yearly, from: 0, to: 365, ownership: .familyShared),
                    Given.subscription("1303", from: 0, to: 30),
                ]), asOf: 10, catalog: premium,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true),
                    ProductExpectation(Given.yearly, .active, access: true),
                ],
                entitlementDecisions: ["premium": subscription("1303", from: 0, to: 30), "season": nothing]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: among granting purchases, the longest access answers, no end "
                    + "before any end",
                source: "decision table: the answer says how long the customer keeps access",
                history: History(transactions: [
                    Given.subscription("1304", Given.yearly, from: 0, to: 365),
                    Given.oneTime("1330", Given.lifetime, type: .nonConsumable, on: 5),
                ]), asOf: 10, catalog: premium,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true),
                    ProductExpectation(Given.yearly, .active, access: true),
                ],
                entitlementDecisions: ["premium": lifetime, "season": nothing]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: no end answers before an end however late, even after the year "
                    + "4001",
                source: "decision table: the answer says how long the customer keeps access; Foundation's "
                    + "distantFuture (4001) is no stand-in for no end, since readers accept dates up to 9999",
                history: History(transactions: [
                    Given.subscription("1308", Given.yearly, from: 0, to: 1_100_000),
                    Given.oneTime("1330", Given.lifetime, type: .nonConsumable, on: 5),
                ]), asOf: 10, catalog: premium,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true),
                    ProductExpectation(Given.yearly, .active, access: true),
                ],
                entitlementDecisions: ["premium": lifetime, "season": nothing]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: among granting purchases, the longest access answers, though "
                    + "its product id sorts after the other's",
                source: "decision table: the answer says how long the customer keeps access",
                history: History(transactions: [
                    Given.subscription("1318", Given.monthly, from: 0, to: 30),
                    Given.subscription("1319", Given.yearly, from: 0, to: 365),
                ]), asOf: 10, catalog: premium,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true),
                    ProductExpectation(Given.yearly, .active, access: true),
                ],
                entitlementDecisions: [
                    "premium": subscription("1319", Given.yearly, from: 0, to: 365), "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: equal access, the lowest product id answers",
                source: "decision table: the same history always gives the same answer",
                history: History(transactions: [
                    Given.subscription("1305", Given.monthly, from: 0, to: 30),
                    Given.subscription("1306", Given.basic, from: 0, to: 30),
                ]), asOf: 10, catalog: premium,
                products: [
                    ProductExpectation(Given.basic, .active, access: true),
                    ProductExpectation(Given.monthly, .active, access: true),
                ],
                entitlementDecisions: [
                    "premium": subscription("1306", Given.basic, from: 0, to: 30), "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: none grants, the product purchased last answers, with its "
                    + "revocationDate",
                source: "apple-facts 5: a refund sets revocationDate",
                history: History(transactions: [
                    Given.subscription("1307", from: 0, to: 30),
                    Given.oneTime("1331", Given.lifetime, type: .nonConsumable, on: 40, signed: 45) {
                        $0.revocationDate = Given.day(45)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 50, catalog: premium,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false),
                    ProductExpectation(Given.monthly, .expired, access: false),
                ],
                customer: .equals(.inactive), customerReason: .equals(.refunded),
                entitlementDecisions: [
                    "premium": EntitlementDecision(
                        isActive: false, state: .revoked, productId: ProductID(Given.lifetime), transactionId: "1331",
                        originalTransactionId: "1331", period: .normal, ownership: .purchased,
                        originalPurchaseDate: d(40), latestPurchaseDate: d(40), revocationDate: d(45)),
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a renewed chain reads its start as originalPurchaseDate and "
                    + "the renewal as latestPurchaseDate",
                source: "apple-facts 1: originalPurchaseDate is the chain's first purchase",
                history: History(
                    transactions: [
                        Given.subscription("1308", from: 0, to: 30),
                        Given.subscription("1309", original: "1308", from: 30, to: 60) {
                            $0.originalPurchaseDate = Given.day(0)
                        },
                    ], renewalInfos: [Given.renewal("1308", signed: 30)]), asOf: 40, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                entitlementDecisions: [
                    "premium": subscription("1309", from: 30, to: 60, willRenew: true) {
                        $0.originalTransactionId = "1308"
                        $0.originalPurchaseDate = d(0)
                    },
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: in the grace period, its end, and the billing issue dated by the "
                    + "earliest DID_FAIL_TO_RENEW",
                source: "apple-facts 7; Apple: DID_FAIL_TO_RENEW, JWSRenewalInfoDecodedPayload.gracePeriodExpiresDate",
                history: {
                    let failed = Given.subscription("1310", from: 0, to: 30)
                    let grace = Given.renewal("1310", signed: 30.5) {
                        $0.isInBillingRetryPeriod = true
                        $0.gracePeriodExpiresDate = Given.day(46)
                    }
                    return History(
                        transactions: [failed], renewalInfos: [grace],
                        notifications: [
                            Given.notification(.didFailToRenew, .gracePeriod, signed: 30.5, transaction: failed),
                            Given.notification(.didFailToRenew, .gracePeriod, signed: 33, transaction: failed),
                        ])
                }(), asOf: 35, catalog: premium,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                entitlementDecisions: [
                    "premium": subscription("1310", Given.monthly, .gracePeriod, from: 0, to: 46, willRenew: true) {
                        $0.gracePeriodExpiresDate = d(46)
                        $0.billingIssueDetectedAt = d(30.5)
                    },
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a renewal info out of billing retry states no grace period, though "
                    + "it still carries a gracePeriodExpiresDate",
                source: "apple-facts 7; Apple: JWSRenewalInfoDecodedPayload.gracePeriodExpiresDate applies while "
                    + "isInBillingRetryPeriod is true",
                history: History(
                    transactions: [Given.subscription("1313", from: 0, to: 30)],
                    renewalInfos: [
                        Given.renewal("1313", signed: 5) {
                            $0.isInBillingRetryPeriod = false
                            $0.gracePeriodExpiresDate = Given.day(46)
                        }
                    ]), asOf: 10, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                entitlementDecisions: [
                    "premium": subscription("1313", from: 0, to: 30, willRenew: true),
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: billing retry known only from the renewal info dates the billing "
                    + "issue at the expiry",
                source: "apple-facts 7: a renewal fails at the expiry, then billing retry",
                history: History(
                    transactions: [Given.subscription("1311", from: 0, to: 30)],
                    renewalInfos: [Given.renewal("1311", signed: 31) { $0.isInBillingRetryPeriod = true }]),
                asOf: 35, catalog: premium,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry),
                entitlementDecisions: [
                    "premium": subscription("1311", Given.monthly, .billingRetry, from: 0, to: 30, willRenew: true) {
                        $0.billingIssueDetectedAt = d(30)
                    },
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: auto-renew turned off reads unsubscribeDetectedAt from the "
                    + "AUTO_RENEW_DISABLED notification",
                source: "Apple: DID_CHANGE_RENEWAL_STATUS with AUTO_RENEW_DISABLED",
                history: {
                    let off = Given.renewal("1312", signed: 5, autoRenew: .off)
                    return History(
                        transactions: [Given.subscription("1312", from: 0, to: 30)], renewalInfos: [off],
                        notifications: [
                            Given.notification(.didChangeRenewalStatus, .autoRenewDisabled, signed: 5, renewal: off)
                        ])
                }(), asOf: 10, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(false) }],
                entitlementDecisions: [
                    "premium": subscription("1312", from: 0, to: 30, willRenew: false) {
                        $0.unsubscribeDetectedAt = d(5)
                    },
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: auto-renew turned back on clears unsubscribeDetectedAt",
                source: "Apple: DID_CHANGE_RENEWAL_STATUS with AUTO_RENEW_ENABLED",
                history: {
                    let off = Given.renewal("1313", signed: 5, autoRenew: .off)
                    let on = Given.renewal("1313", signed: 8)
                    return History(
                        transactions: [Given.subscription("1313", from: 0, to: 30)], renewalInfos: [off, on],
                        notifications: [
                            Given.notification(.didChangeRenewalStatus, .autoRenewDisabled, signed: 5, renewal: off),
                            Given.notification(.didChangeRenewalStatus, .autoRenewEnabled, signed: 8, renewal: on),
                        ])
                }(), asOf: 10, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(true) }],
                entitlementDecisions: [
                    "premium": subscription("1313", from: 0, to: 30, willRenew: true), "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: auto-renew back on per a newer renewal info, its "
                    + "AUTO_RENEW_ENABLED notification lost: no unsubscribe date",
                source: "apple-facts 10: notifications can be lost; the newest renewal info is the truth (rule 6)",
                history: {
                    let off = Given.renewal("1316", signed: 5, autoRenew: .off)
                    return History(
                        transactions: [Given.subscription("1316", from: 0, to: 30)],
                        renewalInfos: [off, Given.renewal("1316", signed: 8)],
                        notifications: [
                            Given.notification(.didChangeRenewalStatus, .autoRenewDisabled, signed: 5, renewal: off)
                        ])
                }(), asOf: 10, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(true) }],
                entitlementDecisions: [
                    "premium": subscription("1316", from: 0, to: 30, willRenew: true), "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: auto-renew off per the renewal info, its AUTO_RENEW_DISABLED "
                    + "notification lost: no unsubscribe date is invented from an older AUTO_RENEW_ENABLED",
                source: "apple-facts 10: notifications can be lost; the newest renewal info is the truth (rule 6)",
                history: {
                    let on = Given.renewal("1317", signed: 2)
                    return History(
                        transactions: [Given.subscription("1317", from: 0, to: 30)],
                        renewalInfos: [on, Given.renewal("1317", signed: 5, autoRenew: .off)],
                        notifications: [
                            Given.notification(.didChangeRenewalStatus, .autoRenewEnabled, signed: 2, renewal: on)
                        ])
                }(), asOf: 10, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(false) }],
                entitlementDecisions: [
                    "premium": subscription("1317", from: 0, to: 30, willRenew: false), "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a pending downgrade names the product it renews into",
                source: "apple-facts 8; Apple: JWSRenewalInfoDecodedPayload.autoRenewProductId",
                history: History(
                    transactions: [Given.subscription("1314", Given.yearly, from: 0, to: 365)],
                    renewalInfos: [
                        Given.renewal("1314", Given.yearly, signed: 20) { $0.autoRenewProductId = Given.monthly }
                    ]
                ), asOf: 30, catalog: premium,
                products: [ProductExpectation(Given.yearly, .active, access: true)],
                entitlementDecisions: [
                    "premium": subscription("1314", Given.yearly, from: 0, to: 365, willRenew: true) {
                        $0.autoRenewProductId = ProductID(Given.monthly)
                    },
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a free trial reads period freeTrial; a non-renewing pass ends with "
                    + "its catalog duration",
                source: "apple-facts 6 and 9: offerType 1 with FREE_TRIAL; the app decides a non-renewing duration",
                history: History(transactions: [
                    Given.subscription("1315", from: 0, to: 7) {
                        $0.offerType = .introductory
                        $0.offerDiscountType = .freeTrial
                        $0.price = 0
                    },
                    Given.oneTime("1332", Given.pass, type: .nonRenewing, on: 1),
                ]), asOf: 3, catalog: premium,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true),
                    ProductExpectation(Given.pass, .active, access: true),
                ],
                entitlementDecisions: [
                    "premium": subscription("1315", from: 0, to: 7) { $0.period = .freeTrial },
                    // The pass ends three months after d1: 2026-04-02T00:00:00Z.
                    "season": EntitlementDecision(
                        isActive: true, state: .active, productId: ProductID(Given.pass), transactionId: "1332",
                        originalTransactionId: "1332", expiresDate: Date(timeIntervalSince1970: 1_775_088_000),
                        period: .normal, ownership: .purchased, originalPurchaseDate: d(1), latestPurchaseDate: d(1)),
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a renewal info signed before the newest period began says "
                    + "nothing of it: a recovered customer sees no grace end",
                source: "apple-facts 7: the renewal info describes the period it was signed in",
                history: {
                    let lapsed = Given.subscription("1320", from: 0, to: 30)
                    let recovered = Given.subscription("1321", original: "1320", from: 33, to: 63) {
                        $0.originalPurchaseDate = Given.day(0)
                    }
                    let failing = Given.renewal("1320", signed: 30.5) {
                        $0.isInBillingRetryPeriod = true
                        $0.gracePeriodExpiresDate = Given.day(46)
                    }
                    return History(
                        transactions: [lapsed], renewalInfos: [failing],
                        notifications: [
                            Given.notification(.didFailToRenew, .gracePeriod, signed: 30.5, transaction: lapsed),
                            Given.notification(.didRenew, .billingRecovery, signed: 33, transaction: recovered),
                        ])
                }(), asOf: 40, catalog: premium,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                entitlementDecisions: [
                    "premium": subscription("1321", from: 33, to: 63, willRenew: true) {
                        $0.originalTransactionId = "1320"
                        $0.originalPurchaseDate = d(0)
                    },
                    "season": nothing,
                ]),
            DecisionRow(
                rule: .customerStatus,
                name: "one answer per entitlement: a DID_FAIL_TO_RENEW of an earlier, recovered period is not this "
                    + "period's billing issue",
                source: "Apple: DID_FAIL_TO_RENEW; DID_RENEW with BILLING_RECOVERY ends the earlier failure",
                history: {
                    let first = Given.subscription("1322", from: 0, to: 30)
                    let second = Given.subscription("1323", original: "1322", from: 32, to: 62) {
                        $0.originalPurchaseDate = Given.day(0)
                    }
                    let grace = Given.renewal("1322", signed: 62.5) {
                        $0.isInBillingRetryPeriod = true
                        $0.gracePeriodExpiresDate = Given.day(70)
                    }
                    return History(
                        transactions: [first, second], renewalInfos: [grace],
                        notifications: [
                            Given.notification(.didFailToRenew, .gracePeriod, signed: 30.5, transaction: first),
                            Given.notification(.didRenew, .billingRecovery, signed: 32, transaction: second),
                            Given.notification(.didFailToRenew, .gracePeriod, signed: 63, transaction: second),
                        ])
                }(), asOf: 65, catalog: premium,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                entitlementDecisions: [
                    "premium": subscription("1323", Given.monthly, .gracePeriod, from: 32, to: 70, willRenew: true) {
                        $0.originalTransactionId = "1322"
                        $0.originalPurchaseDate = d(0)
                        $0.gracePeriodExpiresDate = d(70)
                        $0.billingIssueDetectedAt = d(63)
                    },
                    "season": nothing,
                ]),
        ]
    }()

    /// Rule 11: the inactive reason of highest priority, for each pair of neighbours in the stated order.
    static let reasonOrder: [DecisionRow] = {
        let monthlyRetry = Given.renewal("1601", signed: 31) { $0.isInBillingRetryPeriod = true }
        let yearlyRetry = Given.renewal("1602", Given.yearly, signed: 31) { $0.isInBillingRetryPeriod = true }
        func refunded(_ id: String, _ product: String, ownership: OwnershipType = .purchased) -> TransactionPayload {
            Given.subscription(id, product, from: 0, to: 30, ownership: ownership, signed: 10) {
                $0.revocationDate = Given.day(10)
                $0.revocationType = .refundFull
            }
        }
        func familyRevoked(_ id: String, _ product: String) -> TransactionPayload {
            Given.subscription(id, product, from: 0, to: 30, ownership: .familyShared, signed: 10) {
                $0.revocationDate = Given.day(10)
                $0.revocationType = .familyRevoke
            }
        }
        func revokedUnknown(_ id: String, _ product: String) -> TransactionPayload {
            Given.subscription(id, product, from: 0, to: 30, signed: 10) {
                $0.revocationDate = Given.day(10)
                $0.revocationType = .assignmentRevoke
            }
        }
        let undetermined = Given.subscription("1609", Given.yearly, from: 0, to: 30) { $0.expiresDate = nil }
        func row(
            _ name: String, _ history: History, _ reason: InactiveReason, _ products: [ProductExpectation],
            diagnostics: Set<Diagnostic.Code> = []
        ) -> DecisionRow {
            DecisionRow(
                rule: .customerStatus, name: "\(name): the customer's reason is \(reason.rawValue)",
                source: "decision table: the inactive reasons' stated priority", history: history, asOf: 35,
                products: products, customer: .equals(.inactive), customerReason: .equals(reason),
                diagnostics: diagnostics)
        }
        return [
            row(
                "billing retry on the customer's own purchase and on a family member's copy",
                History(
                    transactions: [
                        Given.subscription("1601", from: 0, to: 30),
                        Given.subscription("1602", Given.yearly, from: 0, to: 30, ownership: .familyShared),
                    ], renewalInfos: [monthlyRetry, yearlyRetry]), .billingRetry,
                [
                    ProductExpectation(Given.monthly, .billingRetry, access: false),
                    ProductExpectation(Given.yearly, .billingRetry, access: false),
                ]),
            row(
                "billing retry on a family member's copy and a refunded purchase",
                History(
                    transactions: [
                        refunded("1603", Given.monthly),
                        Given.subscription("1602", Given.yearly, from: 0, to: 30, ownership: .familyShared),
                    ], renewalInfos: [yearlyRetry]), .billingRetryFamilyMember,
                [
                    ProductExpectation(Given.monthly, .revoked, access: false),
                    ProductExpectation(Given.yearly, .billingRetry, access: false),
                ]),
            row(
                "a refund and a family revocation",
                History(transactions: [familyRevoked("1604", Given.monthly), refunded("1605", Given.yearly)]),
                .refunded,
                [
                    ProductExpectation(Given.monthly, .revoked, access: false),
                    ProductExpectation(Given.yearly, .revoked, access: false),
                ]),
            row(
                "a family revocation and a revocation of another cause",
                History(transactions: [revokedUnknown("1606", Given.monthly), familyRevoked("1607", Given.yearly)]),
                .familyRevocation,
                [
                    ProductExpectation(Given.monthly, .revoked, access: false),
                    ProductExpectation(Given.yearly, .revoked, access: false),
                ]),
            row(
                "a revocation of another cause and an expiry",
                History(transactions: [
                    Given.subscription("1608", Given.monthly, from: 0, to: 30), revokedUnknown("1610", Given.yearly),
                ]), .revoked,
                [
                    ProductExpectation(Given.monthly, .expired, access: false),
                    ProductExpectation(Given.yearly, .revoked, access: false),
                ]),
            row(
                "an expiry and a transaction that cannot be decided",
                History(transactions: [Given.subscription("1608", Given.monthly, from: 0, to: 30), undetermined]),
                .expired,
                [
                    ProductExpectation(Given.monthly, .expired, access: false),
                    ProductExpectation(Given.yearly, .undetermined, access: false),
                ], diagnostics: [.missingExpiresDate]),
        ]
    }()
}
