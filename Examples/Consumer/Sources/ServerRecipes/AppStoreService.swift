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

/// Where the service keeps what it has seen and decided: one row per ledger key, written only by a conditional write.
///
/// Public, unlike the rest of the recipes, so that a store outside this module (`ReferenceStore`, on SQLite) can
/// implement it. docs/integrating.md shows the SQL of a relational store.
public protocol EntitlementStore: Sendable {
    /// The ledger stored under the key, the report decided from it and the version of the row, read together.
    ///
    /// A key names a customer (`AppStoreService.ledgerKey(of:)`), or a transaction that no account has linked yet.
    func load(_ key: String) async throws -> StoredLedger
    /// Writes the ledger, the report with its `validUntil` and the outbox actions in one transaction, if the row's
    /// version is still `version` (a new row where it is 0); false when another writer moved it, and nothing is then
    /// written.
    func write(_ decision: DecisionWrite, under key: String, ifVersion version: Int64) async throws -> Bool
    /// The keys whose stored report's `validUntil` is at or before the instant: the scheduled decisions now due.
    func keysDue(at instant: Date) async throws -> [String]
    /// Up to `limit` outbox actions not yet delivered, the oldest first.
    func pendingActions(limit: Int) async throws -> [PendingAction]
    /// Marks an outbox action delivered; the worker calls it only after delivering it.
    func markDelivered(_ id: Int64) async throws
    /// The account links, to change and save back.
    func accountLinks() async throws -> AccountLinks
    /// Saves the account links; a compare-and-set in a real store, since two restores may race.
    func save(_ links: AccountLinks) async throws
}

/// What is stored under one ledger key.
public struct StoredLedger: Sendable {
    /// The ledger, compacted at its last decision; `CustomerLedger()` the first time.
    public var ledger: CustomerLedger
    /// The report decided from it; nil the first time.
    public var report: EntitlementReport?
    /// The version a conditional write must find; 0 while nothing is stored.
    public var version: Int64

    public init(ledger: CustomerLedger = CustomerLedger(), report: EntitlementReport? = nil, version: Int64 = 0) {
        self.ledger = ledger
        self.report = report
        self.version = version
    }
}

/// One decision, written all or nothing: the ledger, the report (with its `validUntil`) and the actions it calls for.
public struct DecisionWrite: Sendable {
    /// The ledger, compacted at the instant of the decision.
    public var ledger: CustomerLedger
    /// The decision the apps read.
    public var report: EntitlementReport
    /// What the outbox must deliver: what changed since the report the write replaces.
    public var actions: [OutboxAction]

    public init(ledger: CustomerLedger, report: EntitlementReport, actions: [OutboxAction]) {
        self.ledger = ledger
        self.report = report
        self.actions = actions
    }
}

/// An action a decision calls for, kept in the outbox until a worker has delivered it: a silent push to the
/// customer's devices, with the codes of what changed.
public struct OutboxAction: Hashable, Sendable, Codable {
    /// The ledger key of the customer.
    public var customer: String
    /// The `EntitlementChange` codes, in the order `changes(from:)` lists them.
    public var codes: [String]

    public init(customer: String, codes: [String]) {
        self.customer = customer
        self.codes = codes
    }
}

/// An outbox action not yet delivered, with its id in the outbox.
public struct PendingAction: Hashable, Sendable {
    public var id: Int64
    public var action: OutboxAction

    public init(id: Int64, action: OutboxAction) {
        self.id = id
        self.action = action
    }
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
