#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SubscriptionStatusSnapshot {
    /// The snapshot of one item of a Get All Subscription Statuses answer, from the item's transaction and renewal
    /// info as verified (or decoded) from its signed strings.
    ///
    /// The signed payloads name the chain, the environment and the app before the response does, since their
    /// signatures vouch for them; `signedDate` is the later of their signedDates, nil when neither has one.
    public init(
        item: LastTransactionsItem, in group: SubscriptionGroupStatus? = nil,
        of response: SubscriptionStatusesResponse? = nil, transaction: TransactionPayload?,
        renewalInfo: RenewalInfoPayload?
    ) {
        let dates = [transaction?.signedDate, renewalInfo?.signedDate].compactMap { $0 }
        self.init(
            originalTransactionId: transaction?.originalTransactionId ?? renewalInfo?.originalTransactionId
                ?? item.originalTransactionId,
            status: item.status, signedDate: dates.max(),
            environment: transaction?.environment ?? renewalInfo?.environment ?? response?.environment,
            bundleId: transaction?.bundleId ?? response?.bundleId,
            subscriptionGroupIdentifier: transaction?.subscriptionGroupIdentifier ?? group?.subscriptionGroupIdentifier)
    }
}

extension SubscriptionStatusSnapshot: AppStorePayload {}
