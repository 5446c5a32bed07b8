import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoded transactions with realistic defaults, so that a test states only what it is about.
///
/// Every transaction is for `app` (the demo app `org.familyentitlements.demo` in Production unless you pass your own),
/// United States storefront, USD, signed a few seconds after its purchase, with identifiers derived from its inputs.
/// `environment`, where given, overrides the app's. Change anything else on the returned value: `TransactionPayload`
/// is a struct of `var` fields.
public enum TransactionBuilder {
    /// The first transaction of an auto-renewable subscription: a `PURCHASE` whose period starts at `purchaseDate`.
    ///
    /// The period is the product's, or the offer's where the offer covers its own period (a free trial, a payment up
    /// front). A `FAMILY_SHARED` transaction never carries an `appAccountToken`, as Apple sends it.
    public static func subscription(
        _ product: TestProduct = .premiumMonthly,
        purchased purchaseDate: Date,
        ownership: OwnershipType = .purchased,
        offer: Offer? = nil,
        transactionId: String? = nil,
        appAccountToken: UUID? = nil,
        appTransactionId: String? = nil,
        environment: Environment? = nil,
        app: AppUnderTest = .demo
    ) -> TransactionPayload {
        let environment = environment ?? app.environment
        let period = offer?.coversItsPeriod == true ? offer?.period : product.period
        let seed = "\(product.productId)|\(FixtureIdentifier.text(purchaseDate))|\(ownership)|\(environment)"
        let id = transactionId ?? FixtureIdentifier.numeric(seed, prefix: "2")
        var transaction = base(
            product, purchased: purchaseDate, ownership: ownership, transactionId: id, environment: environment,
            bundleId: app.bundleId)
        transaction.webOrderLineItemId = FixtureIdentifier.numeric(seed + "|web", prefix: "3")
        transaction.subscriptionGroupIdentifier = product.subscriptionGroupIdentifier
        transaction.expiresDate = (period ?? ISO8601Duration(months: 1)).added(to: purchaseDate)
        transaction.appAccountToken = ownership == .familyShared ? nil : appAccountToken
        transaction.appTransactionId = appTransactionId
        if let offer { transaction.apply(offer) }
        return transaction
    }

    /// The next transaction of a subscription chain: a `RENEWAL` that starts when `previous` expires, or at `start`.
    ///
    /// It keeps the chain's original transaction, ownership, app, environment, currency and product, unless `product`
    /// names the plan a downgrade renews into; pass `product` for a product of your own, whose period the builder
    /// cannot otherwise know (a month is assumed). Without an offer a USD renewal is paid at the product's full price;
    /// another currency keeps the previous price. `start` is for a renewal after a gap: billing recovered at `start`
    /// after `previous` expired and Apple retried billing, so the new period runs from `start` (with
    /// `NotificationBuilder.didRenew(_:billingRecovery:)`, the `DID_RENEW BILLING_RECOVERY` Apple sends).
    public static func renewal(
        of previous: TransactionPayload,
        into product: TestProduct? = nil,
        offer: Offer? = nil,
        transactionId: String? = nil,
        startingAt start: Date? = nil
    ) -> TransactionPayload {
        let start = start ?? previous.expiresDate ?? previous.purchaseDate ?? Date(timeIntervalSince1970: 0)
        let productId = product?.productId ?? ProductID(previous.productId ?? "")
        let known = product ?? DemoProduct.named(productId)
        let seed = "\(productId)|\(FixtureIdentifier.text(start))|\(previous.transactionId ?? "")|renewal"
        var transaction = previous
        transaction.transactionId = transactionId ?? FixtureIdentifier.numeric(seed, prefix: "2")
        transaction.webOrderLineItemId = FixtureIdentifier.numeric(seed + "|web", prefix: "3")
        transaction.productId = productId.rawValue
        transaction.subscriptionGroupIdentifier =
            known?.subscriptionGroupIdentifier
            ?? previous.subscriptionGroupIdentifier
        transaction.purchaseDate = start
        let period = offer?.coversItsPeriod == true ? offer?.period : known?.period
        transaction.expiresDate = (period ?? ISO8601Duration(months: 1)).added(to: start)
        transaction.transactionReason = .renewal
        transaction.signedDate = start.addingTimeInterval(signingDelay)
        if previous.currency == DemoApp.currency, let known { transaction.price = known.price }
        transaction.offerType = nil
        transaction.offerIdentifier = nil
        transaction.offerDiscountType = nil
        transaction.offerPeriod = nil
        transaction.isUpgraded = nil
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        transaction.revocationType = nil
        transaction.revocationPercentage = nil
        if let offer { transaction.apply(offer) }
        return transaction
    }

    /// A one-time purchase: a non-consumable, a consumable or a non-renewing subscription, by the product's type.
    ///
    /// It has no expiry: Apple sends none for these types. Only non-consumables may be `FAMILY_SHARED`.
    public static func oneTime(
        _ product: TestProduct = .stickers,
        purchased purchaseDate: Date,
        ownership: OwnershipType = .purchased,
        transactionId: String? = nil,
        appAccountToken: UUID? = nil,
        appTransactionId: String? = nil,
        environment: Environment? = nil,
        app: AppUnderTest = .demo
    ) -> TransactionPayload {
        let environment = environment ?? app.environment
        let seed = "\(product.productId)|\(FixtureIdentifier.text(purchaseDate))|\(ownership)|\(environment)"
        var transaction = base(
            product, purchased: purchaseDate, ownership: ownership,
            transactionId: transactionId ?? FixtureIdentifier.numeric(seed, prefix: "2"), environment: environment,
            bundleId: app.bundleId)
        transaction.appAccountToken = ownership == .familyShared ? nil : appAccountToken
        transaction.appTransactionId = appTransactionId
        return transaction
    }

