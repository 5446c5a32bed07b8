import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// The recipes, for a program outside this module (the reference store's writer and its tests): a service on the
/// given store, with no logger, no metrics, Apple's API answering empty pages, and pushes handed to `push`.
///
/// It is not in the docs; it only lets a program run the very code the docs show.
public struct RecipeService<Verifier: SignedDataVerifying>: Sendable {
    let service: AppStoreService<Verifier>

    public init(
        intake: NotificationIntake<Verifier>, bundleId: String, store: any EntitlementStore, catalog: ProductCatalog?,
        clock: @escaping @Sendable () -> Date, push: @escaping @Sendable (String, [String]) async -> Void
    ) throws {
        service = AppStoreService(
            intake: intake,
            apiClient: try AppStoreServerAPIClient(
                signingKey: "", keyId: "", issuerId: "", bundleId: bundleId, environment: .production),
            store: store, logger: Logger { _ in }, metrics: Metrics { _, _ in }, devices: Devices(push: push),
            catalog: catalog, clock: clock)
    }

    /// `receiveAppStoreNotification(body:)`: the HTTP status answered to Apple.
    public func receiveAppStoreNotification(body: Data) async -> Int {
        await service.receiveAppStoreNotification(body: body)
    }

    /// `link(signedTransaction:session:)` for the user: true when linked, false for a conflict or a refusal.
    public func link(signedTransaction: String, user: AppAccountToken) async throws -> Bool {
        let response = try await service.link(
            signedTransaction: signedTransaction, session: Session(appAccountToken: user))
        if case .linked = response { return true }
        return false
    }

    /// `ledgerKey(of:)`: the key of the ledger a purchase's entries go to now.
    public func ledgerKey(of originalTransactionId: String) async throws -> String {
        try await service.ledgerKey(of: originalTransactionId)
    }

    /// `deliverOutbox()`: the outbox worker.
    public func deliverOutbox() async throws {
        try await service.deliverOutbox()
    }

    /// `decideDue()`: the scheduled decisions due at the clock's instant.
    public func decideDue() async throws {
        try await service.decideDue()
    }
}
