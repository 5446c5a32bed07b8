/// Whether the customer bought a product or has it through Family Sharing; Apple's `inAppOwnershipType`.
public struct OwnershipType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer bought the product: `PURCHASED`.
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    /// A family member has the product through Family Sharing: `FAMILY_SHARED`.
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")

    public static let documentedValues: [OwnershipType] = [.purchased, .familyShared]
}
