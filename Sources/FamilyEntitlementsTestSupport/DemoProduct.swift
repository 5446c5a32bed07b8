import FamilyEntitlements

/// A product of the demo app that the fixtures describe and the builders sell by default.
///
/// The same type as `TestProduct`: the demo's products are its static members (`DemoProduct.premiumMonthly`), and
/// `DemoProduct.catalog` is the `catalog.json` of the scenarios.
public typealias DemoProduct = TestProduct

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
    public static func named(_ productId: ProductID) -> DemoProduct? {
        all.first { $0.productId == productId }
    }

    /// The catalog of every demo product, naming the demo app: the `catalog.json` of the scenarios that sell them.
    public static var catalog: ProductCatalog {
        catalog(of: all, bundleId: DemoApp.bundleId)
    }
}
