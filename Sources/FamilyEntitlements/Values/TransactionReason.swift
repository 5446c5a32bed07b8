/// Whether a transaction is a purchase or a renewal; Apple's `transactionReason`.
public struct TransactionReason: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A purchase, including an upgrade. Raw value `PURCHASE`.
    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    /// An automatic renewal, including a downgrade taking effect. Raw value `RENEWAL`.
    public static let renewal = TransactionReason(rawValue: "RENEWAL")

    public static let documentedValues: [TransactionReason] = [
        .purchase,
        .renewal,
    ]
}
