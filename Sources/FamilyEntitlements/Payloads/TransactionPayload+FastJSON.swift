#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a decoded transaction and its commitment, member for member as `init(from:)` reads them.
extension TransactionPayload {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension TransactionPayload: FastJSONDecodable {
    /// The fields, with the order Apple writes them in (as in Apple's sample payloads).
    static let fastJSONFields = FastJSONFields<CodingKeys>(
        wireOrder: [
            .transactionId, .originalTransactionId, .webOrderLineItemId, .bundleId, .productId,
            .subscriptionGroupIdentifier, .purchaseDate, .originalPurchaseDate, .expiresDate, .quantity,
            .type, .appAccountToken, .inAppOwnershipType, .signedDate, .revocationReason, .revocationDate,
            .isUpgraded, .offerType, .offerIdentifier, .environment, .transactionReason, .storefront,
            .storefrontId, .price, .currency, .offerDiscountType, .appTransactionId, .offerPeriod,
            .revocationType, .revocationPercentage, .advancedCommerceInfo, .billingPlanType, .commitmentInfo,
        ])

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .originalTransactionId: value.originalTransactionId = try reader.readString()
        case .transactionId: value.transactionId = try reader.readString()
        case .webOrderLineItemId: value.webOrderLineItemId = try reader.readString()
        case .bundleId: value.bundleId = try reader.readString()
        case .productId: value.productId = try reader.readString()
        case .subscriptionGroupIdentifier: value.subscriptionGroupIdentifier = try reader.readString()
        case .purchaseDate: value.purchaseDate = try reader.readDate()
        case .originalPurchaseDate: value.originalPurchaseDate = try reader.readDate()
        case .expiresDate: value.expiresDate = try reader.readDate()
        case .quantity: value.quantity = try reader.readInt32()
        case .type: value.type = try reader.readValue(ProductType.self)
        case .appAccountToken: value.appAccountToken = try reader.readUUID()
        case .inAppOwnershipType: value.inAppOwnershipType = try reader.readValue(OwnershipType.self)
        case .signedDate: value.signedDate = try reader.readDate()
        case .revocationReason: value.revocationReason = try reader.readValue(RevocationReason.self)
        case .revocationDate: value.revocationDate = try reader.readDate()
        case .isUpgraded: value.isUpgraded = try reader.readBool()
        case .offerType: value.offerType = try reader.readValue(OfferType.self)
        case .offerIdentifier: value.offerIdentifier = try reader.readString()
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .storefront: value.storefront = try reader.readString()
        case .storefrontId: value.storefrontId = try reader.readString()
        case .transactionReason: value.transactionReason = try reader.readValue(TransactionReason.self)
        case .currency: value.currency = try reader.readString()
        case .price: value.price = try reader.readInt64()
        case .offerDiscountType: value.offerDiscountType = try reader.readValue(OfferDiscountType.self)
        case .appTransactionId: value.appTransactionId = try reader.readString()
        case .offerPeriod: value.offerPeriod = try reader.readString()
        case .revocationType: value.revocationType = try reader.readValue(RevocationType.self)
        case .revocationPercentage: value.revocationPercentage = try reader.readInt32()
        case .billingPlanType: value.billingPlanType = try reader.readString()
        case .commitmentInfo: value.commitmentInfo = try reader.readNested(TransactionCommitmentInfo.self)
        case .advancedCommerceInfo: value.advancedCommerceInfo = try reader.readJSONValue()
        }
    }
}

extension TransactionCommitmentInfo: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .billingPeriodNumber: value.billingPeriodNumber = try reader.readInt32()
        case .commitmentExpiresDate: value.commitmentExpiresDate = try reader.readDate()
        case .commitmentPrice: value.commitmentPrice = try reader.readInt64()
        case .totalBillingPeriods: value.totalBillingPeriods = try reader.readInt32()
        }
    }
}
