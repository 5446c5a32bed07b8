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
    private static let fastJSONFields = FastJSONFields<CodingKeys>()

    static var empty: Self { Self(fieldsAbsent: ()) }

    /// Every field absent: each optional stored property starts as nil (see `TransactionPayload`'s).
    private init(fieldsAbsent: ()) {}

    static func decodeFastJSON(
        from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        try reader.readMembers(fastJSONFields) { key, reader throws(PayloadDecodingError) in
            switch key {
            case .originalTransactionId: value.originalTransactionId = try reader.readString()
            case .webOrderLineItemId: value.webOrderLineItemId = try reader.readString()
            case .success: value.success = try reader.readBool()
            case .effectiveDate: value.effectiveDate = try reader.readDate()
            }
        }
    }
}
