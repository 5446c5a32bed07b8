/// Whether the subscription renews at the end of its period; Apple's `autoRenewStatus`.
public struct AutoRenewStatus: AppleValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Auto-renew is off. Raw value `0`.
    public static let off = AutoRenewStatus(rawValue: 0)
    /// Auto-renew is on. Raw value `1`.
    public static let on = AutoRenewStatus(rawValue: 1)

    public static let documentedValues: [AutoRenewStatus] = [
        .off,
        .on,
    ]
}
