import FamilyEntitlements
import Foundation

/// A canned V2 notification in `Fixtures/Notifications/`, one per file, named after the file.
///
/// A file is named `TYPE[.SUBTYPE][.OWNERSHIP][.variant].json`, such as `DID_RENEW.BILLING_RECOVERY.PURCHASED.json`:
/// the notification type and subtype, whose copy it is (`PURCHASED` for the purchaser, `FAMILY_SHARED` for a family
/// member; absent where the notification carries no transaction), and a lowercase variant where one type has several
/// canned forms. Each file is a decoded `NotificationPayload` in the history format: `data.transactionInfo` and
/// `data.renewalInfo` hold decoded payloads and nothing is signed. `requestBody()` gives the body Apple would post.
public enum NotificationFixture: String, CaseIterable, Hashable, Sendable {
    /// `CONSUMPTION_REQUEST` (PURCHASED): a refund request for a consumable, asking for consumption information.
    case consumptionRequestPurchased = "CONSUMPTION_REQUEST.PURCHASED"
    /// `DID_CHANGE_RENEWAL_PREF DOWNGRADE` (PURCHASED): a downgrade to the basic plan at the next renewal.
    case didChangeRenewalPrefDowngradePurchased = "DID_CHANGE_RENEWAL_PREF.DOWNGRADE.PURCHASED"
    /// `DID_CHANGE_RENEWAL_PREF` (PURCHASED): a pending downgrade cancelled.
    case didChangeRenewalPrefPurchased = "DID_CHANGE_RENEWAL_PREF.PURCHASED"
    /// `DID_CHANGE_RENEWAL_PREF UPGRADE` (PURCHASED): an upgrade from the basic plan, effective at once.
    case didChangeRenewalPrefUpgradePurchased = "DID_CHANGE_RENEWAL_PREF.UPGRADE.PURCHASED"
    /// `DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED` (FAMILY_SHARED): auto-renew turned off.
    case didChangeRenewalStatusAutoRenewDisabledFamilyShared =
        "DID_CHANGE_RENEWAL_STATUS.AUTO_RENEW_DISABLED.FAMILY_SHARED"
    /// `DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED` (PURCHASED): auto-renew turned off.
    case didChangeRenewalStatusAutoRenewDisabledPurchased = "DID_CHANGE_RENEWAL_STATUS.AUTO_RENEW_DISABLED.PURCHASED"
    /// `DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED` (FAMILY_SHARED): auto-renew turned back on.
    case didChangeRenewalStatusAutoRenewEnabledFamilyShared =
        "DID_CHANGE_RENEWAL_STATUS.AUTO_RENEW_ENABLED.FAMILY_SHARED"
    /// `DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_ENABLED` (PURCHASED): auto-renew turned back on.
    case didChangeRenewalStatusAutoRenewEnabledPurchased = "DID_CHANGE_RENEWAL_STATUS.AUTO_RENEW_ENABLED.PURCHASED"
    /// `DID_CHANGE_RENEWAL_STATUS` (PURCHASED): a renewal status change without a subtype.
    case didChangeRenewalStatusPurchased = "DID_CHANGE_RENEWAL_STATUS.PURCHASED"
    /// `DID_FAIL_TO_RENEW` (FAMILY_SHARED): a failed renewal without a grace period: billing retry, no access.
    case didFailToRenewFamilyShared = "DID_FAIL_TO_RENEW.FAMILY_SHARED"
    /// `DID_FAIL_TO_RENEW GRACE_PERIOD` (FAMILY_SHARED): a failed renewal in the billing grace period: access goes on.
    case didFailToRenewGracePeriodFamilyShared = "DID_FAIL_TO_RENEW.GRACE_PERIOD.FAMILY_SHARED"
    /// `DID_FAIL_TO_RENEW GRACE_PERIOD` (PURCHASED): a failed renewal in the billing grace period: access goes on.
    case didFailToRenewGracePeriodPurchased = "DID_FAIL_TO_RENEW.GRACE_PERIOD.PURCHASED"
    /// `DID_FAIL_TO_RENEW` (PURCHASED): a failed renewal without a grace period: billing retry, no access.
    case didFailToRenewPurchased = "DID_FAIL_TO_RENEW.PURCHASED"
    /// `DID_RENEW BILLING_RECOVERY` (FAMILY_SHARED): a renewal after failed billing: a recovery, not a new purchase.
    case didRenewBillingRecoveryFamilyShared = "DID_RENEW.BILLING_RECOVERY.FAMILY_SHARED"
    /// `DID_RENEW BILLING_RECOVERY` (PURCHASED): a renewal after failed billing: a recovery, not a new purchase.
    case didRenewBillingRecoveryPurchased = "DID_RENEW.BILLING_RECOVERY.PURCHASED"
    /// `DID_RENEW` (FAMILY_SHARED): a renewal.
    case didRenewFamilyShared = "DID_RENEW.FAMILY_SHARED"
    /// `DID_RENEW` (PURCHASED): a renewal.
    case didRenewPurchased = "DID_RENEW.PURCHASED"
    /// `EXPIRED BILLING_RETRY` (FAMILY_SHARED): expiry after 60 days of billing retry.
    case expiredBillingRetryFamilyShared = "EXPIRED.BILLING_RETRY.FAMILY_SHARED"
    /// `EXPIRED BILLING_RETRY` (PURCHASED): expiry after 60 days of billing retry.
    case expiredBillingRetryPurchased = "EXPIRED.BILLING_RETRY.PURCHASED"
    /// `EXPIRED PRICE_INCREASE` (FAMILY_SHARED): expiry without consent to a price increase.
    case expiredPriceIncreaseFamilyShared = "EXPIRED.PRICE_INCREASE.FAMILY_SHARED"
    /// `EXPIRED PRICE_INCREASE` (PURCHASED): expiry without consent to a price increase.
    case expiredPriceIncreasePurchased = "EXPIRED.PRICE_INCREASE.PURCHASED"
    /// `EXPIRED PRODUCT_NOT_FOR_SALE` (FAMILY_SHARED): expiry because the product was not for sale at renewal.
    case expiredProductNotForSaleFamilyShared = "EXPIRED.PRODUCT_NOT_FOR_SALE.FAMILY_SHARED"
    /// `EXPIRED PRODUCT_NOT_FOR_SALE` (PURCHASED): expiry because the product was not for sale at renewal.
    case expiredProductNotForSalePurchased = "EXPIRED.PRODUCT_NOT_FOR_SALE.PURCHASED"
    /// `EXPIRED VOLUNTARY` (FAMILY_SHARED): expiry after auto-renew was turned off.
    case expiredVoluntaryFamilyShared = "EXPIRED.VOLUNTARY.FAMILY_SHARED"
    /// `EXPIRED VOLUNTARY` (PURCHASED): expiry after auto-renew was turned off.
    case expiredVoluntaryPurchased = "EXPIRED.VOLUNTARY.PURCHASED"
    /// `EXTERNAL_PURCHASE_TOKEN ACTIVE_TOKEN_REMINDER`: a reminder that an external purchase token is active.
    case externalPurchaseTokenActiveTokenReminder = "EXTERNAL_PURCHASE_TOKEN.ACTIVE_TOKEN_REMINDER"
    /// `EXTERNAL_PURCHASE_TOKEN CREATED`: an external purchase token created.
    case externalPurchaseTokenCreated = "EXTERNAL_PURCHASE_TOKEN.CREATED"
    /// `EXTERNAL_PURCHASE_TOKEN UNREPORTED`: an external purchase token that was not reported.
    case externalPurchaseTokenUnreported = "EXTERNAL_PURCHASE_TOKEN.UNREPORTED"
    /// `GRACE_PERIOD_EXPIRED` (FAMILY_SHARED): the end of the grace period: billing retry goes on without access.
    case gracePeriodExpiredFamilyShared = "GRACE_PERIOD_EXPIRED.FAMILY_SHARED"
    /// `GRACE_PERIOD_EXPIRED` (PURCHASED): the end of the grace period: billing retry goes on without access.
    case gracePeriodExpiredPurchased = "GRACE_PERIOD_EXPIRED.PURCHASED"
    /// `METADATA_UPDATE` (PURCHASED): Advanced Commerce: the subscription's descriptors changed.
    case metadataUpdatePurchased = "METADATA_UPDATE.PURCHASED"
    /// `MIGRATION` (PURCHASED): Advanced Commerce: a subscription migrated.
    case migrationPurchased = "MIGRATION.PURCHASED"
    /// `OFFER_REDEEMED DOWNGRADE` (PURCHASED): a promotional offer redeemed with a downgrade at the next renewal.
    case offerRedeemedDowngradePurchased = "OFFER_REDEEMED.DOWNGRADE.PURCHASED"
    /// `OFFER_REDEEMED INITIAL_BUY` (PURCHASED): an offer code redeemed for a first purchase, paid up front.
    case offerRedeemedInitialBuyPurchased = "OFFER_REDEEMED.INITIAL_BUY.PURCHASED"
    /// `OFFER_REDEEMED` (PURCHASED): a promotional offer for the current plan from the next renewal.
    case offerRedeemedPurchased = "OFFER_REDEEMED.PURCHASED"
    /// `OFFER_REDEEMED RESUBSCRIBE` (PURCHASED): a win-back offer redeemed to return after expiry.
    case offerRedeemedResubscribePurchased = "OFFER_REDEEMED.RESUBSCRIBE.PURCHASED"
    /// `OFFER_REDEEMED UPGRADE` (PURCHASED): a promotional offer redeemed with an upgrade.
    case offerRedeemedUpgradePurchased = "OFFER_REDEEMED.UPGRADE.PURCHASED"
    /// `ONE_TIME_CHARGE` (FAMILY_SHARED): a non-consumable bought once.
    case oneTimeChargeFamilyShared = "ONE_TIME_CHARGE.FAMILY_SHARED"
    /// `ONE_TIME_CHARGE` (PURCHASED): a non-consumable bought once.
    case oneTimeChargePurchased = "ONE_TIME_CHARGE.PURCHASED"
    /// `ONE_TIME_CHARGE` (PURCHASED): a consumable bought.
    case oneTimeChargePurchasedConsumable = "ONE_TIME_CHARGE.PURCHASED.consumable"
    /// `ONE_TIME_CHARGE` (PURCHASED): a non-renewing season pass bought.
    case oneTimeChargePurchasedNonRenewing = "ONE_TIME_CHARGE.PURCHASED.non-renewing"
    /// `PRICE_CHANGE` (PURCHASED): Advanced Commerce: the renewal price of an item changed.
    case priceChangePurchased = "PRICE_CHANGE.PURCHASED"
    /// `PRICE_INCREASE ACCEPTED` (PURCHASED): a price increase accepted.
    case priceIncreaseAcceptedPurchased = "PRICE_INCREASE.ACCEPTED.PURCHASED"
    /// `PRICE_INCREASE PENDING` (PURCHASED): a price increase awaiting consent.
    case priceIncreasePendingPurchased = "PRICE_INCREASE.PENDING.PURCHASED"
    /// `REFUND` (PURCHASED): a full refund (`REFUND_FULL`).
    case refundPurchased = "REFUND.PURCHASED"
    /// `REFUND` (PURCHASED): a prorated refund (`REFUND_PRORATED`, 70 %).
    case refundPurchasedProrated = "REFUND.PURCHASED.prorated"
    /// `REFUND_DECLINED` (PURCHASED): a refund request declined: nothing changes.
    case refundDeclinedPurchased = "REFUND_DECLINED.PURCHASED"
    /// `REFUND_REVERSED` (PURCHASED): a refund reversed: the transaction comes back without revocation.
    case refundReversedPurchased = "REFUND_REVERSED.PURCHASED"
    /// `RENEWAL_EXTENDED` (PURCHASED): a renewal date extended by a week.
    case renewalExtendedPurchased = "RENEWAL_EXTENDED.PURCHASED"
    /// `RENEWAL_EXTENSION FAILURE` (PURCHASED): a renewal-date extension that failed for one subscription.
    case renewalExtensionFailurePurchased = "RENEWAL_EXTENSION.FAILURE.PURCHASED"
    /// `RENEWAL_EXTENSION SUMMARY`: the summary of a renewal-date extension for all subscribers.
    case renewalExtensionSummary = "RENEWAL_EXTENSION.SUMMARY"
    /// `RESCIND_CONSENT`: consent withdrawn; carries `appData`, not `data`.
    case rescindConsent = "RESCIND_CONSENT"
    /// `REVOKE` (FAMILY_SHARED): a family member's revocation with `FAMILY_REVOKE` and a revocationDate (a current
    /// payload).
    case revokeFamilyShared = "REVOKE.FAMILY_SHARED"
    /// `REVOKE` (FAMILY_SHARED): a family member's revocation after the purchaser's refund (`REFUND_FULL`, reason 1).
    case revokeFamilySharedPurchaserRefund = "REVOKE.FAMILY_SHARED.purchaser-refund"
    /// `REVOKE` (FAMILY_SHARED): a family member's revocation without revocationDate or revocationType: a departure, as
    /// older payloads report it.
    case revokeFamilySharedWithoutRevocationDate = "REVOKE.FAMILY_SHARED.without-revocation-date"
    /// `SUBSCRIBED INITIAL_BUY` (FAMILY_SHARED): a first purchase of a subscription.
    case subscribedInitialBuyFamilyShared = "SUBSCRIBED.INITIAL_BUY.FAMILY_SHARED"
    /// `SUBSCRIBED INITIAL_BUY` (PURCHASED): a first purchase of a subscription.
    case subscribedInitialBuyPurchased = "SUBSCRIBED.INITIAL_BUY.PURCHASED"
    /// `SUBSCRIBED RESUBSCRIBE` (FAMILY_SHARED): a return to the subscription after it had expired.
    case subscribedResubscribeFamilyShared = "SUBSCRIBED.RESUBSCRIBE.FAMILY_SHARED"
    /// `SUBSCRIBED RESUBSCRIBE` (PURCHASED): a return to the subscription after it had expired.
    case subscribedResubscribePurchased = "SUBSCRIBED.RESUBSCRIBE.PURCHASED"
    /// `TEST`: a test notification, without transaction.
    case test = "TEST"
}

