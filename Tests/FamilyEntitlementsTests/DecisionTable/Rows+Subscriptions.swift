import FamilyEntitlements

extension DecisionRow {
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
                rule: 2, name: "inside a period: access while purchaseDate <= t < expiresDate",
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
                rule: 2, name: "after expiresDate with no renewal info: expired, willRenew false",
                source: "apple-facts 7: EXPIRED ends access",
                history: History(transactions: [first, second]), asOf: 61,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) { $0.willRenew = .equals(false) }
                ],
                customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: 2,
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
                rule: 2, name: "billing retry after the grace period: billingRetry without access",
                source: "apple-facts 7: after grace, billing retry goes on without access",
                history: History(transactions: [first, second], renewalInfos: [inGrace]), asOf: 80,
                products: [
                    ProductExpectation(Given.monthly, .billingRetry, access: false) { $0.willRenew = .equals(true) }
                ],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry)),
            DecisionRow(
                rule: 2, name: "billing retry without a grace period: billingRetry, ask to update payment",
                source: "apple-facts 7 and 10: billing retry is on hold, not expired",
                history: History(transactions: [first, second], renewalInfos: [retrying]), asOf: 62,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.billingRetry)),
            DecisionRow(
                rule: 2,
                name: "billing retry more than 60 days after expiry: expired, whatever the old renewal info says",
                source: "apple-facts 7: Apple retries billing for up to 60 days",
                history: History(transactions: [first, second], renewalInfos: [retrying]), asOf: 121,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: 2, name: "EXPIRED ends the grace period an older renewal info still reports",
                source: "apple-facts 7 and 10: EXPIRED ends access; unmapped EXPIRED left rows active",
                history: History(
                    transactions: [first, second], renewalInfos: [inGrace],
                    notifications: [
                        Given.notification(.expired, .billingRetry, signed: 64, transaction: second)
                    ]), asOf: 65,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) {
                        $0.because = ["EXPIRED BILLING_RETRY"]
                    }
                ]),
            DecisionRow(
                rule: 2, name: "GRACE_PERIOD_EXPIRED ends the grace period: billing retry goes on without access",
                source: "apple-facts 3 and 7: GRACE_PERIOD_EXPIRED, billing retry goes on",
                history: History(
                    transactions: [first, second], renewalInfos: [inGrace],
                    notifications: [Given.notification(.gracePeriodExpired, signed: 64, transaction: second)]),
                asOf: 65,
                products: [ProductExpectation(Given.monthly, .billingRetry, access: false)]),
            DecisionRow(
                rule: 2, name: "DID_RENEW BILLING_RECOVERY: access again, recorded as a recovery, not a new purchase",
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
                        $0.because = ["recovery after failed billing, not a new purchase"]
                    }
                ]),
            DecisionRow(
                rule: 2, name: "renewal info signed before the newest period began says nothing about it",
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
                rule: 2, name: "refunding a past renewal does not end the current period",
                source: "apple-facts 5: the refunded transaction carries revocationDate",
                history: History(transactions: [
                    Given.subscription("2001", from: 0, to: 30, signed: 40) { $0.revocationDate = Given.day(40) },
                    second,
                ]), asOf: 45,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("2002") }
                ]),
            DecisionRow(
                rule: 2, name: "refunding the current period ends access at once",
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
                rule: 2, name: "an auto-renewable transaction without expiresDate never grants",
                source: "decision table: never access on bad data",
                history: History(transactions: [Given.subscription("2001", from: 0, to: 30) { $0.expiresDate = nil }]),
                asOf: 5,
                products: [ProductExpectation(Given.monthly, .undetermined, access: false)],
                customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.missingExpiresDate]),
        ]
    }()
}
