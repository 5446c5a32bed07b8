/// Why Apple revoked a transaction, stated outright; Apple's `revocationType` (from December 2025).
public struct RevocationType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A full refund. Raw value `REFUND_FULL`.
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    /// A prorated refund; see `revocationPercentage`. Raw value `REFUND_PRORATED`.
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    /// A Family Sharing revocation: sharing stopped or someone left the family. Raw value `FAMILY_REVOKE`.
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")
    /// An organisation withdrew an assigned purchase. Raw value `ASSIGNMENT_REVOKE`.
    public static let assignmentRevoke = RevocationType(rawValue: "ASSIGNMENT_REVOKE")

    public static let documentedValues: [RevocationType] = [
        .refundFull,
        .refundProrated,
        .familyRevoke,
        .assignmentRevoke,
    ]
}
