import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 12: every decision says which transaction and which rule decided.
    static let evidence: [DecisionRow] = [
        DecisionRow(
            rule: .evidence, name: "evidence names the granting transaction and the rule in words",
            source: "decision table: every decision carries the reasons a support engineer needs",
            history: History(transactions: [Given.subscription("1208", from: 0, to: 30)]), asOf: 5,
            products: [
                ProductExpectation(Given.monthly, .active, access: true) {
                    $0.because = [
                        "rule 1: the newest snapshot of transaction 1208",
                        "rule 2: transaction 1208 (PURCHASED) grants",
                    ]
                }
            ])
    ]
}
