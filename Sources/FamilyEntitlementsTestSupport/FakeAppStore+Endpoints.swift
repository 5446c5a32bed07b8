import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FakeAppStore {
    /// Apple's 404 `TransactionIdNotFoundError` (errorCode 4040010): no customer has this transaction.
    public static let transactionIdNotFound = AppStoreServerAPIFailure.server(
        httpStatus: 404, errorCode: 4_040_010, errorMessage: "Transaction id not found.")
    /// Apple's 400 `InvalidRequestRevisionError` (errorCode 4000005): a revision the fake did not issue for this
    /// customer and sort.
    public static let invalidRequestRevision = AppStoreServerAPIFailure.server(
        httpStatus: 400, errorCode: 4_000_005, errorMessage: "Invalid request revision.")
    /// Apple's 400 `InvalidPaginationTokenError` (errorCode 4000014): a pagination token the fake did not issue for
    /// this request body.
    public static let invalidPaginationToken = AppStoreServerAPIFailure.server(
        httpStatus: 400, errorCode: 4_000_014, errorMessage: "Invalid pagination token.")
    /// Apple's 400 `StartDateAfterEndDateError` (errorCode 4000013): the body's `startDate` is not before its `endDate`.
    public static let startDateAfterEndDate = AppStoreServerAPIFailure.server(
        httpStatus: 400, errorCode: 4_000_013, errorMessage: "Start date is not before end date.")

    // MARK: Get Transaction History

    /// One page of Get Transaction History for the customer of `transactionId`: at most `pageSize` of the customer's
    /// `transactions`, each signed on its own, ordered by signedDate (`sort`), from `revision` on (nil: the first page).
    ///
    /// Every page carries a `revision`: on a page with `hasMore`, the one to ask for the next; on the last, the one to
    /// store and pass later. A revision the fake did not issue for this customer and sort is `invalidRequestRevision`;
    /// an unknown transaction is `transactionIdNotFound`.
    public func getTransactionHistory(
        transactionId: String, revision: String? = nil, sort: Sort = .ascending
    ) async throws(AppStoreServerAPIFailure) -> TransactionHistoryResponse {
        let cursor = revision.flatMap { issuedRevisions[$0] }
        try receive(
            .transactionHistory(transactionId: transactionId, revision: revision, sort: sort),
            page: revision == nil ? 0 : cursor.map { $0.offset / pageSize })
        guard let customer = customerIndex(of: transactionId) else { try refuse(Self.transactionIdNotFound) }
        var offset = 0
        if revision != nil {
            guard let cursor, cursor.customer == customer, cursor.sort == sort else {
                try refuse(Self.invalidRequestRevision)
            }
            offset = cursor.offset
        }
        let ordered = Self.ordered(customers[customer].transactions, by: \.signedDate, sort)
        let end = min(offset + pageSize, ordered.count)
        let next = HistoryCursor(customer: customer, sort: sort, offset: max(end, offset))
        let token = FixtureIdentifier.uuid("revision|\(customer)|\(sort.rawValue)|\(next.offset)").uuidString
            .lowercased()
        issuedRevisions[token] = next
        var signed: [String] = []
        for transaction in ordered[min(offset, end)..<end] {
            signed.append(try sign(transaction))
        }
        return TransactionHistoryResponse(
            revision: token, hasMore: end < ordered.count, bundleId: app.bundleId, appAppleId: app.appAppleId,
            environment: app.environment, signedTransactions: signed)
    }

    // MARK: Get All Subscription Statuses

    /// Get All Subscription Statuses for the customer of `transactionId`: for each auto-renewable chain of the
    /// customer's `transactions` and `renewalInfos`, its newest transaction and renewal info (each signed on its own,
    /// where there is one) and Apple's status (`setStatus(_:originalTransactionId:)`, else the newest of the
    /// customer's `subscriptionStatuses`, else absent), in groups by `subscriptionGroupIdentifier`.
    public func getAllSubscriptionStatuses(
        transactionId: String
    ) async throws(AppStoreServerAPIFailure) -> SubscriptionStatusesResponse {
        try receive(.subscriptionStatuses(transactionId: transactionId), page: nil)
        guard let customer = customerIndex(of: transactionId) else { try refuse(Self.transactionIdNotFound) }
        let history = customers[customer]
        let transactions = Self.newest(
            history.transactions.filter { $0.type == .autoRenewable }, by: \.originalTransactionId, signed: \.signedDate
        )
        let renewalInfos = Self.newest(history.renewalInfos, by: \.originalTransactionId, signed: \.signedDate)
        let snapshots = Self.newest(history.subscriptionStatuses, by: \.originalTransactionId, signed: \.signedDate)
        var groups: [String?: [LastTransactionsItem]] = [:]
        for original in Set(transactions.keys).union(renewalInfos.keys).sorted() {
            let transaction = transactions[original]
            groups[transaction?.subscriptionGroupIdentifier, default: []].append(
                LastTransactionsItem(
                    status: statuses[original] ?? snapshots[original]?.status, originalTransactionId: original,
                    signedTransactionInfo: try transaction.map { transaction throws(AppStoreServerAPIFailure) in
                        try sign(transaction)
                    },
                    signedRenewalInfo: try renewalInfos[original].map { info throws(AppStoreServerAPIFailure) in
                        try sign(info)
                    }))
        }
        return SubscriptionStatusesResponse(
            environment: app.environment, bundleId: app.bundleId, appAppleId: app.appAppleId,
            data: groups.keys.sorted { ($0 ?? "\u{10FFFF}") < ($1 ?? "\u{10FFFF}") }.map { group in
                SubscriptionGroupStatus(subscriptionGroupIdentifier: group, lastTransactions: groups[group])
            })
    }

    // MARK: Get Transaction Info

    /// Get Transaction Info: the newest snapshot of the transaction `transactionId`, from the customer's
    /// `transactions`, else from a notification's; `transactionIdNotFound` where no customer has it.
    public func getTransactionInfo(transactionId: String) async throws(AppStoreServerAPIFailure)
        -> TransactionInfoResponse
    {
        try receive(.transactionInfo(transactionId: transactionId), page: nil)
        for history in customers {
            let snapshots =
                history.transactions.filter { $0.transactionId == transactionId }
                + history.notifications.compactMap(\.data?.transactionInfo).filter { $0.transactionId == transactionId }
            if let newest = Self.newest(snapshots, by: \.transactionId, signed: \.signedDate)[transactionId] {
                return TransactionInfoResponse(signedTransactionInfo: try sign(newest))
            }
        }
        try refuse(Self.transactionIdNotFound)
    }

    // MARK: Get Notification History

    /// One page of Get Notification History: at most `pageSize` notifications of every customer, oldest signedDate
    /// first, each as the `signedPayload` Apple posts (`FakeJWSSigner.signedPayload(for:)`) with its send attempts.
    ///
    /// It keeps those signed from `startDate` (included) to `endDate` (excluded); with a `.transactionId` filter, those
    /// of the customer who has that transaction (any of their transaction identifiers; none for an unknown one); with
    /// a `.notificationType` filter, those of the type, and of the subtype where one is given; with `onlyFailures`,
    /// those none of whose send attempts succeeded (`setSendAttempts(_:notificationUUID:)`). A `startDate` not before
    /// `endDate` is `startDateAfterEndDate`; a token the fake did not issue for this body is `invalidPaginationToken`.
    public func getNotificationHistory(
        _ body: NotificationHistoryRequestBody, paginationToken: String? = nil
    ) async throws(AppStoreServerAPIFailure) -> NotificationHistoryResponse {
        let cursor = paginationToken.flatMap { issuedPaginationTokens[$0] }
        try receive(
            .notificationHistory(body, paginationToken: paginationToken),
            page: paginationToken == nil ? 0 : cursor.map { $0.offset / pageSize })
        guard body.startDate < body.endDate else { try refuse(Self.startDateAfterEndDate) }
        var offset = 0
        if paginationToken != nil {
            guard let cursor, cursor.body == body else { try refuse(Self.invalidPaginationToken) }
            offset = cursor.offset
        }
        let matching = notifications(matching: body)
        let end = min(offset + pageSize, matching.count)
        var items: [NotificationHistoryResponseItem] = []
        for notification in matching[min(offset, end)..<end] {
            let signed: String
            do {
                signed = try FakeJWSSigner().signedPayload(for: notification)
            } catch {
                try refuse(
                    .underlying(
                        "FakeAppStore could not sign notification \(notification.notificationUUID ?? "?"): \(error)"))
            }
            items.append(
                NotificationHistoryResponseItem(signedPayload: signed, sendAttempts: attempts(of: notification)))
        }
        guard end < matching.count else {
            return NotificationHistoryResponse(paginationToken: nil, hasMore: false, notificationHistory: items)
        }
        let next = NotificationCursor(body: body, offset: end)
        let token = FixtureIdentifier.uuid("notifications|\(body)|\(end)").uuidString.lowercased()
        issuedPaginationTokens[token] = next
        return NotificationHistoryResponse(paginationToken: token, hasMore: true, notificationHistory: items)
    }

    // MARK: Reading the customers

    /// The index of the customer with this transaction identifier or original transaction identifier, in a
    /// transaction, a renewal info or a notification.
    func customerIndex(of transactionId: String) -> Int? {
        customers.firstIndex { Self.identifiers(of: $0).contains(transactionId) }
    }

    /// Every transaction identifier and original transaction identifier in a history.
    static func identifiers(of history: History) -> Set<String> {
        let transactions = history.transactions + history.notifications.compactMap(\.data?.transactionInfo)
        let renewalInfos = history.renewalInfos + history.notifications.compactMap(\.data?.renewalInfo)
        return Set(
            transactions.flatMap { [$0.transactionId, $0.originalTransactionId] }.compactMap { $0 }
                + renewalInfos.compactMap(\.originalTransactionId))
    }

    /// The notifications a Get Notification History body asks for, oldest signedDate first.
    func notifications(matching body: NotificationHistoryRequestBody) -> [NotificationPayload] {
        var candidates: [NotificationPayload] = []
        switch body.filter {
        case .transactionId(let transactionId):
            candidates = customerIndex(of: transactionId).map { customers[$0].notifications } ?? []
        case .notificationType(let type, let subtype):
            candidates = customers.flatMap(\.notifications).filter {
                $0.notificationType == type && (subtype == nil || $0.subtype == subtype)
            }
        case nil:
            candidates = customers.flatMap(\.notifications)
        }
        return Self.ordered(candidates, by: \.signedDate, .ascending).filter { notification in
            guard let signed = notification.signedDate, body.startDate <= signed, signed < body.endDate else {
                return false
            }
            return !body.onlyFailures || !attempts(of: notification).contains { $0.sendAttemptResult == .success }
        }
    }

    /// The send attempts reported for a notification: those set, else one success when it was signed.
    func attempts(of notification: NotificationPayload) -> [SendAttemptItem] {
        notification.notificationUUID.flatMap { sendAttempts[$0] }
            ?? [SendAttemptItem(attemptDate: notification.signedDate, sendAttemptResult: .success)]
    }

    /// The compact JWS of a payload, as `FakeJWSSigner` writes it.
    func sign(_ payload: some AppStorePayload) throws(AppStoreServerAPIFailure) -> String {
        do {
            return try FakeJWSSigner().sign(payload)
        } catch {
            throw .underlying("FakeAppStore could not sign a payload: \(error)")
        }
    }

    /// Entries by date, ascending or descending; entries of one date (or none) keep their given order, ascending.
    static func ordered<Entry>(_ entries: [Entry], by date: (Entry) -> Date?, _ sort: Sort) -> [Entry] {
        let ascending = entries.enumerated().sorted { left, right in
            let (leftDate, rightDate) = (date(left.element) ?? .distantPast, date(right.element) ?? .distantPast)
            return leftDate != rightDate ? leftDate < rightDate : left.offset < right.offset
        }.map(\.element)
        return sort == .ascending ? ascending : ascending.reversed()
    }

    /// The newest entry (latest signedDate, the later of equals) of each key.
    static func newest<Entry>(
        _ entries: [Entry], by key: (Entry) -> String?, signed date: (Entry) -> Date?
    ) -> [String: Entry] {
        var newest: [String: Entry] = [:]
        for entry in entries {
            guard let key = key(entry) else { continue }
            if let held = newest[key], (date(held) ?? .distantPast) > (date(entry) ?? .distantPast) {
                continue
            }
            newest[key] = entry
        }
        return newest
    }
}
