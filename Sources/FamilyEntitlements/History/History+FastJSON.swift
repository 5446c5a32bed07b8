#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of the library's history file, member for member as `init(from:)` reads it.
extension History {
    /// Decodes `{"transactions": [...], "renewalInfos": [...], "notifications": [...], "subscriptionStatuses": [...]}`
    /// (every key optional, and no other: an unknown key is `unknown_key` naming it) in one pass, with the same
    /// results as `JSONDecoder` (see `AppStorePayload`); errors name the JSON path, such as `transactions[3].price`.
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
        try UnknownKeys.refuse(AppStoreDocument.topLevelKeys(of: Data(jsonData)), known: Self.keyNames, of: "a history")
    }

    /// The same, where the document's top-level keys were already read: they are not read again.
    init(jsonData: some DataProtocol, topLevelKeys: Set<String>) throws(PayloadDecodingError) {
        try self.init(fastJSONData: jsonData)
        try UnknownKeys.refuse(topLevelKeys, known: Self.keyNames, of: "a history")
    }

    /// Decodes a bare JSON array of decoded transactions in one pass, as strictly as a history object; errors name
    /// the element, such as `[3].price`.
    static func transactions(jsonArray data: some DataProtocol) throws(PayloadDecodingError) -> [TransactionPayload] {
        var transactions: [TransactionPayload] = []
        let outcome = FastJSON.withContiguousBytes(of: data) { bytes in
            FastJSON.decodeArray(from: bytes, into: &transactions)
        }
        if case .decoded = outcome { return transactions }
        return try FastJSON.settle(outcome) { () throws(PayloadDecodingError) in
            try PayloadJSON.decode([TransactionPayload].self, from: Data(data))
        }
    }
}

extension History: FastJSONDecodable {
    static let fastJSONFields = FastJSONFields<CodingKeys>()

    init(fieldsAbsent: ()) { self.init() }

    static func readFastJSONMember(
        _ key: CodingKeys, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        switch key {
        case .transactions: value.transactions = try reader.readArray(of: TransactionPayload.self) ?? []
        case .renewalInfos: value.renewalInfos = try reader.readArray(of: RenewalInfoPayload.self) ?? []
        case .notifications: value.notifications = try reader.readArray(of: NotificationPayload.self) ?? []
        case .subscriptionStatuses:
            value.subscriptionStatuses = try reader.readArray(of: SubscriptionStatusSnapshot.self) ?? []
        }
    }
}
