import FamilyEntitlements
import Foundation

/// Who may use what in a downstream app: each account's App Store history, recomputed on every notification.
///
/// A family member's notifications carry no `appAccountToken`, so the ledger links accounts by the member's own
/// `originalTransactionId`, as Apple advises. Notification bodies are verified by the `verify` function the ledger is
/// given: in production a verifier of Apple's signatures, in tests a decoder that checks none.
public struct AccessLedger: Sendable {
    /// Reads the notification out of the body Apple posts, after checking its signatures.
    public typealias Verifier = @Sendable (Data) throws -> NotificationPayload

    /// An account's history, by account.
    public private(set) var histories: [String: History] = [:]
    private var accounts: [String: String] = [:]
    private let verify: Verifier
    private let catalog: ProductCatalog

    public init(catalog: ProductCatalog, verify: @escaping Verifier) {
        self.catalog = catalog
        self.verify = verify
    }

    /// Links a subscription or purchase chain to an account, when the app first sees it.
    public mutating func link(originalTransactionId: String, to account: String) {
        accounts[originalTransactionId] = account
    }

    /// Records a notification body; returns the account it concerns, or nil when no account is linked to it.
    @discardableResult
    public mutating func receive(body: Data) throws -> String? {
        let notification = try verify(body)
        guard let original = notification.data?.transactionInfo?.originalTransactionId,
            let account = accounts[original]
        else { return nil }
        histories[account, default: History()].notifications.append(notification)
        return account
    }

    /// Whether an account may use an entitlement at an instant, recomputed from its whole history as Apple asks.
    public func hasAccess(_ account: String, to entitlement: String, at instant: Date) -> Bool {
        guard let history = histories[account] else { return false }
        return rebuildEntitlements(history: history, asOf: instant, catalog: catalog).hasAccess(to: entitlement)
    }
}
