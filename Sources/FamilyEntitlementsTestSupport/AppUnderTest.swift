import FamilyEntitlements

/// The app whose payloads the builders write: its bundle identifier, Apple identifier and environment.
///
/// Pass your own app to the builders so that what they build passes your service's policy; the demo app of the
/// fixtures is the default everywhere. A builder's own `environment` argument, where it has one, overrides the app's.
public struct AppUnderTest: Hashable, Sendable {
    /// Apple's `bundleId`, written in every transaction and notification.
    public var bundleId: String
    /// Apple's `appAppleId`, written in notification `data`; production payloads always carry one.
    public var appAppleId: Int64?
    /// The environment of every payload, unless a builder is told otherwise.
    public var environment: Environment
    /// Apple's `bundleVersion` in notification `data`.
    public var bundleVersion: String

    public init(
        bundleId: String, appAppleId: Int64?, environment: Environment = .production, bundleVersion: String = "1"
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.bundleVersion = bundleVersion
    }

    /// The demo app of the fixtures: `org.familyentitlements.demo` in production.
    public static let demo = AppUnderTest(
        bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId, environment: .production,
        bundleVersion: DemoApp.bundleVersion)
}
