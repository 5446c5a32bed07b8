#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Recomputes who may use what from a customer's whole history, as Apple asks on every REVOKE.
///
/// Pure and deterministic: no clock, no I/O. The same entries in any order, with any repeats, give the same report.
/// Entries of another environment never grant and are reported; unknown values from Apple are reported and still
/// counted where their fields allow; data that cannot be trusted never grants. `docs/decision-table.md` states every
/// rule, and the decision-table tests check each one.
///
/// - Parameters:
///   - history: The customer's transactions, renewal infos and notifications, in any order.
///   - instant: The instant of evaluation; transactions purchased after it do not count yet.
///   - environment: The environment to decide for; `Production` unless testing.
///   - catalog: Entitlements, product types, non-renewing durations and the app's bundle id; `nil` (the default)
///     means none: each product id is then its own entitlement and non-renewing subscriptions have no known
///     duration. With a catalog, even an empty one, a product it lacks unlocks nothing and is reported.
public func rebuildEntitlements(
    history: History,
    asOf instant: Date,
    environment: Environment = .production,
    catalog: ProductCatalog? = nil
) -> EntitlementReport {
    var rebuilder = Rebuilder(instant: instant, environment: environment, catalog: catalog)
    return rebuilder.rebuild(history)
}
