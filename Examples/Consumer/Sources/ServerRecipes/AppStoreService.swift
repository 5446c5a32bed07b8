import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// The service that the recipes of `docs/integrating.md` and `docs/operations.md` extend; it is not in the docs.
///
/// Every other file of this target holds recipes exactly as the docs show them (`DocSnippetTests` checks that each
/// ```swift block of those pages appears in one of them), compiled against FamilyEntitlements and against stand-ins for
/// Apple's library (`Sources/AppStoreServerLibrary`). A real service keeps the same things: the intake, Apple's API
/// client, a store, a logger, metrics, a way to reach the customers' devices, its catalog and a clock.
struct AppStoreService<Verifier: SignedDataVerifying>: Sendable {
    var intake: NotificationIntake<Verifier>
    var apiClient: AppStoreServerAPIClient
    var store: any EntitlementStore
    var logger: Logger
    var metrics: Metrics
    var devices: Devices
    var catalog: ProductCatalog?
    /// The instant of each decision: the wall clock in production, a scenario's dates in tests.
    var clock: @Sendable () -> Date = { Date() }

    /// Raises an alert for a person to look at.
    func alert(_ message: String) {
        logger.error("ALERT: \(message)")
    }
}

/// Where the service keeps what it has seen and decided.
protocol EntitlementStore: Sendable {
    /// Whether a notification with this `notificationUUID` was recorded before.
    func hasRecorded(_ notification: NotificationPayload) async throws -> Bool
    /// Records a notification by its `notificationUUID`.
    func record(_ notification: NotificationPayload) async throws
    /// The customer's stored history (`CustomerLedger`, stored as its JSON form), or an empty one the first time.
    ///
    /// A customer is named by any of their transaction ids; the store maps it to the customer (by account links).
    func ledger(of customer: String) async throws -> CustomerLedger
    /// Saves the customer's history.
    func save(_ ledger: CustomerLedger, of customer: String) async throws
    /// The customer's stored report (`EntitlementReport`, stored as its JSON form), or nil the first time.
    func report(of customer: String) async throws -> EntitlementReport?
    /// Replaces what the customer may use with the rebuilt report.
    func save(_ report: EntitlementReport, of customer: String) async throws
    /// Schedules `decideAgain(customer:)` at the instant, in place of any schedule of the customer; nil: none.
    func scheduleDecision(of customer: String, at instant: Date?) async throws
    /// The account links, to change and save back.
    func accountLinks() async throws -> AccountLinks
    /// Saves the account links; a compare-and-set in a real store, since two restores may race.
    func save(_ links: AccountLinks) async throws
}

/// A logger, as swift-log's would be used.
struct Logger: Sendable {
    var write: @Sendable (String) -> Void

    func warning(_ message: String) { write("warning: \(message)") }
    func error(_ message: String) { write("error: \(message)") }
}

/// A metrics sink.
struct Metrics: Sendable {
    var write: @Sendable (String, Double) -> Void

    func record(_ name: String, _ value: Double) { write(name, value) }
}

/// The customers' devices, reached by a silent push (APNs `content-available`), as a push service would be used.
struct Devices: Sendable {
    var push: @Sendable (String, [String]) async -> Void

    /// Tells the customer's apps to fetch their access again; the codes say what changed.
    func silentPush(to customer: String, _ codes: [String]) async { await push(customer, codes) }
}

/// The signed-in user's session, issued by the service at sign-in: the only source of who is asking.
struct Session: Sendable {
    /// The user's appAccountToken, issued by the service once per user and app.
    var appAccountToken: AppAccountToken
}

/// The service's answer to the app's link request.
enum LinkResponse: Sendable {
    /// Linked (or already linked) to the session's user: what Apple's history grants now.
    case linked(EntitlementReport)
    /// The purchase belongs to another user: nothing moved.
    case conflict(code: String)
    /// The signed transaction was refused for good.
    case refused(code: String)
    /// The verifier could not complete: ask the app to try again later.
    case retryLater
}
