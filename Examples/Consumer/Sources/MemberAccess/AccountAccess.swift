import FamilyEntitlements
import Foundation

/// Who may use what in a downstream app: each account's App Store history, recomputed on every notification.
///
/// A family member's notifications carry no `appAccountToken`, so it links accounts by the member's own
/// `originalTransactionId`, as Apple advises. Notification bodies go through a `NotificationIntake`: in production
/// with Apple's verifier, in tests with `FakeJWSVerifier`. Each notification is taken once, by `notificationUUID`,
/// however often Apple sends it; one the verifier could not check is answered 503 and not taken, so Apple sends it again.
public struct AccountAccess<Verifier: SignedDataVerifying>: Sendable {
    /// An account's App Store history, by account, as FamilyEntitlements keeps it over time.
    public private(set) var ledgers: [String: CustomerLedger] = [:]
    /// The `notificationUUID`s taken so far.
    public private(set) var taken: Set<String> = []
    private var accounts: [String: String] = [:]
    private let intake: NotificationIntake<Verifier>
    private let catalog: ProductCatalog

    public init(catalog: ProductCatalog, intake: NotificationIntake<Verifier>) {
        self.catalog = catalog
        self.intake = intake
    }

    /// Links a subscription or purchase chain to an account, when the app first sees it.
    public mutating func link(originalTransactionId: String, to account: String) {
        accounts[originalTransactionId] = account
    }

    /// Receives a body Apple posts and returns the HTTP status to answer: 200, or 503 to have Apple send it again.
    @discardableResult
    public mutating func receive(body: Data) async -> Int {
        let verified: VerifiedNotification
        do throws(NotificationRejection) {
            verified = try await intake.receive(requestBody: body)
        } catch {
            return error.httpStatus
        }
        let notification = verified.notification
        guard let uuid = notification.notificationUUID, !taken.contains(uuid) else { return 200 }
        taken.insert(uuid)
        if let original = notification.data?.transactionInfo?.originalTransactionId, let account = accounts[original] {
            ledgers[account, default: CustomerLedger()].absorb(verified)
        }
        return 200
    }

    /// Whether an account may use an entitlement at an instant, recomputed from its whole history as Apple asks.
    public func hasAccess(_ account: String, to entitlement: String, at instant: Date) -> Bool {
        guard let ledger = ledgers[account] else { return false }
        return ledger.rebuild(asOf: instant, catalog: catalog).hasAccess(to: EntitlementID(entitlement))
    }
}
