import FamilyEntitlements

extension DecisionRow {
    /// Rule 1: the newest snapshot of a transaction is the truth.
    static let snapshots: [DecisionRow] = {
        let active = Given.subscription("1001", from: 0, to: 30)
        let refunded = Given.subscription("1001", from: 0, to: 30, signed: 10) { $0.revocationDate = Given.day(10) }
        let reversed = Given.subscription("1001", from: 0, to: 30, signed: 12)
        let extended = Given.subscription("1001", from: 0, to: 40, signed: 25)
        return [
            DecisionRow(
                rule: 1, name: "the same snapshot repeated: one decision, as if it arrived once",
                source: "apple-facts 5: Get Transaction History returns a transaction again",
                history: History(transactions: [active, active, active]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)], customer: .equals(.active)),
            DecisionRow(
                rule: 1, name: "REFUND then REFUND_REVERSED: the newest snapshot, without revocation, restores access",
                source: "apple-facts 5: REFUND_REVERSED reinstates access; the newest snapshot is the truth",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: active),
                    Given.notification(.refund, signed: 10, transaction: refunded),
                    Given.notification(.refundReversed, signed: 12, transaction: reversed),
                ]), asOf: 15,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.because = ["REFUND_REVERSED"] }
                ]),
            DecisionRow(
                rule: 1, name: "REFUND without reversal: the revoking snapshot ends access",
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
                rule: 1, name: "RENEWAL_EXTENDED: the newer snapshot's later expiresDate grants past the old expiry",
                source: "apple-facts 5: the newest snapshot of a transaction is the truth",
                history: History(notifications: [
                    Given.notification(.subscribed, .initialBuy, signed: 0, transaction: active),
                    Given.notification(.renewalExtended, signed: 25, transaction: extended),
                ]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.expiresDate = .equals(Given.day(40)) }
                ]),
            DecisionRow(
                rule: 1, name: "a stale snapshot arriving late changes nothing: the refund stays",
                source: "apple-facts 5: the newest snapshot of a transaction is the truth",
                history: History(transactions: [refunded, active]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .revoked, access: false)]),
            DecisionRow(
                rule: 1, name: "equal signedDates: the revoking snapshot wins, and the conflict is reported",
                source: "decision table: a refund is never lost to a snapshot signed in the same millisecond",
                history: History(transactions: [
                    Given.subscription("1001", from: 0, to: 30, signed: 10),
                    refunded,
                ]), asOf: 15,
                products: [ProductExpectation(Given.monthly, .revoked, access: false)],
                diagnostics: [.conflictingSnapshots]),
            DecisionRow(
                rule: 1, name: "two different revoking snapshots with one signedDate: reported, still revoked",
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
                rule: 1, name: "a transaction purchased after the instant does not count yet: the customer is new",
                source: "decision table: the instant of evaluation is explicit",
                history: History(transactions: [Given.subscription("1001", from: 20, to: 50)]), asOf: 10,
                products: [], customer: .equals(.new), customerReason: .equals(nil)),
            DecisionRow(
                rule: 1, name: "two different snapshots with one signedDate: reported, and the order does not matter",
                source: "decision table: the same entries in any order give the same answer",
                history: History(transactions: [
                    Given.subscription("1001", from: 0, to: 30, signed: 3),
                    Given.subscription("1001", from: 0, to: 31, signed: 3),
                ]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.conflictingSnapshots]),
        ]
    }()
}
