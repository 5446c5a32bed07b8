/// The kind of in-app product; Apple's `type`.
public struct ProductType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An auto-renewable subscription. Raw value `Auto-Renewable Subscription`.
    public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    /// A non-consumable, bought once and kept. Raw value `Non-Consumable`.
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    /// A consumable, used up; never a lasting entitlement. Raw value `Consumable`.
    public static let consumable = ProductType(rawValue: "Consumable")
    /// A non-renewing subscription, whose duration the app decides. Raw value `Non-Renewing Subscription`.
    public static let nonRenewing = ProductType(rawValue: "Non-Renewing Subscription")

    public static let documentedValues: [ProductType] = [
        .autoRenewable,
        .nonConsumable,
        .consumable,
        .nonRenewing,
    ]
}
