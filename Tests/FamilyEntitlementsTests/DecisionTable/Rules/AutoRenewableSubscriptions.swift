import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// The rows of ``DecisionRule/autoRenewableSubscriptions``, in the order docs/decision-table.md lists them.
    static let autoRenewableSubscriptions: [DecisionRow] = subscriptions + edges + appleStatus + statusesAnswer

    /// Rule 2: auto-renewable subscriptions, renewal info, grace period and billing retry.
    static let subscriptions: [DecisionRow] = {
        let first = Given.subscription("2001", from: 0, to: 30)
        let second = Given.subscription("2002", original: "2001", from: 30, to: 60)
        let retrying = Given.renewal("2001", signed: 60) {
            $0.isInBillingRetryPeriod = true
            $0.expirationIntent = .billingError
        }
        let inGrace = Given.renewal("2001", signed: 60) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(76)
        }
        return [
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "inside a period: access while purchaseDate <= t < expiresDate",
                source: "apple-facts 7; App Store Server API: expiresDate",
                history: History(transactions: [first, second], renewalInfos: [Given.renewal("2001", signed: 30)]),
                asOf: 45,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.transactionId = .equals("2002")
                        $0.willRenew = .equals(true)
                        $0.canManage = .equals(true)
                    }
                ], customer: .equals(.active)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "after expiresDate with no renewal info: expired, willRenew false",
                source: "apple-facts 7: EXPIRED ends access",
                history: History(transactions: [first, second]), asOf: 61,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) { $0.willRenew = .equals(false) }
                ],
                customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "renewal failed, grace period running: gracePeriod with access until gracePeriodExpiresDate",
                source: "apple-facts 7: in the billing grace period the customer keeps access",
                history: History(transactions: [first, second], renewalInfos: [inGrace]), asOf: 65,
                products: [
                    ProductExpectation(Given.monthly, .gracePeriod, access: true) {
                        $0.expiresDate = .equals(Given.day(76))
                        $0.willRenew = .equals(true)
                    }
                ], customer: .equals(.active)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "billing retry after the grace period: billingRetry without access",
                source: "apple-facts 7: after grace, billing retry goes on without access",
                history: History(transactions: [first, second], renewalInfos: [inGrace]), asOf: 80,
                products: [
                    ProductExpectation(Given.monthly, .billingRetry, access: false) { $0.willRenew = .equals(true) }
                ],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "billing retry without a grace period: billingRetry, ask to update payment",
                source: "apple-facts 7 and 10: billing retry is on hold, not expired",
                history: History(transactions: [first, second], renewalInfos: [retrying]), asOf: 62,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "billing retry more than 60 days after expiry: expired, whatever the old renewal info says",
                source: "apple-facts 7: Apple retries billing for up to 60 days",
                history: History(transactions: [first, second], renewalInfos: [retrying]), asOf: 121,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "EXPIRED ends the grace period an older renewal info still reports",
                source: "apple-facts 7 and 10: EXPIRED ends access; unmapped EXPIRED left rows active",
                history: History(
                    transactions: [first, second], renewalInfos: [inGrace],
                    notifications: [
                        Given.notification(.expired, .billingRetry, signed: 64, transaction: second)
                    ]), asOf: 65,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) {
                        $0.reasons = [
                            Reason(
                                .autoRenewableSubscriptions,
                                .endedByNotification(
                                    Given.mention(.expired, .billingRetry, signed: 64), signed: Given.day(64)))
                        ]
                    }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "two EXPIRED of one period: the first ends the grace period, a later one does not postpone it",
                source: "apple-facts 7 and 10: EXPIRED ends access; a notification takes effect when it is signed",
                history: History(
                    transactions: [first, second], renewalInfos: [inGrace],
                    notifications: [
                        Given.notification(.expired, .billingRetry, signed: 62, transaction: second),
                        Given.notification(.expired, .billingRetry, signed: 66, transaction: second),
                    ]), asOf: 64,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) {
                        $0.reasons = [
                            Reason(
                                .autoRenewableSubscriptions,
                                .endedByNotification(
                                    Given.mention(.expired, .billingRetry, signed: 62), signed: Given.day(62)))
                        ]
                    }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "GRACE_PERIOD_EXPIRED ends the grace period: billing retry goes on without access",
                source: "apple-facts 3 and 7: GRACE_PERIOD_EXPIRED, billing retry goes on",
                history: History(
                    transactions: [first, second], renewalInfos: [inGrace],
                    notifications: [Given.notification(.gracePeriodExpired, signed: 64, transaction: second)]),
                asOf: 65,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "two GRACE_PERIOD_EXPIRED of one period: the first ends the grace period, a later one does not "
                    + "postpone it",
                source: "apple-facts 3 and 7: GRACE_PERIOD_EXPIRED takes effect when it is signed",
                history: History(
                    transactions: [first, second], renewalInfos: [inGrace],
                    notifications: [
                        Given.notification(.gracePeriodExpired, signed: 66, transaction: second),
                        Given.notification(.gracePeriodExpired, signed: 62, transaction: second),
                    ]), asOf: 64,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "DID_RENEW BILLING_RECOVERY: access again, recorded as a recovery, not a new purchase",
                source: "apple-facts 3 and 7: BILLING_RECOVERY restores access",
                history: History(
                    transactions: [first, second], renewalInfos: [retrying],
                    notifications: [
                        Given.notification(
                            .didRenew, .billingRecovery, signed: 66,
                            transaction: Given.subscription("2003", original: "2001", from: 66, to: 96),
                            renewal: Given.renewal("2001", signed: 66))
                    ]), asOf: 70,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.transactionId = .equals("2003")
                        $0.reasons = [Reason(.autoRenewableSubscriptions, .billingRecovery(transactionId: "2003"))]
                    }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "renewal info signed before the newest period began says nothing about it",
                source: "apple-facts 1: renewal info describes the newest transaction of its chain",
                history: History(
                    transactions: [first, second],
                    renewalInfos: [
                        Given.renewal("2001", signed: 29) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(90)
                        }
                    ]), asOf: 61,
                products: [ProductExpectation(Given.monthly, .expired, access: false)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions, name: "refunding a past renewal does not end the current period",
                source: "apple-facts 5: the refunded transaction carries revocationDate",
                history: History(transactions: [
                    Given.subscription("2001", from: 0, to: 30, signed: 40) { $0.revocationDate = Given.day(40) },
                    second,
                ]), asOf: 45,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("2002") }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions, name: "refunding the current period ends access at once",
                source: "apple-facts 5: REFUND, access ends",
                history: History(transactions: [
                    first,
                    Given.subscription("2002", original: "2001", from: 30, to: 60, signed: 40) {
                        $0.revocationDate = Given.day(40)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 45,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(false)
                        $0.willRenew = .equals(false)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "an auto-renewable transaction without expiresDate never grants, nor says it will renew",
                source: "decision table: never access on bad data",
                history: History(transactions: [Given.subscription("2001", from: 0, to: 30) { $0.expiresDate = nil }]),
                asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .undetermined, access: false) { $0.willRenew = .equals(false) }
                ],
                customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.missingExpiresDate]),
        ]
    }()

    /// Rule 2 at its edges: each row evaluates at the exact instant where one comparison decides, or pins which
    /// notifications belong to which period.
    static let edges: [DecisionRow] = {
        let period = Given.subscription("2101", from: 0, to: 30)
        let graceTo40 = Given.renewal("2101", signed: 30) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(40)
        }
        return [
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "exactly at purchaseDate: active, the period includes its first instant",
                source: "App Store Server API: purchaseDate; apple-facts 7",
                history: History(transactions: [period]), asOf: 0,
                products: [ProductExpectation(Given.monthly, .active, access: true)], customer: .equals(.active)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "exactly at expiresDate: expired, the period ends at that instant",
                source: "App Store Server API: expiresDate, the time the subscription expires",
                history: History(transactions: [period]), asOf: 30,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: .autoRenewableSubscriptions, name: "exactly at revocationDate: revoked, refund",
                source: "apple-facts 5: REFUND, the transaction carries revocationDate and access ends",
                history: History(transactions: [
                    Given.subscription("2101", from: 0, to: 30, signed: 3) {
                        $0.revocationDate = Given.day(3)
                        $0.revocationType = .refundFull
                    }
                ]), asOf: 3,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(false)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .autoRenewableSubscriptions, name: "exactly at gracePeriodExpiresDate: billingRetry, no access",
                source: "apple-facts 7: after the grace period billing retry goes on without access",
                history: History(transactions: [period], renewalInfos: [graceTo40]), asOf: 40,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "a renewal info signed in the same millisecond as the newest purchase still describes it",
                source: "apple-facts 1 and 7: renewal info describes the newest transaction of its chain",
                history: History(
                    transactions: [period],
                    renewalInfos: [
                        Given.renewal("2101", signed: 0) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(40)
                        }
                    ]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .gracePeriod, access: true) {
                        $0.expiresDate = .equals(Given.day(40))
                    }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions, name: "billing retry exactly 60 days after expiry: expired",
                source: "apple-facts 7: Apple retries billing for up to 60 days",
                history: History(
                    transactions: [period],
                    renewalInfos: [Given.renewal("2101", signed: 30) { $0.isInBillingRetryPeriod = true }]),
                asOf: 90,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "exactly at an EXPIRED notification's signedDate: expired, the grace period is over",
                source: "apple-facts 7 and 10: EXPIRED ends access",
                history: History(
                    transactions: [period], renewalInfos: [graceTo40],
                    notifications: [Given.notification(.expired, .billingRetry, signed: 35, transaction: period)]),
                asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "an EXPIRED notification from before a resubscription does not end the new period's grace",
                source: "apple-facts 3 and 7: EXPIRED ends the period it was sent for; a resubscription starts anew",
                history: History(
                    transactions: [
                        period,
                        Given.subscription("2102", original: "2101", from: 50, to: 60) {
                            $0.transactionReason = .purchase
                        },
                    ],
                    renewalInfos: [
                        Given.renewal("2101", signed: 60) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(76)
                        }
                    ],
                    notifications: [Given.notification(.expired, .voluntary, signed: 31, transaction: period)]),
                asOf: 65,
                products: [
                    ProductExpectation(Given.monthly, .gracePeriod, access: true) {
                        $0.transactionId = .equals("2102")
                    }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "two overlapping periods of one chain: revoking the longer one at the instant leaves the other",
                source: "apple-facts 4: re-read the whole history, another transaction may still entitle",
                history: History(transactions: [
                    Given.subscription("2101", from: 0, to: 20),
                    Given.subscription("2102", original: "2101", from: 10, to: 40, signed: 15) {
                        $0.revocationDate = Given.day(15)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("2101") }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "two periods of one chain grant at once: the one that lasts longer is reported",
                source: "decision table: the product is granted while any transaction grants, the longest reported",
                history: History(transactions: [
                    Given.subscription("2101", from: 0, to: 40),
                    Given.subscription("2102", original: "2101", from: 10, to: 30),
                ]), asOf: 20,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.transactionId = .equals("2101")
                        $0.expiresDate = .equals(Given.day(40))
                    }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "three periods of one chain grant at once: the one that lasts longest is reported, wherever it "
                    + "sits in the chain",
                source: "decision table: the product is granted while any transaction grants, the longest reported",
                history: History(transactions: [
                    Given.subscription("2108", from: 0, to: 30),
                    Given.subscription("2109", original: "2108", from: 10, to: 40),
                    Given.subscription("2110", original: "2108", from: 15, to: 35),
                ]), asOf: 20,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.transactionId = .equals("2109")
                        $0.expiresDate = .equals(Given.day(40))
                    }
                ]),
            // The first period's snapshot, signed on day 5, dates its refund on day 20: from then on the second period
            // is the one reported, though every field but the transaction reads as before. validUntil is day 20.
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "three periods of one chain grant alike, the first refunded from a later date: until then the "
                    + "first is reported",
                source: "decision table: a revocation counts from its revocationDate; ties by transactionId",
                history: History(transactions: [
                    Given.subscription("2113", from: 0, to: 40, signed: 20) {
                        $0.revocationDate = Given.day(20)
                        $0.revocationType = .refundFull
                    },
                    Given.subscription("2114", original: "2113", from: 5, to: 40),
                    Given.subscription("2115", original: "2113", from: 10, to: 40),
                ]), asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("2113") }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "exactly at the end of a period whose renewal was refunded at once: the old period is no "
                    + "candidate, the renewal alone answers",
                source: "decision table: a period ends at its expiresDate; evidence names the transactions that count",
                history: History(transactions: [
                    Given.subscription("2111", from: 0, to: 30),
                    Given.subscription("2112", original: "2111", from: 30, to: 60) {
                        $0.revocationDate = Given.day(30)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 30,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.transactionId = .equals("2112")
                        $0.reasonCount = .equals(2)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "two periods of one chain grant until the same instant: the lower transactionId is reported",
                source: "decision table: the product is granted while any transaction grants, ties by transactionId",
                history: History(transactions: [
                    Given.subscription("2103", from: 0, to: 30),
                    Given.subscription("2104", original: "2103", from: 10, to: 30),
                ]), asOf: 20,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("2103") }
                ]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name:
                    "two transactions of one chain bought in the same millisecond: the greater transactionId is newest",
                source: "decision table: the same entries in any order give the same answer; ties never follow arrival",
                history: History(
                    transactions: [
                        Given.subscription("2102", original: "2101", from: 0, to: 30),
                        Given.subscription("2101", from: 0, to: 30),
                    ], renewalInfos: [graceTo40]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .gracePeriod, access: true) { $0.transactionId = .equals("2102") }
                ]),
        ]
    }()
}

