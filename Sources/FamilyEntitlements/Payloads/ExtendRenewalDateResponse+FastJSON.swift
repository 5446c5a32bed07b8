#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of an Extend a Subscription Renewal Date body, member for member as `init(from:)` reads it.
extension ExtendRenewalDateResponse {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension ExtendRenewalDateResponse: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .originalTransactionId: value.originalTransactionId = try reader.readString()
        case .webOrderLineItemId: value.webOrderLineItemId = try reader.readString()
        case .success: value.success = try reader.readBool()
        case .effectiveDate: value.effectiveDate = try reader.readDate()
        }
    }
}
