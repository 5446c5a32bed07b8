#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AppStoreDocument.Kind {
    /// The kind whose members a top-level object has; an `unrecognised_document` error, naming the kinds known, where
    /// it fits none or more than one.
    ///
    /// A kind is recognised by the members it requires, never by any one member:
    /// - An API body (`transactionHistory`, `subscriptionStatuses`, `notificationRequestBody`, `transactionInfo`,
    ///   `notificationHistory`, `renewalExtension`) has the members its kind always carries, and no member its kind
    ///   lacks: reading it as that kind loses nothing. A Get Refund History page (no `bundleId`, `appAppleId` or
    ///   `environment`) or a Look Up Order ID body (`status`) is no `transactionHistory`.
    ///   An API body that fits is taken before any signed payload (a Get All Subscription Statuses body also has two
    ///   members of an AppTransaction's).
    /// - A decoded signed payload (`transaction`, `renewalInfo`, `appTransaction`, `notification`) has at least two of
    ///   its kind's members, one of which no other payload has (`transactionId` or `purchaseDate` for a transaction,
    ///   `autoRenewStatus` for renewal information, `receiptType` for an AppTransaction, `notificationType` for a
    ///   notification), and none of the members that mark another document: an API body's (`success`,
    ///   `effectiveDate`, `signedTransactions`) or those of the documents this library knows it does not read
    ///   (Advanced Commerce requests: `requestInfo`, `taxCode`, `retainBillingCycle`; `status`, `errorCode`). Members
    ///   of neither are new fields of Apple's, ignored as decoding ignores them.
    public static func recognise(_ members: Set<String>) throws(PayloadDecodingError) -> Self {
        let bodies = allCases.filter { $0.isAPIBody && $0.fits(members) }
        let fits = bodies.isEmpty ? allCases.filter { $0.fits(members) } : bodies
        if fits.count == 1, let kind = fits.first { return kind }
        let known = allCases.map(\.rawValue).joined(separator: ", ")
        let found = "(\(members.sorted().joined(separator: ", ")))"
        let problem =
            fits.isEmpty
            ? "cannot tell which kind of App Store document this is from its members \(found)"
            : "its members \(found) fit more than one kind of App Store document "
                + "(\(fits.map(\.rawValue).joined(separator: ", ")))"
        throw PayloadDecodingError(
            code: .unrecognisedDocument, path: "",
            message: problem + "; the kinds known are \(known): name the kind to read it as one")
    }

    /// Whether a top-level object with these members is a document of this kind.
    public func fits(_ members: Set<String>) -> Bool {
        let own = Self.members[self] ?? []
        switch shape {
        case .apiBody(let required, let oneOf):
            return required.isSubset(of: members) && members.isSubset(of: own)
                && oneOf.allSatisfy { !$0.isDisjoint(with: members) }
        case .signedPayload:
            return !members.isDisjoint(with: Self.markers[self] ?? []) && members.intersection(own).count >= 2
                && members.isDisjoint(with: Self.foreignMembers.subtracting(own))
        }
    }

    /// The members a document of this kind always has, which a document read as this kind must have: none for a
    /// decoded signed payload (every field of Apple's payloads is optional), and for an API body the members Apple
    /// writes in every answer of its endpoint (`signedTransactions` for `transactionHistory`, `data` for
    /// `subscriptionStatuses`, `notificationHistory` and `hasMore` for `notificationHistory`, and so on).
    ///
    /// A document named as a kind (`init(data:as:)`, `--kind`) that lacks one is not that kind's document: it is
    /// refused, never read as an empty answer of that kind (a customer with nothing, `new`).
    public var requiredMembers: Set<String> {
        guard case .apiBody(let required, _) = shape else { return [] }
        return required
    }

    /// Throws `missing_value` at the first member, in sorted order, of `requiredMembers` that `members` lacks.
    func refuseMissingRequiredMembers(_ members: Set<String>) throws(PayloadDecodingError) {
        guard let missing = requiredMembers.subtracting(members).min() else { return }
        let found = members.isEmpty ? "none" : members.sorted().joined(separator: ", ")
        throw PayloadDecodingError(
            code: .missingValue, path: missing,
            message: "a \(rawValue) document always has \"\(missing)\"; this one lacks it (its members: \(found)), "
                + "so it is not read as an empty \(rawValue)")
    }

    private enum Shape {
        /// Apple writes every member of the kind it has; `oneOf` lists sets of which at least one member is present.
        case apiBody(required: Set<String>, oneOf: [Set<String>] = [])
        /// Apple adds fields over time: members of no document known are ignored.
        case signedPayload
    }

    private var shape: Shape {
        switch self {
        case .transaction, .renewalInfo, .appTransaction, .notification: .signedPayload
        case .transactionHistory:
            .apiBody(required: ["signedTransactions"], oneOf: [["bundleId", "appAppleId", "environment"]])
        case .subscriptionStatuses: .apiBody(required: ["data"], oneOf: [["bundleId", "appAppleId", "environment"]])
        case .notificationRequestBody: .apiBody(required: ["signedPayload"])
        case .transactionInfo: .apiBody(required: ["signedTransactionInfo"])
        case .notificationHistory: .apiBody(required: ["notificationHistory", "hasMore"])
        case .renewalExtension: .apiBody(required: ["originalTransactionId", "success"])
        }
    }

    private static let signedPayloadKinds: [Self] = [.transaction, .renewalInfo, .appTransaction, .notification]

    /// For each decoded signed payload, the members that no other payload has. Not every member a kind alone
    /// declares: Xcode's transactions and renewal infos carry `deviceVerification` and `deviceVerificationNonce`,
    /// which Apple documents only for an AppTransaction.
    private static let markers: [Self: Set<String>] = [
        .transaction: [
            "transactionId", "purchaseDate", "expiresDate", "inAppOwnershipType", "type", "transactionReason",
            "quantity", "subscriptionGroupIdentifier", "isUpgraded", "revocationDate", "revocationReason",
        ],
        .renewalInfo: [
            "autoRenewStatus", "autoRenewProductId", "renewalDate", "isInBillingRetryPeriod", "expirationIntent",
            "gracePeriodExpiresDate", "priceIncreaseStatus", "renewalPrice", "eligibleWinBackOfferIds",
            "recentSubscriptionStartDate",
        ],
        .appTransaction: [
            "receiptType", "applicationVersion", "originalApplicationVersion", "versionExternalIdentifier",
            "receiptCreationDate", "preorderDate", "originalPlatform",
        ],
        .notification: [
            "notificationType", "notificationUUID", "subtype", "summary", "externalPurchaseToken", "appData",
        ],
    ]

    /// The member names of each kind: the coding keys of its type.
    private static let members: [Self: Set<String>] = [
        .transaction: names(TransactionPayload.CodingKeys.self),
        .renewalInfo: names(RenewalInfoPayload.CodingKeys.self),
        .appTransaction: names(AppTransactionPayload.CodingKeys.self),
        .notification: names(NotificationPayload.CodingKeys.self),
        .transactionHistory: names(TransactionHistoryResponse.CodingKeys.self),
        .subscriptionStatuses: names(SubscriptionStatusesResponse.CodingKeys.self),
        .notificationRequestBody: names(NotificationRequestBody.CodingKeys.self),
        .transactionInfo: names(TransactionInfoResponse.CodingKeys.self),
        .notificationHistory: names(NotificationHistoryResponse.CodingKeys.self),
        .renewalExtension: names(ExtendRenewalDateResponse.CodingKeys.self),
    ]

    /// Members that mark a document as something other than a decoded signed payload: those only API bodies have, and those of
    /// the App Store documents this library does not read (Advanced Commerce requests and responses, Look Up Order ID,
    /// test notifications, Retention Messaging, API errors, a notification's `appData` on its own).
    private static let foreignMembers: Set<String> =
        Set(allCases.filter { $0.isAPIBody }.flatMap { members[$0] ?? [] })
        .subtracting(signedPayloadKinds.flatMap { members[$0] ?? [] })
        .union([
            "requestInfo", "taxCode", "retainBillingCycle", "descriptors", "items", "item", "SKU",
            "refundRiskingPreference", "previousTransactionId", "targetProductId", "signedRenewalInfo",
            "signedAppTransactionInfo", "status", "sendAttempts", "testNotificationToken", "requestIdentifier",
            "userLocale", "errorCode", "errorMessage",
        ])

    private var isAPIBody: Bool {
        if case .apiBody = shape { return true }
        return false
    }

    private static func names<Key: CodingKey & CaseIterable>(_: Key.Type) -> Set<String> {
        Set(Key.allCases.map(\.stringValue))
    }
}

extension AppStoreDocument {
    /// The decoded value, whatever its kind.
    public var payload: any AppStorePayload {
        switch self {
        case .transaction(let value): value
        case .renewalInfo(let value): value
        case .appTransaction(let value): value
        case .notification(let value): value
        case .transactionHistory(let value): value
        case .subscriptionStatuses(let value): value
        case .notificationRequestBody(let value): value
        case .transactionInfo(let value): value
        case .notificationHistory(let value): value
        case .renewalExtension(let value): value
        }
    }

    /// Encodes the document as compact JSON in Apple's format: dates in milliseconds, keys sorted.
    public func jsonData() throws(PayloadEncodingError) -> Data {
        try payload.jsonData()
    }
}
