#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A decoded transaction: the JSON inside a signed transaction; Apple's `JWSTransactionDecodedPayload`.
///
/// Every field is optional, as on the wire; the rebuild reports what it needs and does not find. Dates are Apple's
/// milliseconds since 1970 as `Date`; `price` is in milliunits of `currency` (1990 USD = 1.99).
public struct TransactionPayload: Hashable, Sendable {
    // The fields the rebuild reads of every transaction come first, so that they share a few cache lines when a long
    // history does not fit in the cache. The order of stored properties changes no interface.
    /// The transaction identifier of the original purchase; shared by every renewal in a subscription chain.
    public var originalTransactionId: String?
    /// The unique identifier of this transaction.
    public var transactionId: String?
    /// The product identifier of the in-app purchase.
    public var productId: String?
    /// The environment that signed the transaction.
    public var environment: Environment?
    /// The kind of product; Apple's `type`.
    public var type: ProductType?
    /// Whether the customer bought the product or has it through Family Sharing.
    public var inAppOwnershipType: OwnershipType?
    /// When the App Store charged the account (or, for a family member, when access was shared); milliseconds on the wire.
    public var purchaseDate: Date?
    /// When the subscription period ends or renews; milliseconds on the wire.
    public var expiresDate: Date?
    /// When the App Store signed this snapshot; the newest snapshot of a transaction is the truth.
    public var signedDate: Date?
    /// When the App Store refunded or revoked the transaction; milliseconds on the wire.
    public var revocationDate: Date?
    /// Whether the customer upgraded to another subscription in the same group.
    public var isUpgraded: Bool?
    /// The identifier of a subscription purchase event across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The subscription group the product belongs to.
    public var subscriptionGroupIdentifier: String?
    /// The purchase date of the original transaction; milliseconds on the wire.
    public var originalPurchaseDate: Date?
    /// The number of items bought.
    public var quantity: Int32?
    /// The UUID the app set at purchase to name its own user; never on a family member's transaction.
    public var appAccountToken: UUID?
    /// Why the transaction was refunded or revoked, where it was.
    public var revocationReason: RevocationReason?
    /// The kind of offer applied, if any.
    public var offerType: OfferType?
    /// The offer's identifier; present for every offer type but introductory.
    public var offerIdentifier: String?
    /// The three-letter code of the App Store storefront.
    public var storefront: String?
    /// Apple's identifier of the storefront.
    public var storefrontId: String?
    /// Whether this is a purchase or a renewal.
    public var transactionReason: TransactionReason?
    /// The ISO 4217 code of `price`.
    public var currency: String?
    /// The price in milliunits of `currency`, offer discount and quantity included.
    public var price: Int64?
    /// How the offer is paid: a free trial, or a paid offer.
    public var offerDiscountType: OfferDiscountType?
    /// The identifier of the customer's app download, unique per Apple Account and app.
    public var appTransactionId: String?
    /// The offer's duration as ISO 8601, such as `P1M`.
    public var offerPeriod: String?
    /// Whether a revocation was a refund or a Family Sharing revocation (from December 2025).
    public var revocationType: RevocationType?
    /// The refunded share of a prorated refund in milli-percent: 100000 is 100 %.
    public var revocationPercentage: Int32?
    /// The billing plan of a subscription with a commitment, such as `MONTHLY`.
    public var billingPlanType: String?
    /// The commitment of a subscription billed in instalments.
    public var commitmentInfo: TransactionCommitmentInfo?
    /// Advanced Commerce API information, kept as the JSON Apple sent.
    public var advancedCommerceInfo: JSONValue?

    /// Creates a payload; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        quantity: Int32? = nil,
        type: ProductType? = nil,
        appAccountToken: UUID? = nil,
        inAppOwnershipType: OwnershipType? = nil,
        signedDate: Date? = nil,
        revocationReason: RevocationReason? = nil,
        revocationDate: Date? = nil,
        isUpgraded: Bool? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        environment: Environment? = nil,
        storefront: String? = nil,
        storefrontId: String? = nil,
        transactionReason: TransactionReason? = nil,
        currency: String? = nil,
        price: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: RevocationType? = nil,
        revocationPercentage: Int32? = nil,
        billingPlanType: String? = nil,
        commitmentInfo: TransactionCommitmentInfo? = nil,
        advancedCommerceInfo: JSONValue? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
        self.advancedCommerceInfo = advancedCommerceInfo
    }
}

