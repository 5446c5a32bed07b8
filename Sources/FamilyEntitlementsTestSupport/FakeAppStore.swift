import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An App Store Server API in the test process, for a service's tests: it answers Get Transaction History, Get All
/// Subscription Statuses, Get Transaction Info and Get Notification History from customers' histories, with every
/// signed string written by `FakeJWSSigner`, so that `FakeJWSVerifier` and the service's `NotificationIntake` verify
/// them.
///
/// It is an `actor` with one async method per endpoint and no HTTP server: a service's tests inject it where
/// production calls Apple's client. Each customer is a `History`; a request names a customer by any transaction
/// identifier of theirs, as Apple's do. It answers from what it was given, and only that: Get Transaction History
/// pages through the customer's `transactions` as given; Get All Subscription Statuses answers the newest transaction
/// and renewal info of each auto-renewable chain of `transactions` and `renewalInfos`, with the `status` of the
/// customer's `subscriptionStatuses` or of `setStatus(_:originalTransactionId:)` (absent otherwise); Get Notification
/// History pages through every customer's `notifications` in signedDate order. Tokens are opaque strings it issued;
/// another one is Apple's 400 error.
///
/// Tell it to fail (`failNext(_:of:with:)`, `fail(page:of:with:times:)`) to test an outage: it throws the
/// `AppStoreServerAPIFailure` it was given, rate limit and retry instant included; it reads no clock and never waits.
/// `calls` records every request, answered or failed, so a test can assert how the service paged.
public actor FakeAppStore {
    /// The app whose answers these are: its bundle identifier, Apple identifier and environment in every response.
    public let app: AppUnderTest
    /// How many transactions or notifications a page holds at most (Apple's pages hold 20).
    public let pageSize: Int
    /// The customers, each one history; a request names one by any of their transaction identifiers.
    public private(set) var customers: [History]
    /// Every request received, in order, with the failure it was answered with, if any.
    public private(set) var calls: [Call] = []

    var statuses: [String: SubscriptionStatus] = [:]
    var sendAttempts: [String: [SendAttemptItem]] = [:]
    var nextFailures: [Endpoint: [AppStoreServerAPIFailure]] = [:]
    var pageFailures: [PageKey: [AppStoreServerAPIFailure]] = [:]
    var issuedRevisions: [String: HistoryCursor] = [:]
    var issuedPaginationTokens: [String: NotificationCursor] = [:]

    /// A store that knows these customers' histories; `pageSize` must be at least 1.
    public init(customers: [History], app: AppUnderTest = .demo, pageSize: Int = 20) {
        precondition(pageSize >= 1, "a page holds at least one entry")
        self.customers = customers
        self.app = app
        self.pageSize = pageSize
    }

    /// A store whose one customer is the shipped scenario's, for the demo app.
    public init(scenario: Scenario, pageSize: Int = 20) throws(FixtureError) {
        self.init(customers: [try scenario.history()], pageSize: pageSize)
    }

    /// Adds a customer, whom later requests find by their transaction identifiers.
    public func add(customer history: History) {
        customers.append(history)
    }

    /// Apple's status for the chain of `originalTransactionId` in Get All Subscription Statuses, over any the
    /// customer's `subscriptionStatuses` give.
    public func setStatus(_ status: SubscriptionStatus, originalTransactionId: String) {
        statuses[originalTransactionId] = status
    }

    /// The attempts Apple made to deliver the notification `notificationUUID`, as Get Notification History reports
    /// them; without this, one `SUCCESS` at the notification's signedDate. A notification none of whose attempts
    /// succeeded is one that `onlyFailures` returns.
    public func setSendAttempts(_ attempts: [SendAttemptItem], notificationUUID: String) {
        sendAttempts[notificationUUID] = attempts
    }

    // MARK: Failing on purpose

    /// The next `count` requests to `endpoint` fail with `failure`, before anything else is checked.
    public func failNext(_ count: Int = 1, of endpoint: Endpoint, with failure: AppStoreServerAPIFailure) {
        nextFailures[endpoint, default: []] += Array(repeating: failure, count: max(count, 0))
    }

    /// The next `times` requests for page `index` (0 is the first page) of a paged endpoint (Get Transaction History,
    /// Get Notification History) fail with `failure`; the request after them is answered.
    public func fail(
        page index: Int, of endpoint: Endpoint, with failure: AppStoreServerAPIFailure, times: Int = 1
    ) {
        pageFailures[PageKey(endpoint: endpoint, page: index), default: []] +=
            Array(repeating: failure, count: max(times, 0))
    }

    /// Records a request and throws the failure scripted for it, if any.
    func receive(_ request: Request, page: Int?) throws(AppStoreServerAPIFailure) {
        let endpoint = request.endpoint
        var failure: AppStoreServerAPIFailure?
        if var pending = nextFailures[endpoint], !pending.isEmpty {
            failure = pending.removeFirst()
            nextFailures[endpoint] = pending
        } else if let page, var pending = pageFailures[PageKey(endpoint: endpoint, page: page)], !pending.isEmpty {
            failure = pending.removeFirst()
            pageFailures[PageKey(endpoint: endpoint, page: page)] = pending
        }
        calls.append(Call(request: request, failure: failure))
        if let failure { throw failure }
    }

    /// Records that the request just received was answered with `failure` after all, and throws it.
    func refuse(_ failure: AppStoreServerAPIFailure) throws(AppStoreServerAPIFailure) -> Never {
        if let last = calls.indices.last {
            calls[last].failure = failure
        }
        throw failure
    }

    struct PageKey: Hashable {
        var endpoint: Endpoint
        var page: Int
    }

    struct HistoryCursor: Hashable {
        var customer: Int
        var sort: Sort
        var offset: Int
    }

    struct NotificationCursor: Hashable {
        var body: NotificationHistoryRequestBody
        var offset: Int
    }
}
