// Stand-ins with the signatures of apple/app-store-server-library-swift at 8468d10f77cf2000f88de8fa722c5f6238ba1265:
// Sources/AppStoreServerLibrary/AppStoreServerAPIClient.swift and Models/. No request is sent.

import Foundation

/// Apple's client of the App Store Server API (stand-in: every call answers one page, empty unless a test scripts the
/// transaction history or the subscription statuses).
public actor AppStoreServerAPIClient: Sendable {
    /// Not Apple's: the signed transactions `getTransactionHistory` answers, in one page; set by tests.
    public private(set) var scriptedTransactionHistory: [String] = []
    /// Not Apple's: what `getAllSubscriptionStatuses` answers; set by tests.
    public private(set) var scriptedSubscriptionStatuses = StatusResponse(environment: .production, data: [])

    /// Not Apple's: scripts the transaction history this stand-in answers.
    public func script(transactionHistory signedTransactions: [String]) {
        scriptedTransactionHistory = signedTransactions
    }

    /// Not Apple's: scripts the answer of Get All Subscription Statuses.
    public func script(subscriptionStatuses response: StatusResponse) {
        scriptedSubscriptionStatuses = response
    }

    public enum ConfigurationError: Error, Hashable, Sendable {
        case invalidEnvironment
    }

    public init(signingKey: String, keyId: String, issuerId: String, bundleId: String, environment: AppStoreEnvironment)
        throws
    {
        if environment == .xcode { throw ConfigurationError.invalidEnvironment }
    }

    /// Apple's label since release 6.0.0 (May 2026); releases before it said `transactionId:`.
    public func getTransactionHistory(
        anyTransactionId: String, revision: String?, transactionHistoryRequest: TransactionHistoryRequest,
        version: GetTransactionHistoryVersion
    ) async -> APIResult<HistoryResponse> {
        .success(
            response: HistoryResponse(
                revision: "stand-in", hasMore: false, signedTransactions: scriptedTransactionHistory))
    }

    public func getAllSubscriptionStatuses(
        anyTransactionId: String, status: [Status]? = nil
    ) async -> APIResult<StatusResponse> {
        .success(response: scriptedSubscriptionStatuses)
    }

    public func getNotificationHistory(
        paginationToken: String?, notificationHistoryRequest: NotificationHistoryRequest
    ) async -> APIResult<NotificationHistoryResponse> {
        .success(response: NotificationHistoryResponse(hasMore: false, notificationHistory: []))
    }
}

public enum APIResult<T: Sendable>: Sendable {
    case success(response: T)
    case failure(statusCode: Int?, rawApiError: Int64?, apiError: APIError?, errorMessage: String?, causedBy: Error?)
}

/// Apple's API error codes (stand-in: a few of them).
public enum APIError: Int64, Hashable, Sendable {
    case generalBadRequest = 4000000
    case invalidPaginationToken = 4000014
    case paginationTokenExpired = 4000017
    case accountNotFoundRetryable = 4040002
}

public enum GetTransactionHistoryVersion: String, Hashable, Sendable {
    @available(*, deprecated)
    case v1 = "v1"
    case v2 = "v2"
}

public struct TransactionHistoryRequest: Hashable, Sendable {
    public init(
        startDate: Date? = nil, endDate: Date? = nil, productIds: [String]? = nil, productTypes: [ProductType]? = nil,
        sort: Order? = nil, subscriptionGroupIdentifiers: [String]? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    public var startDate: Date?
    public var endDate: Date?
    public var productIds: [String]?
    public var productTypes: [ProductType]?
    public var sort: Order?
    public var subscriptionGroupIdentifiers: [String]?
    public var inAppOwnershipType: InAppOwnershipType?
    public var revoked: Bool?

    public enum ProductType: String, Decodable, Encodable, Sendable {
        case autoRenewable = "AUTO_RENEWABLE"
        case nonRenewable = "NON_RENEWABLE"
        case consumable = "CONSUMABLE"
        case nonConsumable = "NON_CONSUMABLE"
    }

    public enum Order: String, Decodable, Encodable, Sendable {
        case ascending = "ASCENDING"
        case descending = "DESCENDING"
    }
}

public enum InAppOwnershipType: String, Decodable, Encodable, Hashable, Sendable {
    case familyShared = "FAMILY_SHARED"
    case purchased = "PURCHASED"
}

public struct HistoryResponse: Decodable, Encodable, Hashable, Sendable {
    public init(
        revision: String? = nil, hasMore: Bool? = nil, bundleId: String? = nil, appAppleId: Int64? = nil,
        environment: AppStoreEnvironment? = nil, signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }

    public var revision: String?
    public var hasMore: Bool?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var environment: AppStoreEnvironment?
    public var signedTransactions: [String]?
}

public struct NotificationHistoryRequest: Decodable, Encodable, Hashable, Sendable {
    public init(
        startDate: Date? = nil, endDate: Date? = nil, notificationType: NotificationTypeV2? = nil,
        notificationSubtype: Subtype? = nil, transactionId: String? = nil, onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }

    public var startDate: Date?
    public var endDate: Date?
    public var notificationType: NotificationTypeV2?
    public var notificationSubtype: Subtype?
    public var transactionId: String?
    public var onlyFailures: Bool?
}

public struct NotificationHistoryResponse: Decodable, Encodable, Hashable, Sendable {
    public init(
        paginationToken: String? = nil, hasMore: Bool? = nil,
        notificationHistory: [NotificationHistoryResponseItem]? = nil
    ) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }

    public var paginationToken: String?
    public var hasMore: Bool?
    public var notificationHistory: [NotificationHistoryResponseItem]?
}

public struct NotificationHistoryResponseItem: Decodable, Encodable, Hashable, Sendable {
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }

    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?
}

