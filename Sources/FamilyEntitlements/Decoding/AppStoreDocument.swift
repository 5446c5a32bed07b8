#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Any one document this library reads: a decoded payload, a compact JWS of one, or an App Store Server API body.
///
/// `AppStoreDocument(data:)` recognises the kind from the JSON keys present. Kinds that cannot be told apart by their
/// keys (a transaction that carries only `environment` and `signedDate`, say) need `decode(_:as:)` with the kind.
public enum AppStoreDocument: Hashable, Sendable {
    case transaction(TransactionPayload)
    case renewalInfo(RenewalInfoPayload)
    case appTransaction(AppTransactionPayload)
    case notification(NotificationPayload)
    case transactionHistory(TransactionHistoryResponse)
    case subscriptionStatuses(SubscriptionStatusesResponse)
    case notificationRequestBody(NotificationRequestBody)

    /// The kinds of document, for callers who know what they hold.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case transaction, renewalInfo, appTransaction, notification
        case transactionHistory, subscriptionStatuses, notificationRequestBody
    }

    /// The kind of this document.
    public var kind: Kind {
        switch self {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .appTransaction: .appTransaction
        case .notification: .notification
        case .transactionHistory: .transactionHistory
        case .subscriptionStatuses: .subscriptionStatuses
        case .notificationRequestBody: .notificationRequestBody
        }
    }

    /// Decodes decoded-payload JSON, an API body, or a compact JWS (unverified), recognising the kind by its keys.
    public init(data: some DataProtocol, as kind: Kind? = nil) throws(PayloadDecodingError) {
        let bytes = Data(data)
        if let jws = Self.compactJWS(in: bytes) {
            let payload = try UnverifiedJWS(compact: jws).payloadData
            self = try Self(json: payload, as: kind)
        } else {
            self = try Self(json: bytes, as: kind)
        }
    }

    private init(json: Data, as kind: Kind?) throws(PayloadDecodingError) {
        let resolved: Kind
        if let kind {
            resolved = kind
        } else {
            resolved = try Self.recognise(try Self.topLevelKeys(of: json))
        }
        switch resolved {
        case .transaction: self = .transaction(try TransactionPayload(jsonData: json))
        case .renewalInfo: self = .renewalInfo(try RenewalInfoPayload(jsonData: json))
        case .appTransaction: self = .appTransaction(try AppTransactionPayload(jsonData: json))
        case .notification: self = .notification(try NotificationPayload(jsonData: json))
        case .transactionHistory: self = .transactionHistory(try TransactionHistoryResponse(jsonData: json))
        case .subscriptionStatuses: self = .subscriptionStatuses(try SubscriptionStatusesResponse(jsonData: json))
        case .notificationRequestBody:
            self = .notificationRequestBody(try NotificationRequestBody(jsonData: json))
        }
    }

    /// The member names of a top-level JSON object; an error naming what is wrong where the bytes are not one.
    static func topLevelKeys(of json: Data) throws(PayloadDecodingError) -> Set<String> {
        if let names = FastJSON.withContiguousBytes(of: json, FastJSON.topLevelNames(in:)) { return names }
        return try PayloadJSON.decode(TopLevelKeys.self, from: json).keys
    }

    /// The text of a compact JWS when the bytes are one (bare, or as a JSON string), else nil.
    static func compactJWS(in data: Data) -> String? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        var trimmed = Substring(text).trimmingWhitespace()
        if trimmed.first == "{" || trimmed.first == "[" { return nil }
        if trimmed.count >= 2, trimmed.first == "\"", trimmed.last == "\"" {
            trimmed = trimmed.dropFirst().dropLast()
        }
        return trimmed.contains(".") ? String(trimmed) : nil
    }

    static func recognise(_ keys: Set<String>) throws(PayloadDecodingError) -> Kind {
        func any(_ names: String...) -> Bool { names.contains(where: keys.contains) }
        if any("signedPayload") { return .notificationRequestBody }
        if any("signedTransactions") { return .transactionHistory }
        if any("notificationType", "notificationUUID") { return .notification }
        if any("receiptType", "applicationVersion", "originalApplicationVersion") { return .appTransaction }
        if any("data"), any("bundleId", "appAppleId", "environment") { return .subscriptionStatuses }
        if any("transactionId", "purchaseDate", "inAppOwnershipType", "type", "transactionReason", "webOrderLineItemId")
        {
            return .transaction
        }
        if any("autoRenewStatus", "autoRenewProductId", "renewalDate", "isInBillingRetryPeriod", "expirationIntent") {
            return .renewalInfo
        }
        throw PayloadDecodingError(
            code: .unrecognisedDocument, path: "",
            message: "cannot tell which kind of App Store document this is from its keys "
                + "(\(keys.sorted().joined(separator: ", "))); name the kind explicitly")
    }
}

/// The keys of a top-level JSON object.
struct TopLevelKeys: Decodable {
    var keys: Set<String>

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        keys = Set(try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
    }
}
