#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of renewal information and its commitment, member for member as `init(from:)` reads them.
extension RenewalInfoPayload {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension RenewalInfoPayload: FastJSONDecodable {
    /// The fields, with the order Apple writes them in (as in Apple's sample payloads).
    static let fastJSONFields = FastJSONFields<CodingKeys>(
        wireOrder: [
            .expirationIntent, .originalTransactionId, .autoRenewProductId, .productId, .autoRenewStatus,
            .isInBillingRetryPeriod, .priceIncreaseStatus, .gracePeriodExpiresDate, .offerType,
            .offerIdentifier, .signedDate, .environment, .recentSubscriptionStartDate, .renewalDate,
            .renewalPrice, .currency, .offerDiscountType, .eligibleWinBackOfferIds, .appTransactionId,
            .offerPeriod, .appAccountToken, .advancedCommerceInfo, .commitmentInfo, .renewalBillingPlanType,
        ])

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .originalTransactionId: value.originalTransactionId = try reader.readString()
        case .productId: value.productId = try reader.readString()
        case .autoRenewProductId: value.autoRenewProductId = try reader.readString()
        case .autoRenewStatus: value.autoRenewStatus = try reader.readValue(AutoRenewStatus.self)
        case .expirationIntent: value.expirationIntent = try reader.readValue(ExpirationIntent.self)
        case .isInBillingRetryPeriod: value.isInBillingRetryPeriod = try reader.readBool()
        case .gracePeriodExpiresDate: value.gracePeriodExpiresDate = try reader.readDate()
        case .priceIncreaseStatus: value.priceIncreaseStatus = try reader.readValue(PriceIncreaseStatus.self)
        case .offerType: value.offerType = try reader.readValue(OfferType.self)
        case .offerIdentifier: value.offerIdentifier = try reader.readString()
        case .offerDiscountType: value.offerDiscountType = try reader.readValue(OfferDiscountType.self)
        case .offerPeriod: value.offerPeriod = try reader.readString()
        case .signedDate: value.signedDate = try reader.readDate()
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .recentSubscriptionStartDate: value.recentSubscriptionStartDate = try reader.readDate()
        case .renewalDate: value.renewalDate = try reader.readDate()
        case .currency: value.currency = try reader.readString()
        case .renewalPrice: value.renewalPrice = try reader.readInt64()
        case .eligibleWinBackOfferIds: value.eligibleWinBackOfferIds = try reader.readStringArray()
        case .appAccountToken: value.appAccountToken = try reader.readUUID()
        case .appTransactionId: value.appTransactionId = try reader.readString()
        case .renewalBillingPlanType: value.renewalBillingPlanType = try reader.readString()
        case .commitmentInfo: value.commitmentInfo = try reader.readNested(RenewalCommitmentInfo.self)
        case .advancedCommerceInfo: value.advancedCommerceInfo = try reader.readJSONValue()
        }
    }
}

extension RenewalCommitmentInfo: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .commitmentAutoRenewProductId: value.commitmentAutoRenewProductId = try reader.readString()
        case .commitmentAutoRenewStatus:
            value.commitmentAutoRenewStatus =
                try reader.readValue(AutoRenewStatus.self)
        case .commitmentRenewalBillingPlanType: value.commitmentRenewalBillingPlanType = try reader.readString()
        case .commitmentRenewalDate: value.commitmentRenewalDate = try reader.readDate()
        case .commitmentRenewalPrice: value.commitmentRenewalPrice = try reader.readInt64()
        }
    }
}
