#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a V2 notification and the objects it holds, member for member as `init(from:)` reads them.
extension NotificationPayload {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
    }
}

extension NotificationPayload: FastJSONDecodable {
    /// The fields, with the order Apple writes them in (as in Apple's sample payloads).
    static let fastJSONFields = FastJSONFields<CodingKeys>(
        wireOrder: [
            .notificationType, .subtype, .notificationUUID, .data, .version, .signedDate, .summary,
            .externalPurchaseToken, .appData,
        ])

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .notificationType: value.notificationType = try reader.readValue(NotificationType.self)
        case .subtype: value.subtype = try reader.readValue(NotificationSubtype.self)
        case .notificationUUID: value.notificationUUID = try reader.readString()
        case .version: value.version = try reader.readString()
        case .signedDate: value.signedDate = try reader.readDate()
        case .data: value.data = try reader.readNested(NotificationData.self)
        case .summary: value.summary = try reader.readNested(NotificationSummary.self)
        case .externalPurchaseToken:
            value.externalPurchaseToken = try reader.readNested(ExternalPurchaseToken.self)
        case .appData: value.appData = try reader.readNested(NotificationAppData.self)
        }
    }
}

extension NotificationData: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .bundleId: value.bundleId = try reader.readString()
        case .bundleVersion: value.bundleVersion = try reader.readString()
        case .signedTransactionInfo: value.signedTransactionInfo = try reader.readString()
        case .signedRenewalInfo: value.signedRenewalInfo = try reader.readString()
        case .transactionInfo: value.transactionInfo = try reader.readNested(TransactionPayload.self)
        case .renewalInfo: value.renewalInfo = try reader.readNested(RenewalInfoPayload.self)
        case .status: value.status = try reader.readValue(SubscriptionStatus.self)
        case .consumptionRequestReason:
            value.consumptionRequestReason =
                try reader.readValue(ConsumptionRequestReason.self)
        }
    }
}

extension NotificationSummary: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .requestIdentifier: value.requestIdentifier = try reader.readString()
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .bundleId: value.bundleId = try reader.readString()
        case .productId: value.productId = try reader.readString()
        case .storefrontCountryCodes: value.storefrontCountryCodes = try reader.readStringArray()
        case .failedCount: value.failedCount = try reader.readInt64()
        case .succeededCount: value.succeededCount = try reader.readInt64()
        }
    }
}

extension ExternalPurchaseToken: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .externalPurchaseId: value.externalPurchaseId = try reader.readString()
        case .tokenCreationDate: value.tokenCreationDate = try reader.readDate()
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .bundleId: value.bundleId = try reader.readString()
        }
    }
}

extension NotificationAppData: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) {}

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .appAppleId: value.appAppleId = try reader.readInt64()
        case .bundleId: value.bundleId = try reader.readString()
        case .environment: value.environment = try reader.readValue(Environment.self)
        case .signedAppTransactionInfo: value.signedAppTransactionInfo = try reader.readString()
        }
    }
}
