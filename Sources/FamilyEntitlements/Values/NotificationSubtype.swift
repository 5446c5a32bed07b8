/// The detail of a notification type; Apple's `subtype`.
public struct NotificationSubtype: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A first purchase, or a family member's first shared access. Raw value `INITIAL_BUY`.
    public static let initialBuy = NotificationSubtype(rawValue: "INITIAL_BUY")
    /// A customer subscribed again after the subscription had expired. Raw value `RESUBSCRIBE`.
    public static let resubscribe = NotificationSubtype(rawValue: "RESUBSCRIBE")
    /// A downgrade that takes effect at the next renewal. Raw value `DOWNGRADE`.
    public static let downgrade = NotificationSubtype(rawValue: "DOWNGRADE")
    /// An upgrade that takes effect at once. Raw value `UPGRADE`.
    public static let upgrade = NotificationSubtype(rawValue: "UPGRADE")
    /// Auto-renew was turned on. Raw value `AUTO_RENEW_ENABLED`.
    public static let autoRenewEnabled = NotificationSubtype(rawValue: "AUTO_RENEW_ENABLED")
    /// Auto-renew was turned off. Raw value `AUTO_RENEW_DISABLED`.
    public static let autoRenewDisabled = NotificationSubtype(rawValue: "AUTO_RENEW_DISABLED")
    /// The subscription expired after the customer turned auto-renew off. Raw value `VOLUNTARY`.
    public static let voluntary = NotificationSubtype(rawValue: "VOLUNTARY")
    /// The subscription expired after billing retry ended. Raw value `BILLING_RETRY`.
    public static let billingRetry = NotificationSubtype(rawValue: "BILLING_RETRY")
    /// The subscription expired because the customer did not consent to a price increase. Raw value `PRICE_INCREASE`.
    public static let priceIncrease = NotificationSubtype(rawValue: "PRICE_INCREASE")
    /// The subscription expired because the product was not for sale at renewal. Raw value `PRODUCT_NOT_FOR_SALE`.
    public static let productNotForSale = NotificationSubtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    /// The renewal failed and the customer keeps service in the billing grace period. Raw value `GRACE_PERIOD`.
    public static let gracePeriod = NotificationSubtype(rawValue: "GRACE_PERIOD")
    /// A renewal succeeded after failed billing: a recovery, not a new purchase. Raw value `BILLING_RECOVERY`.
    public static let billingRecovery = NotificationSubtype(rawValue: "BILLING_RECOVERY")
    /// A price increase awaits the customer's consent. Raw value `PENDING`.
    public static let pending = NotificationSubtype(rawValue: "PENDING")
    /// The customer accepted a price increase, or it needed no consent. Raw value `ACCEPTED`.
    public static let accepted = NotificationSubtype(rawValue: "ACCEPTED")
    /// A renewal-date extension for all subscribers finished. Raw value `SUMMARY`.
    public static let summary = NotificationSubtype(rawValue: "SUMMARY")
    /// A renewal-date extension failed for one subscription. Raw value `FAILURE`.
    public static let failure = NotificationSubtype(rawValue: "FAILURE")
    /// An external purchase token was not reported. Raw value `UNREPORTED`.
    public static let unreported = NotificationSubtype(rawValue: "UNREPORTED")
    /// An external purchase token was created. Raw value `CREATED`.
    public static let created = NotificationSubtype(rawValue: "CREATED")
    /// A reminder that an external purchase token is active. Raw value `ACTIVE_TOKEN_REMINDER`.
    public static let activeTokenReminder = NotificationSubtype(rawValue: "ACTIVE_TOKEN_REMINDER")

    public static let documentedValues: [NotificationSubtype] = [
        .initialBuy,
        .resubscribe,
        .downgrade,
        .upgrade,
        .autoRenewEnabled,
        .autoRenewDisabled,
        .voluntary,
        .billingRetry,
        .priceIncrease,
        .productNotForSale,
        .gracePeriod,
        .billingRecovery,
        .pending,
        .accepted,
        .summary,
        .failure,
        .unreported,
        .created,
        .activeTokenReminder,
    ]
}
