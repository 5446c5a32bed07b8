/// Why a subscription expired; Apple's `expirationIntent`.
public struct ExpirationIntent: AppleValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The customer cancelled. Raw value `1`.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    /// A billing error. Raw value `2`.
    public static let billingError = ExpirationIntent(rawValue: 2)
    /// The customer did not consent to a price increase. Raw value `3`.
    public static let didNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    /// The product was not available at renewal. Raw value `4`.
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    /// Another reason. Raw value `5`.
    public static let other = ExpirationIntent(rawValue: 5)

    public static let documentedValues: [ExpirationIntent] = [
        .customerCancelled,
        .billingError,
        .didNotConsentToPriceIncrease,
        .productNotAvailable,
        .other,
    ]
}
