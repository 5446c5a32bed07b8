import FamilyEntitlements
import Foundation

extension EntitlementDecision {
    /// Every field of the answer, by its JSON name, with its value in words; dates as `dates` writes them.
    func fields(dates: (Date) -> String) -> [(name: String, value: String)] {
        func text(_ date: Date?) -> String { date.map(dates) ?? "null" }
        func text<Value: RawRepresentable<String>>(_ value: Value?) -> String { value?.rawValue ?? "null" }
        return [
            ("isActive", "\(isActive)"),
            ("state", text(state)),
            ("productId", text(productId)),
            ("transactionId", transactionId?.rawValue ?? "null"),
            ("originalTransactionId", text(originalTransactionId)),
            ("expiresDate", text(expiresDate)),
            ("willRenew", willRenew.map { "\($0)" } ?? "null"),
            ("period", text(period)),
            ("ownership", text(ownership)),
            ("originalPurchaseDate", text(originalPurchaseDate)),
            ("latestPurchaseDate", text(latestPurchaseDate)),
            ("revocationDate", text(revocationDate)),
            ("gracePeriodExpiresDate", text(gracePeriodExpiresDate)),
            ("billingIssueDetectedAt", text(billingIssueDetectedAt)),
            ("unsubscribeDetectedAt", text(unsubscribeDetectedAt)),
            ("autoRenewProductId", text(autoRenewProductId)),
        ]
    }

    /// The answer as the decision table states it: whether it is active, then every field that is not null.
    func summary(dates: (Date) -> String) -> String {
        let shown = fields(dates: dates).dropFirst().filter { $0.value != "null" }
        let words = shown.map { name, value in
            "\(name) \(value.replacingOccurrences(of: "org.familyentitlements.demo.", with: ""))"
        }
        return ([isActive ? "active" : "not active"] + words).joined(separator: ", ")
    }
}

extension Date {
    /// Milliseconds since 1970, as the report's JSON writes a date.
    var millisecondsText: String { "\(Int64((timeIntervalSince1970 * 1000).rounded()))" }
}
