import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 12: every decision says which transaction and which rule decided.
    static let evidence: [DecisionRow] = [
        DecisionRow(
            rule: .evidence, name: "evidence names the granting transaction, its snapshot and the rule",
            source: "decision table: every decision carries the reasons a support engineer needs",
            history: History(transactions: [Given.subscription("1208", from: 0, to: 30)]), asOf: 5,
            products: [
                ProductExpectation(Given.monthly, .active, access: true) {
                    $0.reasons = [
                        Reason(.snapshots, .newestSnapshot(transactionId: "1208", signed: Given.day(0))),
                        Reason(
                            .autoRenewableSubscriptions,
                            .subscriptionGrants(
                                transactionId: "1208", ownership: .purchased, from: Given.day(0), until: Given.day(30))),
                    ]
                }
            ])
    ]
}
