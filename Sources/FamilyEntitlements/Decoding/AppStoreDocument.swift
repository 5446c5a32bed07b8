#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Any one document this library reads: a decoded payload, a compact JWS of one, or an App Store Server API body.
///
/// `AppStoreDocument(data:)` recognises the kind from the members its kind requires, never from any one member (see
/// `Kind.recognise(_:)`); a document that fits no kind, or more than one, is an `unrecognised_document` error naming
/// the kinds known. Kinds that cannot be told apart by their members (a transaction that carries only `environment`
/// and `signedDate`, say) need `init(data:as:)` with the kind.
public enum AppStoreDocument: Hashable, Sendable {
    case transaction(TransactionPayload)
    case renewalInfo(RenewalInfoPayload)
    case appTransaction(AppTransactionPayload)
    case notification(NotificationPayload)
    case transactionHistory(TransactionHistoryResponse)
    case subscriptionStatuses(SubscriptionStatusesResponse)
    case notificationRequestBody(NotificationRequestBody)
    case transactionInfo(TransactionInfoResponse)
    case notificationHistory(NotificationHistoryResponse)
    case renewalExtension(ExtendRenewalDateResponse)

    /// The kinds of document, for callers who know what they hold; the raw value is the name `entitlements decode`
    /// prints as `kind` and takes with `--kind`.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case transaction, renewalInfo, appTransaction, notification
        case transactionHistory, subscriptionStatuses, notificationRequestBody
        case transactionInfo, notificationHistory, renewalExtension
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
        case .transactionInfo: .transactionInfo
        case .notificationHistory: .notificationHistory
        case .renewalExtension: .renewalExtension
        }
    }

    /// Decodes decoded-payload JSON, an API body, or a compact JWS (unverified), recognising the kind by its keys.
    ///
    /// A `kind` named reads the document as that kind, whatever its keys look like; an API body that lacks a member its
    /// kind always has (`Kind.requiredMembers`, such as `signedTransactions` for `transactionHistory`) is then a
    /// `missing_value` error at that member, never an empty answer.
    public init(data: some DataProtocol, as kind: Kind? = nil) throws(PayloadDecodingError) {
        let bytes = Data(data)
        if Self.isCompactJWS(bytes) {
            let payload = try UnverifiedJWS(compactUTF8: bytes).payloadData
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
            resolved = try Kind.recognise(try Self.topLevelKeys(of: json))
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
        case .transactionInfo: self = .transactionInfo(try TransactionInfoResponse(jsonData: json))
        case .notificationHistory: self = .notificationHistory(try NotificationHistoryResponse(jsonData: json))
        case .renewalExtension: self = .renewalExtension(try ExtendRenewalDateResponse(jsonData: json))
        }
        // A kind recognised has its required members; a kind named must be checked for them, once it has decoded.
        if kind != nil, !resolved.requiredMembers.isEmpty {
            try resolved.refuseMissingRequiredMembers(try Self.topLevelKeys(of: json))
        }
    }

    /// The member names of a top-level JSON object; an error naming what is wrong where the bytes are not one.
    static func topLevelKeys(of json: Data) throws(PayloadDecodingError) -> Set<String> {
        if let names = FastJSON.withContiguousBytes(of: json, FastJSON.topLevelNames(in:)) { return names }
        return try PayloadJSON.decode(TopLevelKeys.self, from: json).keys
    }

    /// Whether the bytes are meant as a compact JWS (bare, or as a JSON string) rather than a JSON object or array:
    /// after a byte order mark and white space, they open no object or array, and they hold a dot.
    ///
    /// Read as bytes, never as characters, so that 100 MB beyond ASCII cost one pass; `UnverifiedJWS` then refuses
    /// them at their first byte beyond ASCII.
    static func isCompactJWS(_ data: Data) -> Bool {
        FastJSON.withContiguousBytes(of: data) { bytes in
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let text = UnsafeBufferPointer(rebasing: bytes[start...])
            let (first, _) = UnverifiedJWS.trimmedRange(of: text)
            guard first < text.count, text[first] != ASCII.openBrace, text[first] != ASCII.openBracket else {
                return false
            }
            return text.contains(ASCII.dot)
        }
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
