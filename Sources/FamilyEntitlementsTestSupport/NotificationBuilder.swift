import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoded V2 notifications in the history format: `data.transactionInfo` and `data.renewalInfo` hold decoded
/// payloads, and no string is signed.
///
/// Each notification is version 2.0 for `app` (the demo app unless you pass your own: pass the app its transaction was
/// built for), signed when its transaction was (or at `signed`), with a `notificationUUID` derived from its contents
/// and the subscription `status` Apple would send. To post one to code that takes a request body, sign it with
/// `FakeJWSSigner.requestBody(for:)`.
public enum NotificationBuilder {
    /// A notification of any type; the other builders call this one.
    ///
    /// `signed` defaults to the transaction's signedDate, then the renewal info's: pass it for a notification
    /// that carries neither. The environment is `environment`, else the transaction's, the renewal info's, the app's. `status` defaults to what Apple sends for the type and the transaction.
    public static func notification(
        _ type: NotificationType,
        _ subtype: NotificationSubtype? = nil,
        transaction: TransactionPayload? = nil,
        renewalInfo: RenewalInfoPayload? = nil,
        signed: Date? = nil,
        status: SubscriptionStatus? = nil,
        environment: Environment? = nil,
        app: AppUnderTest = .demo
    ) -> NotificationPayload {
        let signedDate = signed ?? transaction?.signedDate ?? renewalInfo?.signedDate
        let seed = [
            type.rawValue, subtype?.rawValue ?? "", signedDate.map(FixtureIdentifier.text) ?? "",
            transaction?.transactionId ?? "", renewalInfo?.originalTransactionId ?? "",
        ].joined(separator: "|")
        return NotificationPayload(
            notificationType: type, subtype: subtype,
            notificationUUID: FixtureIdentifier.uuid(seed).uuidString.lowercased(), version: "2.0",
            signedDate: signedDate,
            data: NotificationData(
                environment: environment ?? transaction?.environment ?? renewalInfo?.environment ?? app.environment,
                appAppleId: app.appAppleId, bundleId: app.bundleId, bundleVersion: app.bundleVersion,
                transactionInfo: transaction, renewalInfo: renewalInfo,
                status: status ?? defaultStatus(type, subtype, transaction: transaction)))
    }

    /// `SUBSCRIBED`: a purchase (`INITIAL_BUY`), a return after expiry (`RESUBSCRIBE`), or a family member's shared
    /// copy arriving; with renewal info that renews.
    public static func subscribed(
        _ transaction: TransactionPayload, _ subtype: NotificationSubtype = .initialBuy, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        notification(
            .subscribed, subtype, transaction: transaction, renewalInfo: RenewalInfoBuilder.renewing(transaction),
            app: app)
    }

    /// `DID_RENEW`: a renewal, or with `billingRecovery` a renewal after failed billing (not a new purchase).
    ///
    /// For a recovery, build the transaction with `TransactionBuilder.renewal(of:startingAt:)` from the recovery date.
    public static func didRenew(
        _ transaction: TransactionPayload, billingRecovery: Bool = false, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        var renewalInfo = RenewalInfoBuilder.renewing(transaction)
        if billingRecovery { renewalInfo.isInBillingRetryPeriod = false }
        return notification(
            .didRenew, billingRecovery ? .billingRecovery : nil, transaction: transaction, renewalInfo: renewalInfo,
            app: app)
    }

    /// `ONE_TIME_CHARGE`: a one-time purchase, or a family member's copy of a shared non-consumable.
    public static func oneTimeCharge(_ transaction: TransactionPayload, app: AppUnderTest = .demo)
        -> NotificationPayload
    {
        notification(.oneTimeCharge, transaction: transaction, app: app)
    }

    /// `DID_CHANGE_RENEWAL_STATUS`: the purchaser turned auto-renew on or off at `date`.
    public static func renewalStatusChanged(
        _ transaction: TransactionPayload, autoRenew: Bool, at date: Date, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        notification(
            .didChangeRenewalStatus, autoRenew ? .autoRenewEnabled : .autoRenewDisabled,
            transaction: TransactionBuilder.resigned(transaction, at: date),
            renewalInfo: RenewalInfoBuilder.renewing(transaction, autoRenew: autoRenew, signed: date), app: app)
    }

    /// `DID_FAIL_TO_RENEW` at `date`: with `gracePeriodEnds`, subtype `GRACE_PERIOD` and the customer keeps access.
    public static func didFailToRenew(
        _ transaction: TransactionPayload, at date: Date, gracePeriodEnds: Date? = nil, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        notification(
            .didFailToRenew, gracePeriodEnds == nil ? nil : .gracePeriod,
            transaction: TransactionBuilder.resigned(transaction, at: date),
            renewalInfo: RenewalInfoBuilder.billingRetry(transaction, gracePeriodEnds: gracePeriodEnds, signed: date),
            app: app)
    }

