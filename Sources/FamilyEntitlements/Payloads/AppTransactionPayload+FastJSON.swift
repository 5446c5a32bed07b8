#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of an app transaction, member for member as `init(from:)` reads it.
extension AppTransactionPayload {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension AppTransactionPayload: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .receiptType: value.receiptType = try reader.readValue(Environment.self)
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .bundleId: value.bundleId = try reader.readString()
        case .applicationVersion: value.applicationVersion = try reader.readString()
        case .versionExternalIdentifier: value.versionExternalIdentifier = try reader.readInt64()
        case .receiptCreationDate: value.receiptCreationDate = try reader.readDate()
        case .originalPurchaseDate: value.originalPurchaseDate = try reader.readDate()
        case .originalApplicationVersion: value.originalApplicationVersion = try reader.readString()
        case .deviceVerification: value.deviceVerification = try reader.readString()
        case .deviceVerificationNonce: value.deviceVerificationNonce = try reader.readUUID()
        case .preorderDate: value.preorderDate = try reader.readDate()
        case .appTransactionId: value.appTransactionId = try reader.readString()
        case .originalPlatform: value.originalPlatform = try reader.readString()
        }
    }
}
