/// Apple's reason for a revocation; Apple's `revocationReason`.
public struct RevocationReason: AppleValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Another reason; also set on a member's copy when the member leaves the family or sharing stops. Raw value `0`.
    public static let otherReason = RevocationReason(rawValue: 0)
    /// An issue in the app; on a member's copy, only a refund carries it. Raw value `1`.
    public static let appIssue = RevocationReason(rawValue: 1)

    public static let documentedValues: [RevocationReason] = [
        .otherReason,
        .appIssue,
    ]
}
