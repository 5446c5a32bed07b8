#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The body of Extend a Subscription Renewal Date; Apple's
/// [ExtendRenewalDateResponse](https://developer.apple.com/documentation/appstoreserverapi/extendrenewaldateresponse).
///
/// It says whether one subscription's renewal date moved and to when; it carries no signed transaction, so a service
/// reads the new expiry from the transaction Apple sends next (a `RENEWAL_EXTENDED` notification).
public struct ExtendRenewalDateResponse: Hashable, Sendable {
    /// The original transaction identifier of the subscription; Apple's `originalTransactionId`.
    public var originalTransactionId: String?
    /// The subscription period's purchase event identifier; Apple's `webOrderLineItemId`.
    public var webOrderLineItemId: String?
    /// Whether the renewal date was extended; Apple's
    /// [success](https://developer.apple.com/documentation/appstoreserverapi/success).
    public var success: Bool?
    /// The new renewal date, in milliseconds since 1970 on the wire; Apple's
    /// [effectiveDate](https://developer.apple.com/documentation/appstoreserverapi/effectivedate).
    public var effectiveDate: Date?

    /// Creates a payload; every field defaults to absent.
    public init(
        originalTransactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        success: Bool? = nil,
        effectiveDate: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}

extension ExtendRenewalDateResponse: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, webOrderLineItemId, success, effectiveDate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try container.decodeIfPresent(String.self, forKey: .originalTransactionId)
        webOrderLineItemId = try container.decodeIfPresent(String.self, forKey: .webOrderLineItemId)
        success = try container.decodeIfPresent(Bool.self, forKey: .success)
        effectiveDate = try container.decodeMillisecondDateIfPresent(forKey: .effectiveDate)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(originalTransactionId, forKey: .originalTransactionId)
        try container.encodeIfPresent(webOrderLineItemId, forKey: .webOrderLineItemId)
        try container.encodeIfPresent(success, forKey: .success)
        try container.encodeMillisecondDateIfPresent(effectiveDate, forKey: .effectiveDate)
    }
}
