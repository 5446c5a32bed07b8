/// The kind of offer a transaction or renewal used; Apple's `offerType`.
public struct OfferType: AppleValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// An introductory offer: a free trial only with `FREE_TRIAL`, otherwise a paid introductory price. Raw value `1`.
    public static let introductory = OfferType(rawValue: 1)
    /// A promotional offer. Raw value `2`.
    public static let promotional = OfferType(rawValue: 2)
    /// An offer code. Raw value `3`.
    public static let offerCode = OfferType(rawValue: 3)
    /// A win-back offer. Raw value `4`.
    public static let winBack = OfferType(rawValue: 4)

    public static let documentedValues: [OfferType] = [
        .introductory,
        .promotional,
        .offerCode,
        .winBack,
    ]
}
