#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The demo app the fixtures describe: `org.familyentitlements.demo`, sold in the United States storefront.
public enum DemoApp {
    /// The bundle identifier of every fixture.
    public static let bundleId = "org.familyentitlements.demo"
    /// The app's Apple identifier in notification `data`.
    public static let appAppleId: Int64 = 6_450_000_001
    /// The app build in notification `data`.
    public static let bundleVersion = "42"
    /// The group of the premium and basic plans.
    public static let mainSubscriptionGroup = "21000001"
    /// The group of the studio plan.
    public static let studioSubscriptionGroup = "21000002"
    /// The default storefront's three-letter code.
    public static let storefront = "USA"
    /// The default storefront's Apple identifier.
    public static let storefrontId = "143441"
    /// The default currency.
    public static let currency = "USD"

    /// The instant written in ISO 8601 with a time zone, such as `2026-03-02T10:15:00Z`; for literals in tests.
    ///
    /// A literal that does not parse is a mistake in the test, so it stops the test run.
    public static func date(_ iso8601: String) -> Date {
        guard let date = try? Date(iso8601, strategy: .iso8601) else {
            preconditionFailure("\"\(iso8601)\" is not an ISO 8601 date-time such as 2026-03-02T10:15:00Z")
        }
        return date
    }
}
