import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Never over-grant: renewal infos and snapshots the instant cannot trust, another app's entries, impossible
    /// values, and the catalog's word against the transaction's.
    static let trust: [DecisionRow] = laterSnapshots + renewalInfoTrust + apps + impossibleValues + catalogs

    /// Rule 1: at an instant, a transaction's facts come from its newest snapshot signed by then.
    static let laterSnapshots: [DecisionRow] = {
        let lifetime = Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0)
        let refunded = Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0, signed: 9) {
            $0.revocationDate = Given.day(9)
            $0.revocationReason = .otherReason
        }
        let reversedLater = Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0, signed: 15)
        let monthly = Given.subscription("1401", from: 0, to: 30)
        let extendedLater = Given.subscription("1401", from: 0, to: 40, signed: 36)
        let refundedMonthly = Given.subscription("1401", from: 0, to: 30, signed: 10) {
            $0.revocationDate = Given.day(10)
        }
        var farFuture = Given.subscription("1401", from: 0, to: 30)
        farFuture.signedDate = Date(timeIntervalSince1970: 253_402_300_799)
        return [
            DecisionRow(
                rule: 1, name: "a reversal signed after the instant does not undo a refund known by then",
                source: "apple-facts 5: the newest snapshot is the truth, as of when it was signed",
                history: History(transactions: [lifetime, refunded, reversedLater]), asOf: 10,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ],
                customer: .equals(.inactive), customerReason: .equals(.refunded), diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: 1, name: "RENEWAL_EXTENDED signed after the instant does not revive an expired period",
                source: "apple-facts 5: a snapshot says what was true when it was signed",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: monthly),
                    Given.notification(.renewalExtended, signed: 36, transaction: extendedLater),
                ]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) {
                        $0.expiresDate = .equals(Given.day(30))
                    }
                ],
                customer: .equals(.inactive), customerReason: .equals(.expired), diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: 1, name: "a snapshot signed in year 9999 does not override a refund",
                source: "decision table: a snapshot from the future is never the truth at the instant",
                history: History(transactions: [monthly, refundedMonthly, farFuture]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ],
                diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: 1, name: "audit of a past instant from snapshots all signed later: the earliest speaks for it",
                source:
                    "App Store Server API: Get Transaction History signs every snapshot when it answers",
                history: History(transactions: [
                    Given.subscription("1401", from: 0, to: 30, signed: 100),
                    Given.subscription("1401", from: 0, to: 30, signed: 120) { $0.storefront = "GBR" },
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.expiresDate = .equals(Given.day(30))
                    }
                ],
                customer: .equals(.active), diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: 1, name: "audit from snapshots all signed later: an extension signed later does not reach back",
                source: "decision table: the snapshot signed nearest the instant speaks for it",
                history: History(transactions: [
                    Given.subscription("1401", from: 0, to: 30, signed: 100),
                    Given.subscription("1401", from: 0, to: 40, signed: 120),
                ]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) {
                        $0.expiresDate = .equals(Given.day(30))
                    }
                ],
                customer: .equals(.inactive), diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: 1, name: "a later snapshot may take access away: a revocation dated by the instant counts",
                source: "decision table: a later snapshot may take access away, never give it",
                history: History(transactions: [
                    lifetime,
                    Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0, signed: 100) {
                        $0.revocationDate = Given.day(5)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 10,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(false)
                    }
                ],
                diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: 1, name: "a snapshot left out, signed by the instant, makes one signed later untrusted",
                source: "decision table: the snapshot left out may be the one that speaks for the instant",
                history: History(transactions: [
                    Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0, signed: 5) {
                        $0.revocationDate = Given.day(5)
                        $0.environment = nil
                    },
                    Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0, signed: 100),
                ]), asOf: 10, products: [],
                customer: .equals(.inactive), diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: 1, name: "a later snapshot revoking after the instant changes nothing at it",
                source: "decision table: a revocation counts from its revocationDate",
                history: History(transactions: [
                    lifetime,
                    Given.oneTime("4301", Given.lifetime, type: .nonConsumable, on: 0, signed: 100) {
                        $0.revocationDate = Given.day(50)
                    },
                ]), asOf: 10,
                products: [ProductExpectation(Given.lifetime, .active, access: true)],
                diagnostics: [.signedAfterInstant]),
        ]
    }()

    /// Rule 1 for renewal infos: the newest signed by the instant, trusted only if nothing newer was left out.
    static let renewalInfoTrust: [DecisionRow] = {
        let lapsed = Given.subscription("2401", from: 0, to: 30)
        let inGrace = Given.renewal("2401", signed: 30) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(40)
        }
        let retryEnded = Given.renewal("2401", signed: 32, autoRenew: .off) { $0.isInBillingRetryPeriod = false }
        // Billing retry with a grace period after the renewal 2402 (days 30 to 60), which may be left out.
        let graceAfterRenewal = Given.renewal("2401", signed: 60) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(76)
        }
        let retryEndedTied = Given.renewal("2401", signed: 30) { $0.isInBillingRetryPeriod = false }
        var retryEndedNoEnvironment = retryEnded
        retryEndedNoEnvironment.environment = nil
        let graceLater = Given.renewal("2401", signed: 36) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(40)
        }
        return [
            DecisionRow(
                rule: 1, name: "a newer renewal info left out makes the older one untrusted: no grace period",
                source: "decision table: a snapshot left out may carry the end of billing retry",
                history: History(transactions: [lapsed], renewalInfos: [inGrace, retryEndedNoEnvironment]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired),
                diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: 1, name: "renewal infos signed in the same millisecond: the one that grants less wins, reported",
                source: "decision table: a tie never grants; the entries in any order give the same answer",
                history: History(transactions: [lapsed], renewalInfos: [inGrace, retryEndedTied]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: 1, name: "the newest renewal of a chain left out: its renewal info says nothing of the older one",
                source: "apple-facts 7: the renewal info describes the chain's newest transaction",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 30, to: 60) { $0.quantity = 0 },
                    ],
                    renewalInfos: [graceAfterRenewal]), asOf: 65,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.impossibleValue]),
            DecisionRow(
                rule: 1,
                name: "the newest renewal untrusted, its left-out snapshot dated later: no grace for the older one",
                source: "apple-facts 7: the renewal info describes the chain's newest transaction",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 30, to: 60),
                        Given.subscription("2402", original: "2401", from: 200, to: 60, signed: 70) {
                            $0.quantity = 0
                        },
                    ],
                    renewalInfos: [graceAfterRenewal]), asOf: 65,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.impossibleValue, .untrustedSnapshot]),
            DecisionRow(
                rule: 1, name: "a renewal left out but purchased after the instant: the grace period running now stays",
                source: "apple-facts 7: in the billing grace period the customer keeps access",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 50, to: 80) { $0.environment = nil },
                    ],
                    renewalInfos: [inGrace]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                customer: .equals(.active), diagnostics: [.missingEnvironment]),
            DecisionRow(
                rule: 1, name: "snapshots of one transaction that disagree on its chain: it grants nothing, in either",
                source: "apple-facts 5: a transaction's ids and purchase never change; differing snapshots: untrusted",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 30, to: 60),
                        Given.subscription("2402", original: "2499", from: 30, to: 60, signed: 31),
                    ],
                    renewalInfos: [graceAfterRenewal]), asOf: 65,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.inconsistentTransaction]),
            DecisionRow(
                rule: 1, name: "the newest renewal of a chain read with an unknown type: the older one gets no grace",
                source: "apple-facts 7: the renewal info describes the chain's newest transaction",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 30, to: 60) {
                            $0.type = ProductType(rawValue: "Auto-Renewable Subscription 2")
                        },
                    ],
                    renewalInfos: [graceAfterRenewal]), asOf: 65,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.unknownProductType]),
            DecisionRow(
                rule: 1, name: "a renewal info signed after the instant does not revive a grace period ended by then",
                source: "apple-facts 7: the newest renewal info signed by the instant describes it",
                history: History(transactions: [lapsed], renewalInfos: [retryEnded, graceLater]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.signedAfterInstant]),
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
                rule: 9, name: "the catalog names the app: another app's transaction grants nothing",
                source: "App Store Server API: bundleId identifies the app of a transaction",
                history: History(transactions: [otherLifetime, ours]), asOf: 5, catalog: app,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.foreignBundle, .uncataloguedProduct]),
            DecisionRow(
                rule: 9, name: "the catalog names the app: another app's notification grants nothing",
                source: "App Store Server Notifications: data.bundleId identifies the app",
                history: History(notifications: [otherNotification]), asOf: 5, catalog: app, products: [],
                customer: .equals(.new), diagnostics: [.foreignBundle]),
            DecisionRow(
                rule: 9, name: "no bundle id in the catalog and a history of two apps: reported as an error",
                source: "decision table: one history is one app's",
                history: History(transactions: [otherLifetime, ours]), asOf: 5,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true),
                    ProductExpectation(Given.monthly, .active, access: true),
                ],
                diagnostics: [.mixedBundles]),
        ]
    }()

    /// Rule 10: values no real payload carries never grant.
    static let impossibleValues: [DecisionRow] = {
        func lifetime(_ change: @escaping (inout TransactionPayload) -> Void) -> TransactionPayload {
            Given.oneTime("4401", Given.lifetime, type: .nonConsumable, on: 10, change)
        }
        let cases: [(String, TransactionPayload)] = [
            (
                "an expiresDate before purchaseDate",
                Given.subscription("2402", from: 10, to: 5)
            ),
            ("a revocationDate before purchaseDate", lifetime { $0.revocationDate = Given.day(5) }),
            ("an empty productId", lifetime { $0.productId = "" }),
            ("an empty transactionId", lifetime { $0.transactionId = "" }),
            ("quantity 0", lifetime { $0.quantity = 0 }),
            ("a negative price", lifetime { $0.price = -9990 }),
            (
                "a purchaseDate in seconds mistaken for milliseconds (1970)",
                lifetime { $0.purchaseDate = Date(timeIntervalSince1970: 1_767_225_600 / 1_000) }
            ),
        ]
        var rows = cases.map { name, transaction in
            DecisionRow(
                rule: 10, name: "\(name): impossible, grants nothing, reported",
                source: "decision table: never access on bad data; the App Store opened on 2008-07-10",
                history: History(
                    transactions: [transaction],
                    renewalInfos: [
                        Given.renewal("2402", signed: 10) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(40)
                        }
                    ]), asOf: 12, products: [],
                customer: .equals(.inactive), customerReason: .equals(.undetermined), diagnostics: [.impossibleValue])
        }
        rows.append(
            DecisionRow(
                rule: 10, name: "a renewal info signed before the App Store opened is left out: no grace period",
                source: "decision table: never access on bad data",
                history: History(
                    transactions: [Given.subscription("2403", from: 0, to: 30)],
                    renewalInfos: [
                        Given.renewal("2403", signed: 30) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(40)
                            $0.signedDate = Date(timeIntervalSince1970: 1_769_817_600 / 1_000)
                        }
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                diagnostics: [.impossibleValue]))
        return rows
    }()

    /// Rule 11: with a catalog, the catalog decides what a product unlocks, and disagreement grants nothing.
    static let catalogs: [DecisionRow] = {
        let season = ProductCatalog(products: [
            Given.pass: ProductCatalog.Product(entitlements: ["season"], type: .nonRenewing, duration: .init(months: 3))
        ])
        let pro = ProductCatalog(products: [Given.monthly: ProductCatalog.Product(entitlements: ["pro"])])
        return [
            DecisionRow(
                rule: 11, name: "the transaction's type against the catalog's: the disagreement grants nothing",
                source: "decision table: never access on contradictory data",
                history: History(transactions: [
                    Given.oneTime("4402", Given.pass, type: .nonConsumable, on: 0)
                ]), asOf: 200, catalog: season, products: [],
                customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.catalogTypeMismatch], entitlements: ["season": false]),
            DecisionRow(
                rule: 11, name: "with a catalog, a product it lacks unlocks nothing, not an entitlement of its own id",
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