extension DecisionRow {
    /// A notification carrying Apple's own status of the chain (`data.status`) with its renewal info, signed on day
    /// `signed`.
    static func statusNotification(
        _ status: SubscriptionStatus, _ type: NotificationType, _ subtype: NotificationSubtype? = nil, signed: Double,
        renewal: RenewalInfoPayload
    ) -> NotificationPayload {
        var notification = Given.notification(type, subtype, signed: signed, renewal: renewal)
        notification.data?.status = status
        return notification
    }

    /// Apple's status of a chain as one Get All Subscription Statuses item states it, dated by its signed strings
    /// (day `signed`), of the demo app.
    static func statusSnapshot(
        _ original: String, _ status: SubscriptionStatus?, signed: Double?, environment: Environment? = .production
    ) -> SubscriptionStatusSnapshot {
        SubscriptionStatusSnapshot(
            originalTransactionId: original, status: status, signedDate: signed.map(Given.day),
            environment: environment, bundleId: "org.familyentitlements.demo", subscriptionGroupIdentifier: "21000001")
    }

    /// Rule 2: Apple's own status, as a cross-check of the rebuilt state.
    static let appleStatus: [DecisionRow] = {
        let subscription = Given.subscription("2901", from: 0, to: 30)
        return [
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 1 (active) after everything known, the rebuild expired: both named, reported",
                source:
                    "apple-facts 1 and 2: data.status, 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .active, .didChangeRenewalStatus, .autoRenewEnabled, signed: 40,
                            renewal: Given.renewal("2901", signed: 40))
                    ]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 2 (expired) while the rebuild grants: reported, and access stays the rebuild's",
                source: "decision table: neither Apple's status nor the rebuild is silently preferred",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .expired, .didChangeRenewalStatus, .autoRenewDisabled, signed: 10,
                            renewal: Given.renewal("2901", signed: 10, autoRenew: .off))
                    ]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                customer: .equals(.active), diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 3 (billing retry) where the rebuild sees a grace period: reported",
                source: "apple-facts 2 and 7: status 4 is the billing grace period, 3 billing retry without one",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .billingRetry, .didFailToRenew, .gracePeriod, signed: 31,
                            renewal: Given.renewal("2901", signed: 31) {
                                $0.isInBillingRetryPeriod = true
                                $0.gracePeriodExpiresDate = Given.day(40)
                            })
                    ]), asOf: 32,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)],
                diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 4 (grace period) where the renewal info states no grace period: reported",
                source: "apple-facts 2 and 7: status 4 is the billing grace period, 3 billing retry without one",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .billingGracePeriod, .didFailToRenew, signed: 31,
                            renewal: Given.renewal("2901", signed: 31) { $0.isInBillingRetryPeriod = true })
                    ]), asOf: 32,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status agreeing with the rebuild: nothing reported",
                source: "apple-facts 2 and 7: status 4 is the billing grace period",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .billingGracePeriod, .didFailToRenew, .gracePeriod, signed: 31,
                            renewal: Given.renewal("2901", signed: 31) {
                                $0.isInBillingRetryPeriod = true
                                $0.gracePeriodExpiresDate = Given.day(40)
                            })
                    ]), asOf: 32,
                products: [ProductExpectation(Given.monthly, .gracePeriod, access: true)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status older than a renewal known since: not compared",
                source: "decision table: only a status dated after everything else known of the chain speaks for it",
                history: History(
                    transactions: [subscription, Given.subscription("2902", original: "2901", from: 30, to: 60)],
                    notifications: [
                        statusNotification(
                            .expired, .didChangeRenewalStatus, .autoRenewDisabled, signed: 20,
                            renewal: Given.renewal("2901", signed: 20, autoRenew: .off))
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status older than the chain's renewal info: not compared",
                source: "decision table: only a status dated after everything else known of the chain speaks for it",
                history: History(
                    transactions: [subscription],
                    renewalInfos: [Given.renewal("2901", signed: 25, autoRenew: .off)],
                    subscriptionStatuses: [statusSnapshot("2901", .active, signed: 20)]), asOf: 40,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 1 (active) of a cancelled subscription, re-checked after its expiry: compared "
                    + "at the instant Apple signed it, when it was true; no alarm at a normal end",
                source: "apple-facts 2: a status is Apple's at its signedDate; a cancelled subscription stays active "
                    + "until its expiresDate, then expires without a notification of its status",
                history: History(
                    transactions: [subscription],
                    renewalInfos: [Given.renewal("2901", signed: 10, autoRenew: .off)],
                    subscriptionStatuses: [statusSnapshot("2901", .active, signed: 10)]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 4 (grace period), re-checked after the grace period ended: compared at the "
                    + "instant Apple signed it, when it was true; no alarm",
                source: "apple-facts 2 and 7: status 4 is the billing grace period, which ends at "
                    + "gracePeriodExpiresDate while billing retry goes on",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .billingGracePeriod, .didFailToRenew, .gracePeriod, signed: 31,
                            renewal: Given.renewal("2901", signed: 31) {
                                $0.isInBillingRetryPeriod = true
                                $0.gracePeriodExpiresDate = Given.day(40)
                            })
                    ]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Apple's status 2 (expired) signed while the rebuild granted, re-checked after the expiry: it "
                    + "was wrong when signed, and the alarm stays",
                source: "decision table: Apple's status is compared with the state at the instant it was signed, "
                    + "not with a later state that happens to agree",
                history: History(
                    transactions: [subscription],
                    renewalInfos: [Given.renewal("2901", signed: 10, autoRenew: .off)],
                    subscriptionStatuses: [statusSnapshot("2901", .expired, signed: 10)]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.appleStatusDisagrees]),
        ]
    }()

    /// Rule 2: Apple's status from Get All Subscription Statuses, the same cross-check: it never grants.
    static let statusesAnswer: [DecisionRow] = {
        let subscription = Given.subscription("2901", from: 0, to: 30)
        let source =
            "apple-facts 2: status of Get All Subscription Statuses, 1 active, 2 expired, 3 billing retry, 4 grace "
            + "period, 5 revoked; App Store Server API, Get All Subscription Statuses (lastTransactionsItem.status)"
        return [
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses says 1 (active) as the rebuild does: nothing reported",
                source: source,
                history: History(
                    transactions: [subscription], renewalInfos: [Given.renewal("2901", signed: 10)],
                    subscriptionStatuses: [statusSnapshot("2901", .active, signed: 10)]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses signed in the very millisecond as the transaction it carries: "
                    + "compared, and reported where they disagree",
                source: source + "; Apple signs the answer's transaction and renewal info when it answers",
                history: History(
                    transactions: [Given.subscription("2904", from: 0, to: 30, signed: 40)],
                    subscriptionStatuses: [statusSnapshot("2904", .active, signed: 40)]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses says 2 (expired) of a subscription upgraded away: they agree",
                source: source + "; apple-facts 8: an upgrade ends the old product at once",
                history: History(
                    transactions: [Given.subscription("2905", from: 0, to: 30, signed: 10) { $0.isUpgraded = true }],
                    subscriptionStatuses: [statusSnapshot("2905", .expired, signed: 12)]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .upgraded, access: false)],
                customer: .equals(.inactive)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses says 1 (active) of a renewed chain that has expired: compared "
                    + "with the chain's newest transaction, reported",
                source: source + "; decision table: where nothing grants, the state compared is the newest "
                    + "transaction's",
                history: History(
                    transactions: [
                        Given.subscription("2921", from: 0, to: 30),
                        Given.subscription("2922", original: "2921", from: 30, to: 60),
                    ],
                    subscriptionStatuses: [statusSnapshot("2921", .active, signed: 70)]), asOf: 75,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses says 1 (active), the history lacks the renewal: reported, and "
                    + "it grants nothing",
                source: source + "; decision table: Apple's status is a cross-check, never a grant",
                history: History(
                    transactions: [subscription], renewalInfos: [Given.renewal("2901", signed: 40)],
                    subscriptionStatuses: [statusSnapshot("2901", .active, signed: 40)]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.appleStatusDisagrees]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses says 2 (expired) while the rebuild grants: reported, and access "
                    + "stays the rebuild's",
                source: source + "; decision table: neither Apple's status nor the rebuild is silently preferred",
                history: History(
                    transactions: [subscription],
                    renewalInfos: [Given.renewal("2901", signed: 10, autoRenew: .off)],
                    subscriptionStatuses: [statusSnapshot("2901", .expired, signed: 10)]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                customer: .equals(.active), diagnostics: [.appleStatusDisagrees]),
            // Apple extended the first period to day 60; the renewal bought on day 30 lapsed on day 40 into a grace
            // period. Both grant on day 45, and the period that grants longest is the one Apple's status is read
            // against.
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses says 1 (active) while an earlier period still grants and the "
                    + "newest is in its grace period: compared with the period that grants longest, they agree",
                source: source + "; decision table: the state compared is the one the chain grants by",
                history: History(
                    transactions: [
                        Given.subscription("2911", from: 0, to: 60),
                        Given.subscription("2912", original: "2911", from: 30, to: 40),
                    ],
                    renewalInfos: [
                        Given.renewal("2911", signed: 41) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(50)
                        }
                    ],
                    subscriptionStatuses: [statusSnapshot("2911", .active, signed: 42)]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses answered before a renewal known since: not compared",
                source: "decision table: only a status dated after everything else known of the chain speaks for it",
                history: History(
                    transactions: [subscription, Given.subscription("2902", original: "2901", from: 30, to: 60)],
                    subscriptionStatuses: [statusSnapshot("2901", .expired, signed: 20)]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses of Sandbox in a Production rebuild: reported, never compared",
                source: "apple-facts 1: environment; decision table rule 9: an entry of another environment grants "
                    + "nothing and says nothing of this one",
                history: History(
                    transactions: [subscription],
                    subscriptionStatuses: [statusSnapshot("2901", .active, signed: 40, environment: .sandbox)]),
                asOf: 45,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), diagnostics: [.foreignEnvironment]),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses answered after a notification's status: the later one is compared",
                source: source + "; decision table: Apple's latest word on the chain is the one compared",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .active, .didChangeRenewalStatus, .autoRenewEnabled, signed: 40,
                            renewal: Given.renewal("2901", signed: 40))
                    ],
                    subscriptionStatuses: [statusSnapshot("2901", .expired, signed: 42)]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive)),
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "A notification's status after Get All Subscription Statuses answered: the later one is "
                    + "compared",
                source: source + "; decision table: Apple's latest word on the chain is the one compared",
                history: History(
                    transactions: [subscription],
                    notifications: [
                        statusNotification(
                            .expired, .didChangeRenewalStatus, .autoRenewDisabled, signed: 42,
                            renewal: Given.renewal("2901", signed: 42, autoRenew: .off))
                    ],
                    subscriptionStatuses: [statusSnapshot("2901", .active, signed: 40)]), asOf: 45,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive)),
            // Apple's answers for two chains, signed in one millisecond on day 20: the first chain's disagreement
            // ends as the second's begins. The decision does not change there (the same code, the same access), so
            // the report stays valid until day 30, when the monthly subscription expires.
            DecisionRow(
                rule: .autoRenewableSubscriptions,
                name: "Get All Subscription Statuses of two chains, answered in one millisecond: one disagreement "
                    + "ends as another begins, still reported",
                source: source + "; decision table: every disagreement is reported, chain by chain",
                history: History(
                    transactions: [
                        Given.subscription("2906", from: 0, to: 30),
                        Given.subscription("2907", Given.yearly, from: 0, to: 365),
                    ],
                    subscriptionStatuses: [
                        statusSnapshot("2906", .expired, signed: 10), statusSnapshot("2906", .expired, signed: 15),
                        statusSnapshot("2906", .active, signed: 20), statusSnapshot("2907", .active, signed: 5),
                        statusSnapshot("2907", .expired, signed: 20),
                    ]), asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true),
                    ProductExpectation(Given.yearly, .active, access: true),
                ], customer: .equals(.active), diagnostics: [.appleStatusDisagrees]),
        ]
    }()
}
