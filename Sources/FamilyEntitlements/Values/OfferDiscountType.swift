/// How an offer is paid; Apple's `offerDiscountType`.
public struct OfferDiscountType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A free trial. Raw value `FREE_TRIAL`.
    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    /// A discounted price paid each period: a paid offer, never a trial. Raw value `PAY_AS_YOU_GO`.
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    /// A discounted price paid once for the offer's duration: a paid offer, never a trial. Raw value `PAY_UP_FRONT`.
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    /// A discount on a one-time product. Raw value `ONE_TIME`.
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")

    public static let documentedValues: [OfferDiscountType] = [
        .freeTrial,
        .payAsYouGo,
        .payUpFront,
        .oneTime,
    ]
}