extension TransactionPayload: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId, subscriptionGroupIdentifier,
            purchaseDate, originalPurchaseDate, expiresDate, quantity, type, appAccountToken, inAppOwnershipType,
            signedDate, revocationReason, revocationDate, isUpgraded, offerType, offerIdentifier, environment,
            storefront, storefrontId, transactionReason, currency, price, offerDiscountType, appTransactionId,
            offerPeriod, revocationType, revocationPercentage, billingPlanType, commitmentInfo, advancedCommerceInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        transactionId = try container.decodeIfPresent(String.self, forKey: .transactionId)
        webOrderLineItemId = try container.decodeIfPresent(String.self, forKey: .webOrderLineItemId)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        productId = try container.decodeIfPresent(String.self, forKey: .productId)
        subscriptionGroupIdentifier = try container.decodeIfPresent(String.self, forKey: .subscriptionGroupIdentifier)
        purchaseDate = try container.decodeMillisecondDateIfPresent(forKey: .purchaseDate)
        originalPurchaseDate = try container.decodeMillisecondDateIfPresent(forKey: .originalPurchaseDate)
        expiresDate = try container.decodeMillisecondDateIfPresent(forKey: .expiresDate)
        quantity = try container.decodeIntegerIfPresent(Int32.self, forKey: .quantity)
        type = try container.decodeIfPresent(ProductType.self, forKey: .type)
        appAccountToken = try container.decodeUUIDIfPresent(forKey: .appAccountToken)
        inAppOwnershipType = try container.decodeIfPresent(OwnershipType.self, forKey: .inAppOwnershipType)
        signedDate = try container.decodeMillisecondDateIfPresent(forKey: .signedDate)
        revocationReason = try container.decodeIfPresent(RevocationReason.self, forKey: .revocationReason)
        revocationDate = try container.decodeMillisecondDateIfPresent(forKey: .revocationDate)
        isUpgraded = try container.decodeIfPresent(Bool.self, forKey: .isUpgraded)
        offerType = try container.decodeIfPresent(OfferType.self, forKey: .offerType)
        offerIdentifier = try container.decodeIfPresent(String.self, forKey: .offerIdentifier)
        environment = try container.decodeIfPresent(Environment.self, forKey: .environment)
        storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        storefrontId = try container.decodeIfPresent(String.self, forKey: .storefrontId)
        transactionReason = try container.decodeIfPresent(TransactionReason.self, forKey: .transactionReason)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        price = try container.decodeIntegerIfPresent(Int64.self, forKey: .price)
        offerDiscountType = try container.decodeIfPresent(OfferDiscountType.self, forKey: .offerDiscountType)
        appTransactionId = try container.decodeIfPresent(String.self, forKey: .appTransactionId)
        offerPeriod = try container.decodeIfPresent(String.self, forKey: .offerPeriod)
        revocationType = try container.decodeIfPresent(RevocationType.self, forKey: .revocationType)
        revocationPercentage = try container.decodeIntegerIfPresent(Int32.self, forKey: .revocationPercentage)
        billingPlanType = try container.decodeIfPresent(String.self, forKey: .billingPlanType)
        commitmentInfo = try container.decodeIfPresent(TransactionCommitmentInfo.self, forKey: .commitmentInfo)
        advancedCommerceInfo = try container.decodeIfPresent(JSONValue.self, forKey: .advancedCommerceInfo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        try container.encodeIfPresent(transactionId, forKey: .transactionId)
        try container.encodeIfPresent(webOrderLineItemId, forKey: .webOrderLineItemId)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(productId, forKey: .productId)
        try container.encodeIfPresent(subscriptionGroupIdentifier, forKey: .subscriptionGroupIdentifier)
        try container.encodeMillisecondDateIfPresent(purchaseDate, forKey: .purchaseDate)
        try container.encodeMillisecondDateIfPresent(originalPurchaseDate, forKey: .originalPurchaseDate)
        try container.encodeMillisecondDateIfPresent(expiresDate, forKey: .expiresDate)
        try container.encodeIfPresent(quantity, forKey: .quantity)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeUUIDIfPresent(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(inAppOwnershipType, forKey: .inAppOwnershipType)
        try container.encodeMillisecondDateIfPresent(signedDate, forKey: .signedDate)
        try container.encodeIfPresent(revocationReason, forKey: .revocationReason)
        try container.encodeMillisecondDateIfPresent(revocationDate, forKey: .revocationDate)
        try container.encodeIfPresent(isUpgraded, forKey: .isUpgraded)
        try container.encodeIfPresent(offerType, forKey: .offerType)
        try container.encodeIfPresent(offerIdentifier, forKey: .offerIdentifier)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encodeIfPresent(storefrontId, forKey: .storefrontId)
        try container.encodeIfPresent(transactionReason, forKey: .transactionReason)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(price, forKey: .price)
        try container.encodeIfPresent(offerDiscountType, forKey: .offerDiscountType)
        try container.encodeIfPresent(appTransactionId, forKey: .appTransactionId)
        try container.encodeIfPresent(offerPeriod, forKey: .offerPeriod)
        try container.encodeIfPresent(revocationType, forKey: .revocationType)
        try container.encodeIfPresent(revocationPercentage, forKey: .revocationPercentage)
        try container.encodeIfPresent(billingPlanType, forKey: .billingPlanType)
        try container.encodeIfPresent(commitmentInfo, forKey: .commitmentInfo)
        try container.encodeIfPresent(advancedCommerceInfo, forKey: .advancedCommerceInfo)
    }
}
