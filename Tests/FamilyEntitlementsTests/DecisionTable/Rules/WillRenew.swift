import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 6: willRenew comes from the chain's newest renewal info, for members too.
    static let willRenew: [DecisionRow] = {
        let shared = Given.subscription("5001", from: 0, to: 30, ownership: .familyShared)
        let own = Given.subscription("5101", from: 0, to: 30)
        return [
            DecisionRow(
                rule: .willRenew,
                name: "member with renewal info: willRenew is the member's own autoRenewStatus, never assumed",
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
                rule: .willRenew, name: "no renewal info known: willRenew is null, not true",
                source: "decision table: never assume true",
                history: History(transactions: [shared]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(nil) }]),
            DecisionRow(
                rule: .willRenew, name: "auto-renew on while active: willRenew true",
                source: "apple-facts 2: autoRenewStatus 1 on",
                history: History(transactions: [own], renewalInfos: [Given.renewal("5101", signed: 1)]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(true) }]),
            DecisionRow(
                rule: .willRenew, name: "expired: willRenew false even if the last renewal info said on",
                source: "decision table: false once expired, revoked or upgraded",
                history: History(transactions: [own], renewalInfos: [Given.renewal("5101", signed: 1)]), asOf: 31,
                products: [ProductExpectation(Given.monthly, .expired, access: false) { $0.willRenew = .equals(false) }]
            ),
            DecisionRow(
                rule: .willRenew, name: "an unknown autoRenewStatus: willRenew null, reported",
                source: "decision table: unknown values are kept and reported",
                history: History(
                    transactions: [own],
                    renewalInfos: [Given.renewal("5101", signed: 1, autoRenew: AutoRenewStatus(rawValue: 7))]),
                asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(nil) }],
                diagnostics: [.unknownAutoRenewStatus]),
            DecisionRow(
                rule: .willRenew, name: "revoked: willRenew false even if the last renewal info said on",
                source: "decision table: false once expired, revoked or upgraded",
                history: History(
                    transactions: [
                        Given.subscription("5101", from: 0, to: 30, signed: 3) {
                            $0.revocationDate = Given.day(3)
                            $0.revocationType = .refundFull
                        }
                    ], renewalInfos: [Given.renewal("5101", signed: 1)]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .revoked, access: false) { $0.willRenew = .equals(false) }]
            ),
            DecisionRow(
                rule: .willRenew, name: "upgraded: willRenew false even if the last renewal info said on",
                source: "decision table: false once expired, revoked or upgraded",
                history: History(
                    transactions: [Given.subscription("5101", from: 0, to: 30, signed: 3) { $0.isUpgraded = true }],
                    renewalInfos: [Given.renewal("5101", signed: 1)]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .upgraded, access: false) { $0.willRenew = .equals(false) }
                ]
            ),
            DecisionRow(
                rule: .willRenew, name: "billing retry: willRenew is the renewal info's autoRenewStatus",
                source: "decision table: with access or in billing retry, the newest renewal info's autoRenewStatus",
                history: History(
                    transactions: [own],
                    renewalInfos: [Given.renewal("5101", signed: 31) { $0.isInBillingRetryPeriod = true }]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .billingRetry, access: false) { $0.willRenew = .equals(true) }
                ]),
            DecisionRow(
                rule: .willRenew, name: "a non-consumable and a non-renewing pass: willRenew null, they do not renew",
                source: "decision table: null for products that do not renew",
                history: History(transactions: [
                    Given.oneTime("5501", Given.lifetime, type: .nonConsumable, on: 0),
                    Given.oneTime("5502", Given.pass, type: .nonRenewing, on: 0),
                ]), asOf: 5,
                catalog: ProductCatalog(products: [
                    ProductID(Given.lifetime): .init(type: .nonConsumable),
                    ProductID(Given.pass): .init(type: .nonRenewing, duration: .init(months: 3)),
                ]),
                products: [
                    ProductExpectation(Given.lifetime, .active, access: true) { $0.willRenew = .equals(nil) },
                    ProductExpectation(Given.pass, .active, access: true) { $0.willRenew = .equals(nil) },
                ]),
        ]
    }()
}
