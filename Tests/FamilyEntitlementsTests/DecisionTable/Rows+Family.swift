import FamilyEntitlements

extension DecisionRow {
    /// Rule 5: Family Sharing; rule 6: willRenew.
    static let family: [DecisionRow] = {
        let shared = Given.subscription("5001", from: 0, to: 30, ownership: .familyShared)
        let own = Given.subscription("5101", from: 0, to: 30)
        return [
            DecisionRow(
                rule: 5, name: "FAMILY_SHARED transaction grants on its own; the member cannot manage it",
                source: "apple-facts 4 and 10: the member cannot cancel or manage",
                history: History(transactions: [shared]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.ownership = .equals(.familyShared)
                        $0.canManage = .equals(false)
                    }
                ]),
            DecisionRow(
                rule: 5, name: "PURCHASED and FAMILY_SHARED for one product: granted, the PURCHASED one reported",
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
                rule: 5, name: "family copy revoked, own purchase left: still granted by the purchase",
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
                rule: 5, name: "own purchase refunded, family copy left: still granted by the family copy",
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
                rule: 5,
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
                rule: 5, name: "shared non-consumable (ONE_TIME_CHARGE to a member): granted, not manageable",
                source: "apple-facts 4: a shared non-consumable arrives as ONE_TIME_CHARGE",
                history: History(notifications: [
                    Given.notification(
                        .oneTimeCharge, signed: 1,
                        transaction: Given.oneTime(
                            "5201", Given.lifetime, type: .nonConsumable, on: 1, ownership: .familyShared))
                ]), asOf: 2,
                products: [ProductExpectation(Given.lifetime, .active, access: true) { $0.canManage = .equals(false) }]),
            DecisionRow(
                rule: 6, name: "member with renewal info: willRenew is the member's own autoRenewStatus, never assumed",
                source: "apple-facts 4 and 10: members get renewal info; RevenueCat's willRenew = true misleads",
                history: History(
                    transactions: [shared], renewalInfos: [Given.renewal("5001", signed: 1, autoRenew: .off)]),
                asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) {
                        $0.willRenew = .equals(false)
                        $0.canManage = .equals(false)
                    }
                ]),
            DecisionRow(
                rule: 6, name: "no renewal info known: willRenew is null, not true",
                source: "decision table: never assume true",
                history: History(transactions: [shared]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(nil) }]),
            DecisionRow(
                rule: 6, name: "auto-renew on while active: willRenew true",
                source: "apple-facts 2: autoRenewStatus 1 on",
                history: History(transactions: [own], renewalInfos: [Given.renewal("5101", signed: 1)]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(true) }]),
            DecisionRow(
                rule: 6, name: "expired: willRenew false even if the last renewal info said on",
                source: "decision table: false once expired, revoked or upgraded",
                history: History(transactions: [own], renewalInfos: [Given.renewal("5101", signed: 1)]), asOf: 31,
                products: [ProductExpectation(Given.monthly, .expired, access: false) { $0.willRenew = .equals(false) }]
            ),
            DecisionRow(
                rule: 6, name: "an unknown autoRenewStatus: willRenew null, reported",
                source: "decision table: unknown values are kept and reported",
                history: History(
                    transactions: [own],
                    renewalInfos: [Given.renewal("5101", signed: 1, autoRenew: AutoRenewStatus(rawValue: 7))]),
                asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(nil) }],
                diagnostics: [.unknownAutoRenewStatus]),
        ]
    }()
}
