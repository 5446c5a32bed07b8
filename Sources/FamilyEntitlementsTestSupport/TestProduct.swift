import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A product the builders sell: an identifier with its type, and what a subscription's period is.
///
/// Make your own app's products with `autoRenewable`, `nonConsumable`, `consumable` and `nonRenewing`; the demo app's
/// are the static members of `DemoProduct` (the same type). Prices are milliunits of the storefront's currency
/// (4990 = 4.99). `period` is one paid period of an auto-renewable subscription, or the whole duration of a
/// non-renewing one; nil for products that do not expire.
public struct TestProduct: Hashable, Sendable {
    /// The product identifier, as in `TransactionPayload.productId` (whose wire form is its `rawValue`).
    public var productId: ProductID
    /// The product type, as in `TransactionPayload.type`.
    public var type: ProductType
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroupIdentifier: String?
    /// One paid period of a subscription, or the duration of a non-renewing subscription.
    public var period: ISO8601Duration?
    /// The price in milliunits of USD, the builders' currency (4990 = 4.99); 0 unless given.
    public var price: Int64
    /// The entitlements the product unlocks in a catalog made with `catalog(of:bundleId:)`.
    public var entitlements: [EntitlementID]

    public init(
        productId: ProductID, type: ProductType, subscriptionGroupIdentifier: String? = nil,
        period: ISO8601Duration? = nil, price: Int64 = 0, entitlements: [EntitlementID] = []
    ) {
        self.productId = productId
        self.type = type
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.period = period
        self.price = price
        self.entitlements = entitlements
    }
}

extension TestProduct {
    /// An auto-renewable subscription in subscription group `group`, renewing every `period`.
    public static func autoRenewable(
        _ productId: ProductID, group: String, period: ISO8601Duration = ISO8601Duration(months: 1), price: Int64 = 0,
        entitlements: [EntitlementID] = []
    ) -> TestProduct {
        TestProduct(
            productId: productId, type: .autoRenewable, subscriptionGroupIdentifier: group, period: period,
            price: price, entitlements: entitlements)
    }

    /// A non-consumable: bought once, never expires, may be shared with the family.
    public static func nonConsumable(
        _ productId: ProductID, price: Int64 = 0, entitlements: [EntitlementID] = []
    ) -> TestProduct {
        TestProduct(productId: productId, type: .nonConsumable, price: price, entitlements: entitlements)
    }

    /// A consumable: used up, never shared, never an entitlement.
    public static func consumable(_ productId: ProductID, price: Int64 = 0) -> TestProduct {
        TestProduct(productId: productId, type: .consumable, price: price)
    }

    /// A non-renewing subscription lasting `duration`: Apple sends no expiry, the catalog gives the duration.
    public static func nonRenewing(
        _ productId: ProductID, duration: ISO8601Duration, price: Int64 = 0, entitlements: [EntitlementID] = []
    ) -> TestProduct {
        TestProduct(
            productId: productId, type: .nonRenewing, period: duration, price: price, entitlements: entitlements)
    }

    /// The catalog of `products`: each unlocks its `entitlements`, with its type, and a non-renewing one its duration.
    public static func catalog(of products: [TestProduct], bundleId: String? = nil) -> ProductCatalog {
        var entries: [ProductID: ProductCatalog.Product] = [:]
        for product in products {
            entries[product.productId] = ProductCatalog.Product(
                entitlements: product.entitlements, type: product.type,
                duration: product.type == .nonRenewing ? product.period : nil)
        }
        return ProductCatalog(bundleId: bundleId, products: entries)
    }
}
