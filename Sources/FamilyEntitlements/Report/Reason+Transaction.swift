extension Reason.Fact {
    /// The transaction this fact is about, where it names one: what a timeline or a support tool marks it on.
    public var transactionId: String? {
        switch self {
        case .newestSnapshot(let id, _), .billingRecovery(let id), .refundReversed(let id),
            .subscriptionGrants(let id, _, _, _), .missingExpiresDate(let id), .expiredAndFollowed(let id, _),
            .expiredWithoutBillingRetry(let id, _), .gracePeriod(let id, _, _), .billingRetry(let id, _),
            .markedUpgraded(let id, _), .replaced(let id, _, _, _), .nonConsumableGrants(let id, _, _),
            .grantsUntil(let id, _, _), .ended(let id, _), .revoked(let id, _, _, _, _, _),
            .familySharedNonRenewing(let id):
            id
        case .anyGrants(_, _, let reported, _):
            reported
        case .carriedBy, .endedByNotification, .billingRetryOver, .gracePeriodEndedByNotification, .missingDuration,
            .lasts, .unknownTypeUnbounded, .unknownTypeBounded, .noneGrants, .autoRenewOff, .revokedByNotification,
            .unreadEntries, .text:
            nil
        }
    }
}
