import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// The key of the ledger a transaction's entries go to: the customer's, by the account links, once an account has
    /// linked the purchase; until then the purchase's own, where its entries wait for the link.
    func ledgerKey(of originalTransactionId: String) async throws -> String {
        let links = try await store.accountLinks()
        guard let owner = links.owner(of: OriginalTransactionID(originalTransactionId)) else {
            return waitingKey(of: originalTransactionId)
        }
        return "customer:\(owner.uuid.uuidString.lowercased())"
    }

    /// The key of the ledger where the entries of a purchase that no account has linked wait.
    func waitingKey(of originalTransactionId: String) -> String {
        "transaction:\(originalTransactionId)"
    }

    /// Writes what was learned about a transaction into its ledger. A write into a waiting ledger checks the links
    /// again after it: a link made meanwhile merged the waiting ledger, perhaps before this write, so this call
    /// merges what it learned into the customer's ledger itself (twice is harmless, never is not).
    func decide(adding learned: CustomerLedger, of originalTransactionId: String, asOf now: Date) async throws
        -> EntitlementReport
    {
        let key = try await ledgerKey(of: originalTransactionId)
        let report = try await write(learned, under: key, asOf: now)
        let linked = try await ledgerKey(of: originalTransactionId)
        return linked == key ? report : try await write(learned, under: linked, asOf: now)
    }
}