public struct SendAttemptItem: Decodable, Encodable, Hashable, Sendable {
    public init(attemptDate: Date? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }

    public var attemptDate: Date?
    public var sendAttemptResult: SendAttemptResult?
}

public enum SendAttemptResult: String, Decodable, Encodable, Hashable, Sendable {
    case success = "SUCCESS"
    case timedOut = "TIMED_OUT"
    case tlsIssue = "TLS_ISSUE"
    case circularRedirect = "CIRCULAR_REDIRECT"
    case noResponse = "NO_RESPONSE"
    case socketIssue = "SOCKET_ISSUE"
    case unsuportedCharset = "UNSUPPORTED_CHARSET"
    case invalidResponse = "INVALID_RESPONSE"
    case prematureClose = "PREMATURE_CLOSE"
    case unsuccessfulHttpResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    case other = "OTHER"
}

/// Apple's notification types (stand-in: Apple's full list of raw values).
public enum NotificationTypeV2: String, Decodable, Encodable, Hashable, Sendable {
    case subscribed = "SUBSCRIBED"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case offerRedeemed = "OFFER_REDEEMED"
    case didRenew = "DID_RENEW"
    case expired = "EXPIRED"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case priceIncrease = "PRICE_INCREASE"
    case refund = "REFUND"
    case refundDeclined = "REFUND_DECLINED"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case renewalExtended = "RENEWAL_EXTENDED"
    case revoke = "REVOKE"
    case test = "TEST"
    case renewalExtension = "RENEWAL_EXTENSION"
    case refundReversed = "REFUND_REVERSED"
    case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case rescindConsent = "RESCIND_CONSENT"
    case metadataUpdate = "METADATA_UPDATE"
    case migration = "MIGRATION"
    case priceChange = "PRICE_CHANGE"
}

/// Apple's notification subtypes (stand-in: Apple's full list of raw values).
public enum Subtype: String, Decodable, Encodable, Hashable, Sendable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case downgrade = "DOWNGRADE"
    case upgrade = "UPGRADE"
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case priceIncrease = "PRICE_INCREASE"
    case gracePeriod = "GRACE_PERIOD"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case billingRecovery = "BILLING_RECOVERY"
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    case summary = "SUMMARY"
    case failure = "FAILURE"
    case unreported = "UNREPORTED"
}

public struct StatusResponse: Decodable, Encodable, Hashable, Sendable {
    public init(
        environment: AppStoreEnvironment? = nil, bundleId: String? = nil, appAppleId: Int64? = nil,
        data: [SubscriptionGroupIdentifierItem]? = nil
    ) {
        self.init(rawEnvironment: environment?.rawValue, bundleId: bundleId, appAppleId: appAppleId, data: data)
    }

    public init(
        rawEnvironment: String? = nil, bundleId: String? = nil, appAppleId: Int64? = nil,
        data: [SubscriptionGroupIdentifierItem]? = nil
    ) {
        self.rawEnvironment = rawEnvironment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }

    public var environment: AppStoreEnvironment? {
        get { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
        set { rawEnvironment = newValue.map { $0.rawValue } }
    }
    public var rawEnvironment: String?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var data: [SubscriptionGroupIdentifierItem]?

    public enum CodingKeys: CodingKey {
        case environment, bundleId, appAppleId, data
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rawEnvironment = try container.decodeIfPresent(String.self, forKey: .environment)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        appAppleId = try container.decodeIfPresent(Int64.self, forKey: .appAppleId)
        data = try container.decodeIfPresent([SubscriptionGroupIdentifierItem].self, forKey: .data)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(rawEnvironment, forKey: .environment)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(appAppleId, forKey: .appAppleId)
        try container.encodeIfPresent(data, forKey: .data)
    }
}

public struct SubscriptionGroupIdentifierItem: Decodable, Encodable, Hashable, Sendable {
    public init(subscriptionGroupIdentifier: String? = nil, lastTransactions: [LastTransactionsItem]? = nil) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }

    public var subscriptionGroupIdentifier: String?
    public var lastTransactions: [LastTransactionsItem]?
}

public struct LastTransactionsItem: Decodable, Encodable, Hashable, Sendable {
    public init(
        status: Status? = nil, originalTransactionId: String? = nil, signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.init(
            rawStatus: status?.rawValue, originalTransactionId: originalTransactionId,
            signedTransactionInfo: signedTransactionInfo, signedRenewalInfo: signedRenewalInfo)
    }

    public init(
        rawStatus: Int32? = nil, originalTransactionId: String? = nil, signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.rawStatus = rawStatus
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }

    public var status: Status? {
        get { rawStatus.flatMap { Status(rawValue: $0) } }
        set { rawStatus = newValue.map { $0.rawValue } }
    }
    public var rawStatus: Int32?
    public var originalTransactionId: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?

    public enum CodingKeys: CodingKey {
        case status, originalTransactionId, signedTransactionInfo, signedRenewalInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rawStatus = try container.decodeIfPresent(Int32.self, forKey: .status)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        signedTransactionInfo = try container.decodeIfPresent(String.self, forKey: .signedTransactionInfo)
        signedRenewalInfo = try container.decodeIfPresent(String.self, forKey: .signedRenewalInfo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(rawStatus, forKey: .status)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        try container.encodeIfPresent(signedTransactionInfo, forKey: .signedTransactionInfo)
        try container.encodeIfPresent(signedRenewalInfo, forKey: .signedRenewalInfo)
    }
}

/// Apple's subscription statuses (stand-in: Apple's full list of raw values).
public enum Status: Int32, Decodable, Encodable, Hashable, Sendable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case billingGracePeriod = 4
    case revoked = 5
}
