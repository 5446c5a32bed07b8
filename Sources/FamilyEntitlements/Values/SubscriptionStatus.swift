/// The status of a subscription in Get All Subscription Statuses and in notifications; Apple's `status`.
public struct SubscriptionStatus: AppleValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Active. Raw value `1`.
    public static let active = SubscriptionStatus(rawValue: 1)
    /// Expired. Raw value `2`.
    public static let expired = SubscriptionStatus(rawValue: 2)
    /// In billing retry, without service. Raw value `3`.
    public static let billingRetry = SubscriptionStatus(rawValue: 3)
    /// In the billing grace period, with service. Raw value `4`.
    public static let billingGracePeriod = SubscriptionStatus(rawValue: 4)
    /// Revoked. Raw value `5`.
    public static let revoked = SubscriptionStatus(rawValue: 5)

    public static let documentedValues: [SubscriptionStatus] = [
        .active,
        .expired,
        .billingRetry,
        .billingGracePeriod,
        .revoked,
    ]
}
