import FamilyEntitlements

extension FakeAppStore {
    /// An endpoint of the App Store Server API that the fake answers.
    public enum Endpoint: String, Hashable, Sendable, CaseIterable {
        /// Get Transaction History.
        case transactionHistory
        /// Get All Subscription Statuses.
        case subscriptionStatuses
        /// Get Transaction Info.
        case transactionInfo
        /// Get Notification History.
        case notificationHistory
    }

    /// The order of a Get Transaction History answer; Apple's `sort` query parameter.
    public enum Sort: String, Hashable, Sendable, CaseIterable {
        /// Oldest signedDate first, Apple's default.
        case ascending = "ASCENDING"
        /// Newest signedDate first.
        case descending = "DESCENDING"
    }

    /// One request the fake received, with what it was asked.
    public enum Request: Hashable, Sendable {
        /// Get Transaction History for the customer of `transactionId`, from `revision` (nil: the first page).
        case transactionHistory(transactionId: String, revision: String?, sort: Sort)
        /// Get All Subscription Statuses for the customer of `transactionId`.
        case subscriptionStatuses(transactionId: String)
        /// Get Transaction Info for `transactionId`.
        case transactionInfo(transactionId: String)
        /// Get Notification History with this body, from `paginationToken` (nil: the first page).
        case notificationHistory(NotificationHistoryRequestBody, paginationToken: String?)

        /// The endpoint asked.
        public var endpoint: Endpoint {
            switch self {
            case .transactionHistory: .transactionHistory
            case .subscriptionStatuses: .subscriptionStatuses
            case .transactionInfo: .transactionInfo
            case .notificationHistory: .notificationHistory
            }
        }

        /// The page token the request carried: its `revision` or `paginationToken`; nil for a first page or an
        /// endpoint without pages.
        public var token: String? {
            switch self {
            case .transactionHistory(_, let revision, _): revision
            case .notificationHistory(_, let paginationToken): paginationToken
            case .subscriptionStatuses, .transactionInfo: nil
            }
        }
    }

    /// A request and how it was answered.
    public struct Call: Hashable, Sendable {
        /// What was asked.
        public var request: Request
        /// The failure thrown in answer, or nil where the fake answered.
        public var failure: AppStoreServerAPIFailure?

        public init(request: Request, failure: AppStoreServerAPIFailure? = nil) {
            self.request = request
            self.failure = failure
        }
    }
}
