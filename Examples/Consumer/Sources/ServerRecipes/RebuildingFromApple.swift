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
    /// statuses of Get All Subscription Statuses into the customer's ledger, then decides from the whole ledger.
    ///
    /// The notification goes into the ledger beside the history: a REVOKE without revocationDate, an EXPIRED, and the
    /// renewal info (grace period, billing retry) are in the notification, not in the transaction history.
    func rebuildFromApple(
        transactionId: String, with notification: NotificationPayload? = nil, asOf now: Date
    ) async throws -> EntitlementReport {
        var ledger = try await store.ledger(of: transactionId)  // CustomerLedger() the first time
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
        return try await decide(from: ledger, of: transactionId, asOf: now)
    }

    /// Decides from the whole ledger, stores the decision, acts on what changed since the stored one, and compacts.
    func decide(from ledger: CustomerLedger, of customer: String, asOf now: Date) async throws -> EntitlementReport {
        let report = ledger.rebuild(asOf: now, environment: intake.policy.environment, catalog: catalog)
        let previous = try await store.report(of: customer)  // nil the first time
        try await keep(report, of: customer)
        await act(on: report.changes(from: previous), of: customer)
        try await store.save(ledger.compacted(asOf: now), of: customer)  // see docs/ledger.md
        return report
    }
}
