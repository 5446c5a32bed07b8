#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The commitment of a subscription billed in instalments; Apple's transaction `commitmentInfo`.
public struct TransactionCommitmentInfo: Hashable, Sendable {
    /// Which billing period of the commitment this transaction pays.
    public var billingPeriodNumber: Int32?
    /// When the commitment ends; milliseconds on the wire.
    public var commitmentExpiresDate: Date?
    /// The price of the whole commitment in milliunits.
    public var commitmentPrice: Int64?
    /// How many billing periods the commitment has.
    public var totalBillingPeriods: Int32?

    /// Creates a payload; every field defaults to absent.
    public init(
        billingPeriodNumber: Int32? = nil,
        commitmentExpiresDate: Date? = nil,
        commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int32? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}

extension TransactionCommitmentInfo: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case billingPeriodNumber, commitmentExpiresDate, commitmentPrice, totalBillingPeriods
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        billingPeriodNumber = try container.decodeIntegerIfPresent(Int32.self, forKey: .billingPeriodNumber)
        commitmentExpiresDate = try container.decodeMillisecondDateIfPresent(forKey: .commitmentExpiresDate)
        commitmentPrice = try container.decodeIntegerIfPresent(Int64.self, forKey: .commitmentPrice)
        totalBillingPeriods = try container.decodeIntegerIfPresent(Int32.self, forKey: .totalBillingPeriods)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(billingPeriodNumber, forKey: .billingPeriodNumber)
        try container.encodeMillisecondDateIfPresent(commitmentExpiresDate, forKey: .commitmentExpiresDate)
        try container.encodeIfPresent(commitmentPrice, forKey: .commitmentPrice)
        try container.encodeIfPresent(totalBillingPeriods, forKey: .totalBillingPeriods)
    }
}
