import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// The app's restore or first-launch call: the session says who is asking, the signed transaction what was bought.
    func link(signedTransaction: String, session: Session) async throws -> LinkResponse {
        let transaction: TransactionPayload
        do throws(TransactionRejection) {
            transaction = try await intake.verify(signedTransaction: signedTransaction)
        } catch {
            return error.outcome == .retryLater ? .retryLater : .refused(code: error.code.rawValue)
        }
        // The user is the session's, never a token from the request body.
        let request = try AccountLinkRequest(transaction: transaction, user: session.appAccountToken)
        var links = try await store.accountLinks()
        if case .conflict(let conflict) = links.link(request) {
            return .conflict(code: conflict.code.rawValue)  // "account_token_mismatch": nothing moved
        }
        try await store.save(links)  // compare-and-set: two restores may race
        // What waited under the purchase's own key (notifications that came before any account linked it) joins the
        // customer's ledger, with Apple's history for this purchase, not the app's copy of one transaction.
        let original = request.originalTransactionId.rawValue
        let waiting = try await store.load(waitingKey(of: original)).ledger
        return .linked(try await rebuildFromApple(transactionId: original, adding: waiting, asOf: clock()))
    }
}
