import FamilyEntitlements
import Foundation

/// A service's App Store round trip: take a notification through the intake, then fetch the customer's whole
/// transaction history page by page, absorb everything into the customer's ledger and decide again.
///
/// The page fetch is injected: production passes a closure around its App Store Server API client that maps the
/// client's errors onto `AppStoreServerAPIFailure`; tests pass `FakeAppStore`. The service reads no clock (`asOf` is
/// an argument) and never waits: when Apple is over its rate limit or down, it keeps what it verified and answers
/// `historyPending` with the retry time, and `resume` finishes the fetch later from where it stopped.
public struct AccessService<Verifier: SignedDataVerifying>: Sendable {
    /// The trust boundary for notifications and signed transactions.
    public var intake: NotificationIntake<Verifier>
    /// The products the service sells, if its rebuild needs a catalog.
    public var catalog: ProductCatalog?
    /// Asks Get Transaction History for one page of the customer of a transaction, from a revision.
    public var fetchHistoryPage:
        @Sendable (_ transactionId: String, _ revision: String?) async throws -> TransactionHistoryResponse

    public init(
        intake: NotificationIntake<Verifier>, catalog: ProductCatalog? = nil,
        fetchHistoryPage:
            @escaping @Sendable (_ transactionId: String, _ revision: String?) async throws ->
            TransactionHistoryResponse
    ) {
        self.intake = intake
        self.catalog = catalog
        self.fetchHistoryPage = fetchHistoryPage
    }

    /// A history fetch that stopped: the transaction it is for and where the paging stopped.
    public struct PendingFetch: Hashable, Sendable {
        /// The transaction whose customer's history is fetched.
        public var transactionId: String
        /// The pages fetched, the revision to resume from and the retry time.
        public var paging: PagingError<TransactionHistoryResponse>
    }

    /// What the service did.
    public enum Outcome: Hashable, Sendable {
        /// Everything verified and absorbed: the decision at `asOf`.
        case decided(EntitlementReport)
        /// The notification was absorbed, the history fetch stopped: call `resume` at its retry time.
        case historyPending(PendingFetch)
        /// The notification was refused: answer Apple with its `httpStatus`.
        case notificationRefused(NotificationRejection)
        /// A transaction of the history was refused: nothing of that fetch was absorbed.
        case historyRefused(TransactionRejection)

        /// The HTTP status to answer Apple's notification with: 200 once the notification is taken, the
        /// rejection's otherwise (503 when verification could not complete, so that Apple sends it again).
        public var httpStatus: Int {
            if case .notificationRefused(let rejection) = self { rejection.httpStatus } else { 200 }
        }
    }

    /// Takes the body Apple posted, then fetches the customer's history and decides at `asOf`.
    public func receive(requestBody: Data, into ledger: inout CustomerLedger, asOf: Date) async -> Outcome {
        let verified: VerifiedNotification
        do throws(NotificationRejection) {
            verified = try await intake.receive(requestBody: requestBody)
        } catch {
            return .notificationRefused(error)
        }
        ledger.absorb(verified)
        guard let transactionId = verified.notification.data?.transactionInfo?.transactionId else {
            return .decided(ledger.rebuild(asOf: asOf, environment: intake.policy.environment, catalog: catalog))
        }
        return await fetchHistory(transactionId: transactionId, resuming: nil, into: &ledger, asOf: asOf)
    }

    /// Finishes a fetch that stopped, from where it stopped, and decides at `asOf`.
    public func resume(_ pending: PendingFetch, into ledger: inout CustomerLedger, asOf: Date) async -> Outcome {
        await fetchHistory(
            transactionId: pending.transactionId, resuming: pending.paging, into: &ledger, asOf: asOf)
    }

    private func fetchHistory(
        transactionId: String, resuming stopped: PagingError<TransactionHistoryResponse>?,
        into ledger: inout CustomerLedger, asOf: Date
    ) async -> Outcome {
        let fetch: (String?) async throws -> TransactionHistoryResponse = { revision in
            try await fetchHistoryPage(transactionId, revision)
        }
        let fetched: [TransactionHistoryResponse]
        do throws(PagingError<TransactionHistoryResponse>) {
            if let stopped {
                fetched = try await allTransactionHistoryPages(resuming: stopped, fetch: fetch)
            } else {
                fetched = try await allTransactionHistoryPages(fetch: fetch)
            }
        } catch {
            return .historyPending(PendingFetch(transactionId: transactionId, paging: error))
        }
        var updated = ledger
        for page in fetched {
            do throws(TransactionRejection) {
                _ = try await updated.absorb(page, verifiedBy: intake)
            } catch {
                return .historyRefused(error)
            }
        }
        ledger = updated
        return .decided(ledger.rebuild(asOf: asOf, environment: intake.policy.environment, catalog: catalog))
    }
}
