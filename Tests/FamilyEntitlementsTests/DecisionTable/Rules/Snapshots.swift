import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// The rows of ``DecisionRule/snapshots``, in the order docs/decision-table.md lists them.
    static let snapshots: [DecisionRow] = newestSnapshots + laterSnapshots + renewalInfoTrust + undatedEntries

    /// Rule 1: the newest snapshot of a transaction is the truth.
    static let newestSnapshots: [DecisionRow] = {
        let active = Given.subscription("1001", from: 0, to: 30)
        let refunded = Given.subscription("1001", from: 0, to: 30, signed: 10) { $0.revocationDate = Given.day(10) }
        let reversed = Given.subscription("1001", from: 0, to: 30, signed: 12)
        let extended = Given.subscription("1001", from: 0, to: 40, signed: 25)
        return [
            DecisionRow(
                rule: .snapshots, name: "the same snapshot repeated: one decision, as if it arrived once",
                source: "apple-facts 5: Get Transaction History returns a transaction again",
                history: History(transactions: [active, active, active]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)], customer: .equals(.active)),
            DecisionRow(
                rule: .snapshots,
                name: "REFUND then REFUND_REVERSED: the newest snapshot, without revocation, restores access",
                source: "apple-facts 5: REFUND_REVERSED reinstates access; the newest snapshot is the truth",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: active),
                    Given.notification(.refund, signed: 10, transaction: refunded),
                    Given.notification(.refundReversed, signed: 12, transaction: reversed),
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.reasons = [Reason(.snapshots, .refundReversed(transactionId: "1001"))]
                    }
                ]),
            DecisionRow(
                rule: .snapshots, name: "REFUND without reversal: the revoking snapshot ends access",
                source: "apple-facts 5: REFUND carries revocationDate; access ends",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: active),
                    Given.notification(.refund, signed: 10, transaction: refunded),
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(true)
                    }
                ]),
            DecisionRow(
                rule: .snapshots,
                name: "RENEWAL_EXTENDED: the newer snapshot's later expiresDate grants past the old expiry",
                source: "apple-facts 5: the newest snapshot of a transaction is the truth",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: active),
                    Given.notification(.renewalExtended, signed: 25, transaction: extended),
                ]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.expiresDate = .equals(Given.day(40)) }
                ]),
            DecisionRow(
                rule: .snapshots, name: "a stale snapshot arriving late changes nothing: the refund stays",
                source: "apple-facts 5: the newest snapshot of a transaction is the truth",
                history: History(transactions: [refunded, active]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .revoked, access: false)]),
            DecisionRow(
                rule: .snapshots, name: "equal signedDates: the revoking snapshot wins, and the conflict is reported",
                source: "decision table: a refund is never lost to a snapshot signed in the same millisecond",
                history: History(transactions: [
                    Given.subscription("1001", from: 0, to: 30, signed: 10),
                    refunded,
                ]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .revoked, access: false)],
                diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots, name: "two different revoking snapshots with one signedDate: reported, still revoked",
                source: "decision table: a tie the revocation cannot settle is reported, never settled by arrival",
                history: History(transactions: [
                    refunded,
                    Given.subscription("1001", from: 0, to: 30, signed: 10) {
                        $0.revocationDate = Given.day(10)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .revoked, access: false)],
                diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "a transaction purchased after the instant does not count yet: the customer is new",
                source: "decision table: the instant of evaluation is explicit",
                history: History(transactions: [Given.subscription("1001", from: 20, to: 50)]), asOf: 10,
                products: [], customer: .equals(.new), customerReason: .equals(nil)),
            DecisionRow(
                rule: .snapshots,
                name: "two different snapshots with one signedDate: reported, and the order does not matter",
                source: "decision table: the same entries in any order give the same answer",
                history: History(transactions: [
                    Given.subscription("1001", from: 0, to: 30, signed: 3),
                    Given.subscription("1001", from: 0, to: 31, signed: 3),
                ]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "two snapshots with one signedDate, one isUpgraded: the upgraded one grants less and wins",
                source: "decision table: at equal signedDates the snapshot that grants less wins",
                history: History(transactions: [
                    Given.subscription("1501", from: 0, to: 30, signed: 10),
                    Given.subscription("1501", from: 0, to: 30, signed: 10) { $0.isUpgraded = true },
                ]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .upgraded, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired), diagnostics: [.conflictingSnapshots]
            ),
            DecisionRow(
                rule: .snapshots,
                name: "two snapshots with one signedDate, the isUpgraded one expiring later: isUpgraded outranks the "
                    + "expiry, the upgraded one wins",
                source: "decision table: at equal signedDates the snapshot that grants less wins",
                history: History(transactions: [
                    Given.subscription("1503", from: 0, to: 30, signed: 10),
                    Given.subscription("1503", from: 0, to: 40, signed: 10) { $0.isUpgraded = true },
                ]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .upgraded, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired), diagnostics: [.conflictingSnapshots]
            ),
            DecisionRow(
                rule: .snapshots,
                name: "two snapshots with one signedDate revoking at different dates: the earlier revocation wins, "
                    + "whatever their expiries",
                source: "decision table: at equal signedDates the snapshot that grants less wins",
                history: History(transactions: [
                    Given.subscription("1502", from: 0, to: 30, signed: 12) { $0.revocationDate = Given.day(12) },
                    Given.subscription("1502", from: 0, to: 40, signed: 12) { $0.revocationDate = Given.day(8) },
                ]), asOf: 13,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.reasons = [
                            Reason(
                                .revocationCause,
                                .revoked(
                                    transactionId: "1502", at: Given.day(8), cause: .refund, revocationType: nil,
                                    revocationReason: nil, ownership: .purchased))
                        ]
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded),
                diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "two revoking snapshots with one signedDate and revocationDate, different revocationTypes: "
                    + "the one whose JSON sorts first states the cause",
                source: "decision table: between equals the one whose JSON sorts first, so that order never matters",
                history: History(transactions: [
                    Given.subscription("1503", from: 0, to: 30, ownership: .familyShared, signed: 10) {
                        $0.revocationDate = Given.day(10)
                        $0.revocationType = .refundFull
                    },
                    Given.subscription("1503", from: 0, to: 30, ownership: .familyShared, signed: 10) {
                        $0.revocationDate = Given.day(10)
                        $0.revocationType = .familyRevoke
                    },
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(false)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation),
                diagnostics: [.conflictingSnapshots]),
        ]
    }()

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
                rule: .snapshots, name: "a reversal signed after the instant does not undo a refund known by then",
                source: "apple-facts 5: the newest snapshot is the truth, as of when it was signed",
                history: History(transactions: [lifetime, refunded, reversedLater]), asOf: 10,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ],
                customer: .equals(.inactive), customerReason: .equals(.refunded), diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: .snapshots, name: "RENEWAL_EXTENDED signed after the instant does not revive an expired period",
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
                rule: .snapshots, name: "a snapshot signed in year 9999 does not override a refund",
                source: "decision table: a snapshot from the future is never the truth at the instant",
                history: History(transactions: [monthly, refundedMonthly, farFuture]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ],
                diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: .snapshots,
                name: "audit of a past instant from snapshots all signed later: the earliest speaks for it",
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
                rule: .snapshots,
                name:
                    "a purchase after the instant whose snapshots, all signed later, disagree: nothing is set aside yet",
                source: "decision table: a transaction purchased after the instant does not count yet",
                history: History(transactions: [
                    Given.subscription("1402", from: 20, to: 50, signed: 20),
                    Given.subscription("1402", from: 20, to: 60, signed: 30),
                ]), asOf: 10,
                products: [], customer: .equals(.new), diagnostics: []),
            DecisionRow(
                rule: .snapshots,
                name: "audit from snapshots all signed later: an extension signed later does not reach back",
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
                rule: .snapshots,
                name: "a later snapshot may take access away: a revocation dated by the instant counts",
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
                rule: .snapshots,
                name: "two later snapshots revoking by the instant: the earlier revocation is used, with its cause",
                source: "decision table: a later snapshot may take access away, and the one that takes it first speaks",
                history: History(transactions: [
                    Given.subscription("1401", from: 0, to: 30, signed: 120) {
                        $0.revocationDate = Given.day(8)
                        $0.revocationType = .refundProrated
                    },
                    monthly,
                    Given.subscription("1401", from: 0, to: 30, signed: 100) {
                        $0.revocationDate = Given.day(5)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 10,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(false)
                    }
                ],
                diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: .snapshots,
                name: "a revocation by the instant, signed again later: the snapshot signed by then speaks, nothing is "
                    + "set aside",
                source: "decision table: the newest snapshot signed by the instant is the truth; a later one may only "
                    + "take access away, and this one takes nothing more",
                history: History(transactions: [
                    Given.subscription("1408", from: 0, to: 30, signed: 6) {
                        $0.revocationDate = Given.day(5)
                        $0.revocationType = .refundFull
                    },
                    Given.subscription("1408", from: 0, to: 30, signed: 100) {
                        $0.revocationDate = Given.day(5)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 10,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(false)
                    }
                ]),
            DecisionRow(
                rule: .snapshots, name: "a snapshot left out, signed by the instant, makes one signed later untrusted",
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
                rule: .snapshots,
                name: "a snapshot left out, older than the one kept by the instant, changes nothing: it grants",
                source: "decision table: the newest snapshot signed by the instant is the truth",
                history: History(transactions: [
                    Given.oneTime("4303", Given.lifetime, type: .nonConsumable, on: 0, signed: 1) {
                        $0.environment = nil
                    },
                    Given.oneTime("4303", Given.lifetime, type: .nonConsumable, on: 0, signed: 3),
                ]), asOf: 10, products: [ProductExpectation(Given.lifetime, .active, access: true)],
                customer: .equals(.active), diagnostics: [.missingEnvironment]),
            DecisionRow(
                rule: .snapshots,
                name: "two snapshots left out, one older and one newer than the kept one: the newer one makes it "
                    + "untrusted",
                source: "decision table: the newest snapshot left out may carry a refund",
                history: History(transactions: [
                    Given.oneTime("4302", Given.lifetime, type: .nonConsumable, on: 0, signed: 1) {
                        $0.environment = nil
                    },
                    Given.oneTime("4302", Given.lifetime, type: .nonConsumable, on: 0, signed: 3),
                    Given.oneTime("4302", Given.lifetime, type: .nonConsumable, on: 0, signed: 5) {
                        $0.revocationDate = Given.day(5)
                        $0.environment = nil
                    },
                ]), asOf: 10, products: [],
                customer: .equals(.inactive), diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .snapshots, name: "a later snapshot revoking after the instant changes nothing at it",
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
                rule: .snapshots, name: "a newer renewal info left out makes the older one untrusted: no grace period",
                source: "decision table: a snapshot left out may carry the end of billing retry",
                history: History(transactions: [lapsed], renewalInfos: [inGrace, retryEndedNoEnvironment]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired),
                diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .snapshots,
                name: "two renewal infos left out, one older and one newer than the kept one: the newer one makes it "
                    + "untrusted",
                source: "decision table: the newest snapshot left out may carry the end of billing retry",
                history: History(
                    transactions: [lapsed],
                    renewalInfos: [
                        inGrace, retryEndedNoEnvironment,
                        Given.renewal("2401", signed: 20) { $0.environment = nil },
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired),
                diagnostics: [.missingEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .snapshots,
                name: "renewal infos signed in the same millisecond, both in grace: the earlier grace end wins",
                source: "decision table: a tie never grants; renewal infos by the end of their grace period",
                history: History(
                    transactions: [lapsed],
                    renewalInfos: [
                        Given.renewal("2401", signed: 30) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(37)
                        }, inGrace,
                    ]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .gracePeriod, access: true) {
                        $0.expiresDate = .equals(Given.day(37))
                    }
                ], diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "renewal infos signed in the same millisecond: billing retry without grace wins over a grace "
                    + "period",
                source: "decision table: a tie never grants; billing retry grants less than a grace period",
                history: History(
                    transactions: [lapsed],
                    renewalInfos: [inGrace, Given.renewal("2401", signed: 30) { $0.isInBillingRetryPeriod = true }]),
                asOf: 35, products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry),
                diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "renewal infos signed in the same millisecond: the one that grants less wins, reported",
                source: "decision table: a tie never grants; the entries in any order give the same answer",
                history: History(transactions: [lapsed], renewalInfos: [inGrace, retryEndedTied]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "renewal infos signed in the same millisecond, neither in a grace period: out of billing retry "
                    + "wins over billing retry, whatever their JSON",
                source: "decision table: a tie never grants; the entries in any order give the same answer",
                history: History(
                    transactions: [lapsed],
                    renewalInfos: [
                        Given.renewal("2401", signed: 30, autoRenew: .off) { $0.isInBillingRetryPeriod = true },
                        retryEndedTied,
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired), diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: .snapshots,
                name: "the newest renewal of a chain left out: its renewal info says nothing of the older one",
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
                rule: .snapshots,
                name: "a renewal left out that is older than the chain's newest: the renewal info still speaks for the "
                    + "newest, in its grace period",
                source: "apple-facts 7: the renewal info describes the chain's newest transaction",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 15, to: 45) { $0.quantity = 0 },
                        Given.subscription("2403", original: "2401", from: 30, to: 60),
                    ],
                    renewalInfos: [graceAfterRenewal]), asOf: 65,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                customer: .equals(.active), diagnostics: [.impossibleValue]),
            DecisionRow(
                rule: .snapshots,
                name: "two renewals left out, the first older and the second newer than the chain's newest: the "
                    + "renewal info speaks for the newer one, so no grace for the chain's newest",
                source: "apple-facts 7: the renewal info describes the chain's newest transaction",
                history: History(
                    transactions: [
                        lapsed,
                        Given.subscription("2402", original: "2401", from: 15, to: 45) { $0.quantity = 0 },
                        Given.subscription("2403", original: "2401", from: 30, to: 60),
                        Given.subscription("2404", original: "2401", from: 40, to: 70) { $0.quantity = 0 },
                    ],
                    renewalInfos: [graceAfterRenewal]), asOf: 65,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.impossibleValue]),
            DecisionRow(
                rule: .snapshots,
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
                rule: .snapshots,
                name: "a renewal left out but purchased after the instant: the grace period running now stays",
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
                rule: .snapshots,
                name: "snapshots of one transaction that disagree on its chain: it grants nothing, in either",
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
                rule: .snapshots,
                name: "snapshots of one transaction that disagree on its purchaseDate: it grants nothing",
                source: "apple-facts 5: a transaction's ids and purchase never change; differing snapshots: untrusted",
                history: History(transactions: [
                    Given.subscription("2406", from: 0, to: 30),
                    Given.subscription("2406", from: 1, to: 30, signed: 2),
                ]), asOf: 5, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.inconsistentTransaction]),
            DecisionRow(
                rule: .snapshots,
                name: "snapshots of one transaction that disagree on its productId: it grants nothing",
                source: "apple-facts 5: a transaction's ids and purchase never change; differing snapshots: untrusted",
                history: History(transactions: [
                    Given.subscription("2407", from: 0, to: 30),
                    Given.subscription("2407", Given.yearly, from: 0, to: 30, signed: 2),
                ]), asOf: 5, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.inconsistentTransaction]),
            DecisionRow(
                rule: .snapshots,
                name: "the newest renewal of a chain read with an unknown type: the older one gets no grace",
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
                rule: .snapshots,
                name: "a renewal info signed after the instant does not revive a grace period ended by then",
                source: "apple-facts 7: the newest renewal info signed by the instant describes it",
                history: History(transactions: [lapsed], renewalInfos: [retryEnded, graceLater]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.signedAfterInstant]),
        ]
    }()
}
