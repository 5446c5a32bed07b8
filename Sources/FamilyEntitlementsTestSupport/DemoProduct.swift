import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A product of the demo app that the fixtures describe and the builders sell.
///
/// Prices are USD milliunits (4990 = 4.99). `period` is one paid period of an auto-renewable subscription, or the
/// whole duration of a non-renewing one; nil for products that do not expire.
public struct DemoProduct: Hashable, Sendable {
    /// The product identifier, as in `TransactionPayload.productId`.
    public var productId: String
    /// The product type, as in `TransactionPayload.type`.
    public var type: ProductType
    /// The subscription group of an auto-renewable subscription.
    public var subscriptionGroupIdentifier: String?
    /// One paid period of a subscription, or the duration of a non-renewing subscription.
    public var period: ISO8601Duration?
    /// The price in the United States storefront, in milliunits of USD.
    public var price: Int64
    /// The entitlements the product unlocks in `DemoProduct.catalog`.
    public var entitlements: [String]

    public init(
        productId: String, type: ProductType, subscriptionGroupIdentifier: String? = nil,
        period: ISO8601Duration? = nil, price: Int64, entitlements: [String]
    ) {
        self.productId = productId
        self.type = type
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.period = period
        self.price = price
        self.entitlements = entitlements
    }
}

extension DemoProduct {
    /// The monthly premium plan, shared with the family; unlocks `basic` and `premium`.
    public static let premiumMonthly = DemoProduct(
        productId: "org.familyentitlements.demo.premium.monthly", type: .autoRenewable,
        subscriptionGroupIdentifier: DemoApp.mainSubscriptionGroup, period: ISO8601Duration(months: 1), price: 4990,
        entitlements: ["basic", "premium"])
    /// The yearly premium plan, in the same group as the monthly one.
    public static let premiumYearly = DemoProduct(
        productId: "org.familyentitlements.demo.premium.yearly", type: .autoRenewable,
        subscriptionGroupIdentifier: DemoApp.mainSubscriptionGroup, period: ISO8601Duration(years: 1), price: 49990,
        entitlements: ["basic", "premium"])
    /// The basic monthly plan: a lower level of the premium plans' group, for upgrades and downgrades.
    public static let basicMonthly = DemoProduct(
        productId: "org.familyentitlements.demo.basic.monthly", type: .autoRenewable,
        subscriptionGroupIdentifier: DemoApp.mainSubscriptionGroup, period: ISO8601Duration(months: 1), price: 2990,
        entitlements: ["basic"])
    /// A monthly plan in a second subscription group, so one customer can hold two subscriptions at once.
    public static let studioMonthly = DemoProduct(
        productId: "org.familyentitlements.demo.studio.monthly", type: .autoRenewable,
        subscriptionGroupIdentifier: DemoApp.studioSubscriptionGroup, period: ISO8601Duration(months: 1),
        price: 6990, entitlements: ["studio"])
    /// A non-consumable sticker pack, shared with the family.
    public static let stickers = DemoProduct(
        productId: "org.familyentitlements.demo.stickers", type: .nonConsumable, price: 990,
        entitlements: ["stickers"])
    /// A consumable pack of coins: never shared, never an entitlement.
    public static let coins = DemoProduct(
        productId: "org.familyentitlements.demo.coins", type: .consumable, price: 1990, entitlements: [])
    /// A three-month non-renewing season pass: Apple sends no expiry, the catalog gives its duration.
    public static let seasonPass = DemoProduct(
        productId: "org.familyentitlements.demo.season.pass", type: .nonRenewing, period: ISO8601Duration(months: 3),
        price: 14990, entitlements: ["season-pass"])

    /// Every demo product, in the order of `catalog.json`.
    public static let all: [DemoProduct] = [
        .premiumMonthly, .premiumYearly, .basicMonthly, .studioMonthly, .stickers, .coins, .seasonPass,
    ]

    /// The demo product with this identifier, if there is one.
    public static func named(_ productId: String) -> DemoProduct? {
        all.first { $0.productId == productId }
    }

    /// The catalog of every demo product, naming the demo app: the `catalog.json` of the scenarios that sell them.
    public static var catalog: ProductCatalog {
        var products: [String: ProductCatalog.Product] = [:]
        for product in all {
            products[product.productId] = ProductCatalog.Product(
                entitlements: product.entitlements, type: product.type,
                duration: product.type == .nonRenewing ? product.period : nil)
        }
        return ProductCatalog(bundleId: DemoApp.bundleId, products: products)
    }
}
