/// An identifier the App Store or the app's catalog names as a string, kept apart from other identifiers by its type.
///
/// Like `AppAccountToken`, each is a small value with no dependency: it wraps the string unchanged, compares and hashes
/// as the string, encodes as the bare string, and, as a dictionary key, keeps the dictionary a JSON object keyed by
/// the raw string. A string literal makes one, so that `report.decision(for: "com.example.pro")` reads as before.
public protocol StringIdentifier: RawRepresentable, Hashable, Sendable, Comparable, Codable, CodingKeyRepresentable,
    ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
    init(rawValue: String)
}

extension StringIdentifier {
    /// The identifier of `rawValue`, unchanged.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }

    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A product identifier: Apple's `productId`, as App Store Connect names the product.
public struct ProductID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// An entitlement the app unlocks, as its catalog names it; without a catalog, each product id is its own.
public struct EntitlementID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The entitlement a product is on its own, where no catalog maps it.
    public init(_ productId: ProductID) { self.init(rawValue: productId.rawValue) }
}

/// An original transaction identifier: Apple's `originalTransactionId`, shared by a subscription's renewals.
public struct OriginalTransactionID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A transaction identifier: Apple's `transactionId`, one purchase, renewal, restore or family member's copy.
public struct TransactionID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
