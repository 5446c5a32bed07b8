/// The kind of App Store Server Notification V2; Apple's `notificationType`.
public struct NotificationType: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A customer subscribed, or a family member received a shared subscription. Raw value `SUBSCRIBED`.
    public static let subscribed = NotificationType(rawValue: "SUBSCRIBED")
    /// The customer changed their plan: an upgrade, a downgrade, or a cancelled downgrade. Raw value `DID_CHANGE_RENEWAL_PREF`.
    public static let didChangeRenewalPref = NotificationType(rawValue: "DID_CHANGE_RENEWAL_PREF")
    /// The customer turned auto-renew on or off. Raw value `DID_CHANGE_RENEWAL_STATUS`.
    public static let didChangeRenewalStatus = NotificationType(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    /// The customer redeemed an offer. Raw value `OFFER_REDEEMED`.
    public static let offerRedeemed = NotificationType(rawValue: "OFFER_REDEEMED")
    /// The subscription renewed; with `BILLING_RECOVERY` after failed billing. Raw value `DID_RENEW`.
    public static let didRenew = NotificationType(rawValue: "DID_RENEW")
    /// The subscription expired. Raw value `EXPIRED`.
    public static let expired = NotificationType(rawValue: "EXPIRED")
    /// The renewal failed; with `GRACE_PERIOD` the customer keeps service. Raw value `DID_FAIL_TO_RENEW`.
    public static let didFailToRenew = NotificationType(rawValue: "DID_FAIL_TO_RENEW")
    /// The billing grace period ended; billing retry goes on without service. Raw value `GRACE_PERIOD_EXPIRED`.
    public static let gracePeriodExpired = NotificationType(rawValue: "GRACE_PERIOD_EXPIRED")
    /// A price increase is pending or was accepted. Raw value `PRICE_INCREASE`.
    public static let priceIncrease = NotificationType(rawValue: "PRICE_INCREASE")
    /// Apple refunded a transaction. Raw value `REFUND`.
    public static let refund = NotificationType(rawValue: "REFUND")
    /// Apple declined a refund request. Raw value `REFUND_DECLINED`.
    public static let refundDeclined = NotificationType(rawValue: "REFUND_DECLINED")
    /// Apple reversed a refund: the transaction entitles again. Raw value `REFUND_REVERSED`.
    public static let refundReversed = NotificationType(rawValue: "REFUND_REVERSED")
    /// Apple asks for consumption information about a refund request. Raw value `CONSUMPTION_REQUEST`.
    public static let consumptionRequest = NotificationType(rawValue: "CONSUMPTION_REQUEST")
    /// Apple extended the subscription's renewal date. Raw value `RENEWAL_EXTENDED`.
    public static let renewalExtended = NotificationType(rawValue: "RENEWAL_EXTENDED")
    /// The state of a renewal-date extension for all subscribers. Raw value `RENEWAL_EXTENSION`.
    public static let renewalExtension = NotificationType(rawValue: "RENEWAL_EXTENSION")
    /// A Family Sharing entitlement ended: sharing stopped, someone left the family, or a refund. Raw value `REVOKE`.
    public static let revoke = NotificationType(rawValue: "REVOKE")
    /// A test notification requested through the App Store Server API. Raw value `TEST`.
    public static let test = NotificationType(rawValue: "TEST")
    /// An external purchase token event. Raw value `EXTERNAL_PURCHASE_TOKEN`.
    public static let externalPurchaseToken = NotificationType(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    /// A one-time purchase: a consumable, non-consumable or non-renewing subscription. Raw value `ONE_TIME_CHARGE`.
    public static let oneTimeCharge = NotificationType(rawValue: "ONE_TIME_CHARGE")
    /// A customer withdrew consent; carries `appData`, not `data`. Raw value `RESCIND_CONSENT`.
    public static let rescindConsent = NotificationType(rawValue: "RESCIND_CONSENT")
    /// Advanced Commerce metadata changed. Raw value `METADATA_UPDATE`.
    public static let metadataUpdate = NotificationType(rawValue: "METADATA_UPDATE")
    /// Advanced Commerce migration. Raw value `MIGRATION`.
    public static let migration = NotificationType(rawValue: "MIGRATION")
    /// Advanced Commerce price change. Raw value `PRICE_CHANGE`.
    public static let priceChange = NotificationType(rawValue: "PRICE_CHANGE")

    public static let documentedValues: [NotificationType] = [
        .subscribed,
        .didChangeRenewalPref,
        .didChangeRenewalStatus,
        .offerRedeemed,
        .didRenew,
        .expired,
        .didFailToRenew,
        .gracePeriodExpired,
        .priceIncrease,
        .refund,
        .refundDeclined,
        .refundReversed,
        .consumptionRequest,
        .renewalExtended,
        .renewalExtension,
        .revoke,
        .test,
        .externalPurchaseToken,
        .oneTimeCharge,
        .rescindConsent,
        .metadataUpdate,
        .migration,
        .priceChange,
    ]
}
