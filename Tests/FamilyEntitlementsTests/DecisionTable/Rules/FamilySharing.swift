import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 5: what a family member's copy grants, and one person holding two copies.
    static let familySharing: [DecisionRow] = {
        let shared = Given.subscription("5001", from: 0, to: 30, ownership: .familyShared)
        let own = Given.subscription("5101", from: 0, to: 30)
        return [
            DecisionRow(
                rule: .familySharing, name: "FAMILY_SHARED transaction grants on its own; the member cannot manage it",
                source: "apple-facts 4 and 10: the member cannot cancel or manage",
                history: History(transactions: [shared]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.ownership = .equals(.familyShared)
                        $0.canManage = .equals(false)
                    }
                ]),
            DecisionRow(
                rule: .familySharing,
                name: "PURCHASED and FAMILY_SHARED for one product: granted, the PURCHASED one reported",
                source: "decision table: PURCHASED preferred",
                history: History(transactions: [shared, own]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.ownership = .equals(.purchased)
                        $0.transactionId = .equals("5101")
                        $0.canManage = .equals(true)
                    }
                ]),
            DecisionRow(
                rule: .familySharing,
                name: "two purchases of one product: the one without end is reported before one ending however late",
                source: "decision table: PURCHASED preferred, then the longest access; an end after the year 4001 "
                    + "(Foundation's distantFuture) is still an end",
                history: History(transactions: [
                    Given.subscription("5602", Given.lifetime, from: 0, to: 1_100_000),
                    Given.oneTime("5601", Given.lifetime, type: .nonConsumable, on: 0),
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true) { $0.transactionId = .equals("5601") }
                ]),
            DecisionRow(
                rule: .familySharing, name: "family copy revoked, own purchase left: still granted by the purchase",
                source: "apple-facts 4: re-read the whole history, another transaction may still entitle",
                history: History(transactions: [
                    Given.subscription("5001", from: 0, to: 30, ownership: .familyShared, signed: 3) {
                        $0.revocationDate = Given.day(3)
                        $0.revocationType = .familyRevoke
                    }, own,
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("5101") }
                ]),
            DecisionRow(
                rule: .familySharing, name: "own purchase refunded, family copy left: still granted by the family copy",
                source: "apple-facts 4: re-read the whole history, another transaction may still entitle",
                history: History(transactions: [
                    shared,
                    Given.subscription("5101", from: 0, to: 30, signed: 3) {
                        $0.revocationDate = Given.day(3)
                        $0.revocationType = .refundFull
                    },
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.transactionId = .equals("5001")
                        $0.canManage = .equals(false)
                    }
                ]),
            DecisionRow(
                rule: .familySharing,
                name: "none grants: the newest transaction is reported, and the customer's reason follows it",
                source: "decision table: the newest transaction is the customer's latest state (apple-facts 10)",
                history: History(transactions: [
                    Given.subscription("5301", from: 0, to: 30),
                    Given.subscription("5302", from: 40, to: 70, ownership: .familyShared, signed: 50) {
                        $0.revocationDate = Given.day(50)
                        $0.revocationType = .familyRevoke
                    },
                ]), asOf: 60,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.transactionId = .equals("5302")
                        $0.revocationCause = .equals(.familyRevocation)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .familySharing,
                name: "shared non-consumable (ONE_TIME_CHARGE to a member): granted, not manageable",
                source: "apple-facts 4: a shared non-consumable arrives as ONE_TIME_CHARGE",
                history: History(notifications: [
                    Given.notification(
                        .oneTimeCharge, signed: 1,
                        transaction: Given.oneTime(
                            "5201", Given.lifetime, type: .nonConsumable, on: 1, ownership: .familyShared))
                ]), asOf: 2,
                products: [ProductExpectation(Given.lifetime, .active, access: true) { $0.canManage = .equals(false) }]),
            DecisionRow(
                rule: .familySharing,
                name: "two FAMILY_SHARED copies that grant alike: the lower transactionId is reported",
                source: "decision table: the same history always gives the same answer",
                history: History(transactions: [
                    Given.subscription("5402", from: 0, to: 30, ownership: .familyShared),
                    Given.subscription("5401", from: 0, to: 30, ownership: .familyShared),
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("5401") }
                ]),
            DecisionRow(
                rule: .familySharing,
                name: "two FAMILY_SHARED copies of a non-consumable, the higher id first: the lower transactionId is "
                    + "reported",
                source: "decision table: the same history always gives the same answer, whatever its order",
                history: History(transactions: [
                    Given.oneTime("5406", Given.lifetime, type: .nonConsumable, on: 1, ownership: .familyShared),
                    Given.oneTime("5405", Given.lifetime, type: .nonConsumable, on: 1, ownership: .familyShared),
                ]), asOf: 2,
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true) { $0.transactionId = .equals("5405") }
                ]),
            DecisionRow(
                rule: .familySharing,
                name: "two FAMILY_SHARED copies, one lasting longer: the longer one is reported",
                source: "decision table: the answer says how long the member keeps access",
                history: History(transactions: [
                    Given.subscription("5403", from: 0, to: 30, ownership: .familyShared),
                    Given.subscription("5404", from: 0, to: 40, ownership: .familyShared),
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.transactionId = .equals("5404")
                        $0.expiresDate = .equals(Given.day(40))
                    }
                ]),
            DecisionRow(
                rule: .familySharing,
                name: "none grants, two copies bought in the same millisecond: the greater transactionId is reported",
                source: "decision table: the same history always gives the same answer",
                history: History(transactions: [
                    Given.subscription("5406", from: 0, to: 30, ownership: .familyShared),
                    Given.subscription("5405", from: 0, to: 30),
                ]), asOf: 40,
                products: [
                    ProductExpectation(Given.monthly, .expired, access: false) {
                        $0.transactionId = .equals("5406")
                        $0.ownership = .equals(.familyShared)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.expired)),
        ]
    }()
}
