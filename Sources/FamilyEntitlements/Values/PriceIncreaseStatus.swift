/// Whether the customer consented to a price increase; Apple's `priceIncreaseStatus`.
public struct PriceIncreaseStatus: AppleValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The customer has not responded to a price increase that needs consent. Raw value `0`.
    public static let notResponded = PriceIncreaseStatus(rawValue: 0)
    /// The customer accepted, or the increase needed no consent. Raw value `1`.
    public static let accepted = PriceIncreaseStatus(rawValue: 1)

    public static let documentedValues: [PriceIncreaseStatus] = [
        .notResponded,
        .accepted,
    ]
}
