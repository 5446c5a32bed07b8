import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// Get Transaction History did not answer; the caller answers 503 and the work is done again later.
struct HistoryUnavailable: Error {
    let transactionId: String
}

extension AppStoreService {
    /// Every notification about a transaction: re-read the customer's whole history, as Apple asks on REVOKE.
    func handle(_ notification: NotificationPayload) async throws {
        guard let transactionId = notification.data?.transactionInfo?.originalTransactionId else { return }
        _ = try await rebuildFromApple(transactionId: transactionId, with: notification, asOf: Date())
    }

    /// Reads Get Transaction History for `transactionId`, verifies every transaction, and stores what they grant.
    ///
    /// The notification itself goes into the customer's ledger too: a REVOKE without revocationDate, an EXPIRED, and
    /// the renewal info (grace period, billing retry) are in the notification, not in the transaction history.
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
        let report = ledger.rebuild(asOf: now, environment: intake.policy.environment, catalog: catalog)
        try await store.save(ledger.compacted(asOf: now), of: transactionId)  // see docs/ledger.md
        try await store.replaceEntitlements(of: transactionId, with: report)
        return report
    }
}
