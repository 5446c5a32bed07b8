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
        var revision: String? = nil
        repeat {
            let result = await apiClient.getTransactionHistory(
                anyTransactionId: transactionId, revision: revision,
                transactionHistoryRequest: TransactionHistoryRequest(sort: .ascending), version: .v2)
            guard case .success(let page) = result else { throw HistoryUnavailable(transactionId: transactionId) }
            for signed in page.signedTransactions ?? [] {
                ledger.absorb(try await intake.verify(signedTransaction: signed))
            }
            revision = page.hasMore == true ? page.revision : nil
        } while revision != nil
        // The renewal info of every subscription, and Apple's status of it, which the rebuild only cross-checks.
        let statuses = await apiClient.getAllSubscriptionStatuses(anyTransactionId: transactionId)
        guard case .success(let answer) = statuses else { throw HistoryUnavailable(transactionId: transactionId) }
        let body = try SubscriptionStatusesResponse(jsonData: JSONEncoder().encode(answer))
        _ = try await ledger.absorb(body, verifiedBy: intake)
        return try await decide(adding: ledger, of: transactionId, asOf: now)
    }
}