    /// The snapshot Apple signs after a refund: the same transaction with `revocationDate` and its cause.
    ///
    /// `type` nil writes an older payload, from before Apple added `revocationType` in December 2025.
    public static func refunded(
        _ transaction: TransactionPayload, at date: Date, reason: RevocationReason = .otherReason,
        type: RevocationType? = .refundFull
    ) -> TransactionPayload {
        var snapshot = resigned(transaction, at: date)
        snapshot.revocationDate = date
        snapshot.revocationReason = reason
        snapshot.revocationType = type
        return snapshot
    }

    /// The snapshot Apple signs after the reversal of a refund: the transaction without revocation.
    public static func refundReversed(_ transaction: TransactionPayload, at date: Date) -> TransactionPayload {
        var snapshot = resigned(transaction, at: date)
        snapshot.revocationDate = nil
        snapshot.revocationReason = nil
        snapshot.revocationType = nil
        snapshot.revocationPercentage = nil
        return snapshot
    }

    /// The snapshot of a transaction that an upgrade replaced at `date`: `isUpgraded` true.
    public static func upgraded(_ transaction: TransactionPayload, at date: Date) -> TransactionPayload {
        var snapshot = resigned(transaction, at: date)
        snapshot.isUpgraded = true
        return snapshot
    }

    /// The same transaction signed again at `date`, as a later notification or API response carries it.
    public static func resigned(_ transaction: TransactionPayload, at date: Date) -> TransactionPayload {
        var snapshot = transaction
        snapshot.signedDate = date
        return snapshot
    }

    /// How long after its purchase a built transaction is signed.
    static let signingDelay: TimeInterval = 3

    private static func base(
        _ product: TestProduct, purchased purchaseDate: Date, ownership: OwnershipType, transactionId: String,
        environment: Environment, bundleId: String
    ) -> TransactionPayload {
        TransactionPayload(
            originalTransactionId: transactionId, transactionId: transactionId, bundleId: bundleId,
            productId: product.productId.rawValue, purchaseDate: purchaseDate, originalPurchaseDate: purchaseDate,
            quantity: 1,
            type: product.type, inAppOwnershipType: ownership,
            signedDate: purchaseDate.addingTimeInterval(signingDelay), environment: environment,
            storefront: DemoApp.storefront, storefrontId: DemoApp.storefrontId, transactionReason: .purchase,
            currency: DemoApp.currency, price: product.price)
    }
}

extension TransactionBuilder {
    /// An offer applied to a subscription transaction: its type, identifier, discount, duration and the price paid.
    ///
    /// `price` is what the customer paid for this transaction, in milliunits of USD: 0 for a free trial.
    public struct Offer: Hashable, Sendable {
        /// Apple's `offerType`.
        public var type: OfferType
        /// Apple's `offerIdentifier`; absent for introductory offers.
        public var identifier: String?
        /// Apple's `offerDiscountType`.
        public var discountType: OfferDiscountType?
        /// Apple's `offerPeriod`: the whole duration of the offer.
        public var period: ISO8601Duration?
        /// The price of the transaction under the offer, in milliunits.
        public var price: Int64

        public init(
            type: OfferType, identifier: String? = nil, discountType: OfferDiscountType? = nil,
            period: ISO8601Duration? = nil, price: Int64
        ) {
            self.type = type
            self.identifier = identifier
            self.discountType = discountType
            self.period = period
            self.price = price
        }

        /// A free trial: an introductory offer with `FREE_TRIAL`, price 0.
        public static func freeTrial(_ period: ISO8601Duration = ISO8601Duration(weeks: 1)) -> Offer {
            Offer(type: .introductory, discountType: .freeTrial, period: period, price: 0)
        }

        /// A paid introductory offer, which is never a trial: `PAY_AS_YOU_GO` by default.
        public static func introductory(
            price: Int64, period: ISO8601Duration = ISO8601Duration(months: 3),
            discountType: OfferDiscountType = .payAsYouGo
        ) -> Offer {
            Offer(type: .introductory, discountType: discountType, period: period, price: price)
        }

        /// A promotional offer.
        public static func promotional(
            _ identifier: String, price: Int64, period: ISO8601Duration = ISO8601Duration(months: 1)
        ) -> Offer {
            Offer(type: .promotional, identifier: identifier, discountType: .payAsYouGo, period: period, price: price)
        }

        /// An offer code.
        public static func offerCode(
            _ identifier: String, price: Int64, period: ISO8601Duration = ISO8601Duration(months: 3),
            discountType: OfferDiscountType = .payUpFront
        ) -> Offer {
            Offer(type: .offerCode, identifier: identifier, discountType: discountType, period: period, price: price)
        }

        /// A win-back offer, for a customer whose subscription had expired.
        public static func winBack(
            _ identifier: String = "org.familyentitlements.demo.winback.halfprice", price: Int64 = 2490,
            period: ISO8601Duration = ISO8601Duration(months: 1)
        ) -> Offer {
            Offer(type: .winBack, identifier: identifier, discountType: .payAsYouGo, period: period, price: price)
        }

        /// Whether one transaction covers the whole offer period (a free trial, a payment up front).
        var coversItsPeriod: Bool { discountType == .freeTrial || discountType == .payUpFront }
    }
}

extension TransactionPayload {
    fileprivate mutating func apply(_ offer: TransactionBuilder.Offer) {
        offerType = offer.type
        offerIdentifier = offer.identifier
        offerDiscountType = offer.discountType
        offerPeriod = offer.period?.description
        price = offer.price
    }
}
