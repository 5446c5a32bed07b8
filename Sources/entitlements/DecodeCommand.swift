import FamilyEntitlements
import Foundation

/// `entitlements decode FILE|-`: prints the normalised values of one App Store document as JSON.
enum DecodeCommand {
    static func run(_ arguments: [String]) throws {
        var path: String?
        var limit = Input.defaultLimit
        var kind: AppStoreDocument.Kind?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--max-input-bytes" {
                guard let value = remaining.popFirst() else { throw UsageError("--max-input-bytes needs a value") }
                limit = try Input.parseLimit(value)
            } else if argument == "--kind" {
                guard let value = remaining.popFirst() else { throw UsageError("--kind needs a value") }
                kind = try DocumentKind.parse(value)
            } else {
                guard path == nil, argument == "-" || !argument.hasPrefix("-") else {
                    throw UsageError("decode takes exactly one FILE, or - for standard input")
                }
                path = argument
            }
        }
        guard let path else { throw UsageError("decode takes exactly one FILE, or - for standard input") }
        let data = try Input.read(path, limit: limit)
        let document = try DocumentKind.decode { () throws(PayloadDecodingError) in
            try AppStoreDocument(data: data, as: kind)
        }
        let output = DecodedOutput(document)
        let isCompactJWS = data.first(where: { !Character(UnicodeScalar($0)).isWhitespace }) != UInt8(ascii: "{")
        if output.containsUnverifiedSignatures || isCompactJWS {
            Output.error("entitlements: note: JWS signatures were NOT verified; contents are shown as sent")
        }
        for warning in output.warnings {
            Output.error("entitlements: warning: \(warning)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try Output.print(TerminalText.escapedJSON(String(decoding: try encoder.encode(output), as: UTF8.self)))
    }
}

/// The normalised form `decode` prints: the document's kind, the document, and what its signed strings hold.
struct DecodedOutput: Encodable {
    var kind: String
    var document: AppStoreDocument
    var transactions: [TransactionPayload]?
    var renewalInfos: [RenewalInfoPayload]?
    var notification: NotificationPayload?
    var notifications: [NotificationPayload]?
    var signaturesVerified = false
    var containsUnverifiedSignatures: Bool
    /// What decoding set aside (printed on standard error, not in the JSON).
    var warnings: [PayloadDecodingWarning] = []

    /// The document and what its signed strings hold; a nested string that cannot be decoded is reported in
    /// `warnings` with its path, and the rest is shown.
    init(_ document: AppStoreDocument) {
        self.kind = document.kind.rawValue
        self.document = document
        containsUnverifiedSignatures = true
        switch document {
        case .notification(let value):
            warnings = value.unsignedContentsBesideSignedStrings
            self.document = .notification(value.decodingNestedPayloadsUnverified(reportingFailuresIn: &warnings))
        case .transactionHistory(let value):
            transactions = value.decodeTransactionsUnverified(reportingFailuresIn: &warnings)
        case .subscriptionStatuses(let value):
            let decoded = value.decodeLastTransactionsUnverified(reportingFailuresIn: &warnings)
            transactions = decoded.transactions
            renewalInfos = decoded.renewalInfos
        case .notificationRequestBody(let value):
            notification = value.decodeNotificationUnverified(reportingFailuresIn: &warnings)
        case .transactionInfo(let value):
            transactions = [value.decodeTransactionUnverified(reportingFailuresIn: &warnings)].compactMap { $0 }
        case .notificationHistory(let value):
            notifications = value.decodeNotificationsUnverified(reportingFailuresIn: &warnings)
        case .transaction, .renewalInfo, .appTransaction, .renewalExtension:
            containsUnverifiedSignatures = false
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind, document, transactions, renewalInfos, notification, notifications, signaturesVerified
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch document {
        case .transaction(let value): try container.encode(value, forKey: .document)
        case .renewalInfo(let value): try container.encode(value, forKey: .document)
        case .appTransaction(let value): try container.encode(value, forKey: .document)
        case .notification(let value): try container.encode(value, forKey: .document)
        case .transactionHistory(let value): try container.encode(value, forKey: .document)
        case .subscriptionStatuses(let value): try container.encode(value, forKey: .document)
        case .notificationRequestBody(let value): try container.encode(value, forKey: .document)
        case .transactionInfo(let value): try container.encode(value, forKey: .document)
        case .notificationHistory(let value): try container.encode(value, forKey: .document)
        case .renewalExtension(let value): try container.encode(value, forKey: .document)
        }
        try container.encodeIfPresent(transactions, forKey: .transactions)
        try container.encodeIfPresent(renewalInfos, forKey: .renewalInfos)
        try container.encodeIfPresent(notification, forKey: .notification)
        try container.encodeIfPresent(notifications, forKey: .notifications)
        try container.encode(signaturesVerified, forKey: .signaturesVerified)
    }
}

/// The names `--kind` takes: exactly those `decode` prints as `kind`.
enum DocumentKind {
    static let names = AppStoreDocument.Kind.allCases.map(\.rawValue).joined(separator: ", ")

    static func parse(_ text: String) throws(UsageError) -> AppStoreDocument.Kind {
        guard let kind = AppStoreDocument.Kind(rawValue: text) else {
            throw UsageError("--kind takes one of \(names), not \"\(TerminalText.escaped(text))\"")
        }
        return kind
    }

    /// Runs `body`, adding to a document it cannot classify how to name the kind.
    static func decode<T>(_ body: () throws(PayloadDecodingError) -> T) throws(PayloadDecodingError) -> T {
        do {
            return try body()
        } catch  where error.code == .unrecognisedDocument && error.message.contains("name the kind") {
            var error = error
            error.message += " (pass --kind NAME)"
            throw error
        }
    }
}
