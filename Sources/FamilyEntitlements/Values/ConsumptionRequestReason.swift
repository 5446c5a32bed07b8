/// Why a customer asked for a refund; Apple's `consumptionRequestReason`.
public struct ConsumptionRequestReason: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer did not mean to buy. Raw value `UNINTENDED_PURCHASE`.
    public static let unintendedPurchase = ConsumptionRequestReason(rawValue: "UNINTENDED_PURCHASE")
    /// The customer did not receive the content. Raw value `FULFILLMENT_ISSUE`.
    public static let fulfillmentIssue = ConsumptionRequestReason(rawValue: "FULFILLMENT_ISSUE")
    /// The customer was not satisfied. Raw value `UNSATISFIED_WITH_PURCHASE`.
    public static let unsatisfiedWithPurchase = ConsumptionRequestReason(rawValue: "UNSATISFIED_WITH_PURCHASE")
    /// A legal reason. Raw value `LEGAL`.
    public static let legal = ConsumptionRequestReason(rawValue: "LEGAL")
    /// Another reason. Raw value `OTHER`.
    public static let other = ConsumptionRequestReason(rawValue: "OTHER")

    public static let documentedValues: [ConsumptionRequestReason] = [
        .unintendedPurchase,
        .fulfillmentIssue,
        .unsatisfiedWithPurchase,
        .legal,
        .other,
    ]
}