    /// `GRACE_PERIOD_EXPIRED` at `date`: the grace period is over and billing retry goes on without access.
    public static func gracePeriodExpired(
        _ transaction: TransactionPayload, at date: Date, gracePeriodEnded: Date? = nil, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        notification(
            .gracePeriodExpired, transaction: TransactionBuilder.resigned(transaction, at: date),
            renewalInfo: RenewalInfoBuilder.billingRetry(
                transaction, gracePeriodEnds: gracePeriodEnded ?? date, signed: date),
            app: app)
    }

    /// `EXPIRED` at `date`, with the subtype that says why (`VOLUNTARY` by default).
    public static func expired(
        _ transaction: TransactionPayload, _ subtype: NotificationSubtype = .voluntary, at date: Date,
        app: AppUnderTest = .demo
    ) -> NotificationPayload {
        let intent: ExpirationIntent =
            switch subtype {
            case .billingRetry: .billingError
            case .priceIncrease: .didNotConsentToPriceIncrease
            case .productNotForSale: .productNotAvailable
            default: .customerCancelled
            }
        return notification(
            .expired, subtype, transaction: TransactionBuilder.resigned(transaction, at: date),
            renewalInfo: RenewalInfoBuilder.expired(transaction, intent: intent, signed: date), app: app)
    }

    /// `REFUND` at `date`: the purchaser's transaction now carries revocationDate and its cause.
    public static func refund(
        _ transaction: TransactionPayload, at date: Date, reason: RevocationReason = .otherReason,
        type: RevocationType? = .refundFull, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        notification(
            .refund, transaction: TransactionBuilder.refunded(transaction, at: date, reason: reason, type: type),
            renewalInfo: isSubscription(transaction) ? RenewalInfoBuilder.revoked(transaction, signed: date) : nil,
            app: app)
    }

    /// `REFUND_REVERSED` at `date`: the transaction comes back without revocation.
    public static func refundReversed(
        _ transaction: TransactionPayload, at date: Date, app: AppUnderTest = .demo
    ) -> NotificationPayload {
        notification(
            .refundReversed, transaction: TransactionBuilder.refundReversed(transaction, at: date),
            renewalInfo: isSubscription(transaction) ? RenewalInfoBuilder.renewing(transaction, signed: date) : nil,
            app: app)
    }

    /// `REVOKE` at `date` for a family member's `FAMILY_SHARED` transaction, in the form `revocation` describes.
    public static func revoke(
        _ transaction: TransactionPayload, at date: Date, _ revocation: Revocation = .withoutRevocationDate,
        app: AppUnderTest = .demo
    ) -> NotificationPayload {
        var snapshot = TransactionBuilder.resigned(transaction, at: date)
        switch revocation {
        case .withoutRevocationDate:
            break
        case .familyRevoke:
            snapshot = TransactionBuilder.refunded(transaction, at: date, reason: .otherReason, type: .familyRevoke)
        case .purchaserRefund(let reason):
            snapshot = TransactionBuilder.refunded(transaction, at: date, reason: reason, type: .refundFull)
        case .legacyPurchaserRefund(let reason):
            snapshot = TransactionBuilder.refunded(transaction, at: date, reason: reason, type: nil)
        }
        return notification(
            .revoke, transaction: snapshot,
            renewalInfo: isSubscription(transaction) ? RenewalInfoBuilder.revoked(transaction, signed: date) : nil,
            app: app)
    }

    /// What a family member's `REVOKE` carries: Apple's payloads changed in December 2025, and the cause of an
    /// older one must be inferred.
    public enum Revocation: Hashable, Sendable {
        /// No revocationDate and no revocationType: a departure from the family as older payloads report it.
        case withoutRevocationDate
        /// revocationType `FAMILY_REVOKE`, revocationDate and revocationReason 0: sharing stopped or someone left.
        case familyRevoke
        /// revocationType `REFUND_FULL`, revocationDate and the purchaser's revocationReason: the purchaser was
        /// refunded.
        case purchaserRefund(RevocationReason)
        /// revocationDate and the purchaser's revocationReason, no revocationType: an older payload after the
        /// purchaser's refund; only reason 1 proves the refund.
        case legacyPurchaserRefund(RevocationReason)
    }

    private static func isSubscription(_ transaction: TransactionPayload) -> Bool {
        transaction.type == .autoRenewable
    }

    private static func defaultStatus(
        _ type: NotificationType, _ subtype: NotificationSubtype?, transaction: TransactionPayload?
    ) -> SubscriptionStatus? {
        guard let transaction, isSubscription(transaction) else { return nil }
        switch type {
        case .revoke, .refund: return .revoked
        case .expired: return .expired
        case .didFailToRenew: return subtype == .gracePeriod ? .billingGracePeriod : .billingRetry
        case .gracePeriodExpired: return .billingRetry
        default: return transaction.revocationDate == nil ? .active : .revoked
        }
    }
}
