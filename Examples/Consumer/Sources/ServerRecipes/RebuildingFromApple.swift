import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// Get Transaction History or Get All Subscription Statuses did not answer; the caller answers 503 and the work is
/// done again later.
struct HistoryUnavailable: Error {
    let transactionId: String
}

extension AppStoreService {
    /// Every notification about a transaction: absorb it, then re-read the customer's history, as Apple asks on REVOKE.
    func handle(_ notification: NotificationPayload) async throws {
        guard let transactionId = notification.data?.transactionInfo?.originalTransactionId else { return }
        _ = try await rebuildFromApple(transactionId: transactionId, with: notification, asOf: clock())
    }

    /// Absorbs the notification, every transaction of Get Transaction History, and the renewal infos and Apple's
    /// statuses of Get All Subscription Statuses into a ledger of what Apple says now, then merges it into the
    /// customer's stored ledger and decides from the whole, in one conditional write.
    ///
    /// The notification goes into the ledger beside the history: a REVOKE without revocationDate, an EXPIRED, and the
    /// renewal info (grace period, billing retry) are in the notification, not in the transaction history.
    func rebuildFromApple(
        transactionId: String, with notification: NotificationPayload? = nil,
        adding known: CustomerLedger = CustomerLedger(), asOf now: Date
    ) async throws -> EntitlementReport {
        var ledger = known  // what this call learns; the stored ledger is read only at the write
        if let notification { ledger.absorb(notification) }
        // Every page, by revision and hasMore; a failure throws PagingError with Apple's retry time, if it gave one.
        let pages = try await allTransactionHistoryPages { revision in
            let result = await apiClient.getTransactionHistory(
                anyTransactionId: transactionId, revision: revision,
                transactionHistoryRequest: TransactionHistoryRequest(sort: .ascending), version: .v2)
            switch result {
            case .success(let page):
                return try TransactionHistoryResponse(jsonData: JSONEncoder().encode(page))  // one JSON form
            case .failure(let status?, let errorCode, _, let message, _):
                throw status == 429
                    ? AppStoreServerAPIFailure.rateLimited(retry: nil)  // Apple's client keeps Retry-After to itself
                    : AppStoreServerAPIFailure.server(httpStatus: status, errorCode: errorCode, errorMessage: message)
            case .failure(nil, _, _, _, let cause):  // no answer: no connection, a timeout
                throw AppStoreServerAPIFailure(cause ?? HistoryUnavailable(transactionId: transactionId))
            }
        }
        for page in pages {
            try await ledger.absorb(page, verifiedBy: intake)  // each signed transaction verified on its own
        }
        // The renewal info of every subscription, and Apple's status of it, which the rebuild only cross-checks.
        let statuses = await apiClient.getAllSubscriptionStatuses(anyTransactionId: transactionId)
        guard case .success(let answer) = statuses else { throw HistoryUnavailable(transactionId: transactionId) }
        let body = try SubscriptionStatusesResponse(jsonData: JSONEncoder().encode(answer))
        _ = try await ledger.absorb(body, verifiedBy: intake)
        return try await decide(adding: ledger, of: transactionId, asOf: now)
    }
}
