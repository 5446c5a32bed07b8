import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoded renewal information for a subscription transaction, with realistic defaults.
///
/// The renewal info describes the chain of `transaction`: same original transaction, product, environment and
/// currency, renewing at its `expiresDate`. It is signed with the transaction unless `signed` says otherwise.
public enum RenewalInfoBuilder {
    /// Renewal info of a subscription in good standing: auto-renew on, or off after the customer turned it off.
    ///
    /// `nextProduct` is the plan the next renewal moves to (a pending downgrade or crossgrade).
    public static func renewing(
        _ transaction: TransactionPayload, autoRenew: Bool = true, nextProduct: TestProduct? = nil,
        signed: Date? = nil
    ) -> RenewalInfoPayload {
        var info = base(transaction, signed: signed)
        info.autoRenewStatus = autoRenew ? .on : .off
        if let nextProduct {
            info.autoRenewProductId = nextProduct.productId.rawValue
            if transaction.currency == DemoApp.currency { info.renewalPrice = nextProduct.price }
        }
        return info
    }

    /// Renewal info after a failed renewal: Apple retries billing, in the billing grace period until
    /// `gracePeriodEnds` when the app has one.
    public static func billingRetry(
        _ transaction: TransactionPayload, gracePeriodEnds: Date? = nil, signed: Date
    ) -> RenewalInfoPayload {
        var info = base(transaction, signed: signed)
        info.autoRenewStatus = .on
        info.expirationIntent = .billingError
        info.isInBillingRetryPeriod = true
        info.gracePeriodExpiresDate = gracePeriodEnds
        return info
    }

    /// Renewal info of a subscription that ended, with Apple's reason.
    public static func expired(
        _ transaction: TransactionPayload, intent: ExpirationIntent = .customerCancelled, signed: Date
    ) -> RenewalInfoPayload {
        var info = base(transaction, signed: signed)
        info.autoRenewStatus = intent == .customerCancelled || intent == .didNotConsentToPriceIncrease ? .off : .on
        info.expirationIntent = intent
        info.isInBillingRetryPeriod = intent == .billingError ? false : nil
        return info
    }

    /// Renewal info after a refund or a Family Sharing revocation: the chain no longer renews.
    public static func revoked(_ transaction: TransactionPayload, signed: Date) -> RenewalInfoPayload {
        var info = base(transaction, signed: signed)
        info.autoRenewStatus = .off
        info.expirationIntent = .other
        return info
    }

    private static func base(_ transaction: TransactionPayload, signed: Date?) -> RenewalInfoPayload {
        let demo = transaction.productId.flatMap { DemoProduct.named(ProductID($0)) }
        return RenewalInfoPayload(
            originalTransactionId: transaction.originalTransactionId, productId: transaction.productId,
            autoRenewProductId: transaction.productId, signedDate: signed ?? transaction.signedDate,
            environment: transaction.environment, recentSubscriptionStartDate: transaction.originalPurchaseDate,
            renewalDate: transaction.expiresDate, currency: transaction.currency,
            renewalPrice: transaction.currency == DemoApp.currency
                ? demo?.price ?? transaction.price
                : transaction.price,
            appAccountToken: transaction.appAccountToken, appTransactionId: transaction.appTransactionId)
    }
}
