#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The renewal of a commitment; Apple's renewal-info `commitmentInfo`.
public struct RenewalCommitmentInfo: Hashable, Sendable {
    /// The product the commitment renews into.
    public var commitmentAutoRenewProductId: String?
    /// Whether the commitment renews.
    public var commitmentAutoRenewStatus: AutoRenewStatus?
    /// The billing plan of the renewed commitment.
    public var commitmentRenewalBillingPlanType: String?
    /// When the commitment renews; milliseconds on the wire.
    public var commitmentRenewalDate: Date?
    /// The price of the renewed commitment in milliunits.
    public var commitmentRenewalPrice: Int64?

    /// Creates a payload; every field defaults to absent.
    public init(
        commitmentAutoRenewProductId: String? = nil,
        commitmentAutoRenewStatus: AutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: String? = nil,
        commitmentRenewalDate: Date? = nil,
        commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}

extension RenewalCommitmentInfo: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case commitmentAutoRenewProductId, commitmentAutoRenewStatus, commitmentRenewalBillingPlanType,
            commitmentRenewalDate, commitmentRenewalPrice
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        commitmentAutoRenewProductId = try container.decodeIfPresent(String.self, forKey: .commitmentAutoRenewProductId)
        commitmentAutoRenewStatus = try container.decodeIfPresent(
            AutoRenewStatus.self, forKey: .commitmentAutoRenewStatus)
        commitmentRenewalBillingPlanType = try container.decodeIfPresent(
            String.self, forKey: .commitmentRenewalBillingPlanType)
        commitmentRenewalDate = try container.decodeMillisecondDateIfPresent(forKey: .commitmentRenewalDate)
        commitmentRenewalPrice = try container.decodeIntegerIfPresent(Int64.self, forKey: .commitmentRenewalPrice)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(commitmentAutoRenewProductId, forKey: .commitmentAutoRenewProductId)
        try container.encodeIfPresent(commitmentAutoRenewStatus, forKey: .commitmentAutoRenewStatus)
        try container.encodeIfPresent(commitmentRenewalBillingPlanType, forKey: .commitmentRenewalBillingPlanType)
        try container.encodeMillisecondDateIfPresent(commitmentRenewalDate, forKey: .commitmentRenewalDate)
        try container.encodeIfPresent(commitmentRenewalPrice, forKey: .commitmentRenewalPrice)
    }
}