extension NotificationFixture {
    /// The file's path inside `Fixtures/`.
    public var path: String { "Notifications/\(rawValue).json" }

    /// The notification type the file name gives.
    public var notificationType: NotificationType { NotificationType(rawValue: nameParts.type) }

    /// The subtype the file name gives, if any.
    public var subtype: NotificationSubtype? { nameParts.subtype.map(NotificationSubtype.init(rawValue:)) }

    /// Whose copy the notification carries, if it carries a transaction: `PURCHASED` or `FAMILY_SHARED`.
    public var ownership: OwnershipType? { nameParts.ownership.map(OwnershipType.init(rawValue:)) }

    /// The variant the file name gives, such as `without-revocation-date`, if any.
    public var variant: String? { nameParts.variant }

    /// The file's bytes.
    public func data() throws(FixtureError) -> Data {
        try FixtureFiles.data(path)
    }

    /// The decoded notification.
    public func payload() throws(FixtureError) -> NotificationPayload {
        let bytes = try data()
        do {
            return try NotificationPayload(jsonData: bytes)
        } catch {
            throw FixtureError(path: path, message: "\(error)")
        }
    }

    /// The body Apple would post for this notification, `{"signedPayload": "..."}`, signed by `signer` with the
    /// transaction and renewal info nested as signed strings. NOT signed by Apple.
    public func requestBody(signer: FakeJWSSigner = FakeJWSSigner()) throws(FixtureError) -> Data {
        let notification = try payload()
        do {
            return try signer.requestBody(for: notification)
        } catch {
            throw FixtureError(path: path, message: "\(error)")
        }
    }

    /// The fixtures of a type, narrowed to a subtype and an ownership where given.
    public static func fixtures(
        _ type: NotificationType, _ subtype: NotificationSubtype? = nil, ownership: OwnershipType? = nil
    ) -> [NotificationFixture] {
        allCases.filter { fixture in
            fixture.notificationType == type && (subtype == nil || fixture.subtype == subtype)
                && (ownership == nil || fixture.ownership == ownership)
        }
    }

    private var nameParts: (type: String, subtype: String?, ownership: String?, variant: String?) {
        let parts = rawValue.split(separator: ".").map(String.init)
        var result: (type: String, subtype: String?, ownership: String?, variant: String?) = (
            parts.first ?? "", nil, nil, nil
        )
        for part in parts.dropFirst() {
            if OwnershipType.documentedValues.contains(OwnershipType(rawValue: part)) {
                result.ownership = part
            } else if part == part.lowercased() {
                result.variant = part
            } else {
                result.subtype = part
            }
        }
        return result
    }
}
