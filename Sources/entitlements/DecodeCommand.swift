import FamilyEntitlements
import Foundation

/// `entitlements decode FILE|-`: prints the normalised values of one App Store document as JSON.
enum DecodeCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let limit = try arguments.value("--max-input-bytes", as: ByteLimit.self)?.bytes ?? Input.defaultLimit
        let kindArgument = try arguments.value("--kind", as: DocumentKindArgument.self)
        if kindArgument?.isLedger == true {
            throw UsageError("decode prints App Store documents; a ledger is read by rebuild, explain and reconcile")
        }
        let kind = kindArgument?.kind
        guard let path = arguments.positionals.first else {
            throw UsageError("decode takes one FILE, or - for standard input")
        }
        let data = try Input.read(path, limit: limit)
        let document = try DocumentKind.decode { () throws(PayloadDecodingError) in
            try AppStoreDocument(data: data, as: kind)
        }
        let output = DecodedOutput(document)
        // The notice is for documents that held a JWS: a compact JWS, or a body whose signed strings were decoded.
        let first = data.first { !Input.isJSONWhitespace($0) }
        let isCompactJWS = first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
        if output.decodedSignedStrings || isCompactJWS {
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
    /// Whether the document held signed strings that were decoded without verification.
    var decodedSignedStrings: Bool
    /// What decoding set aside (printed on standard error, not in the JSON).
    var warnings: [PayloadDecodingWarning] = []

    /// The document and what its signed strings hold; a nested string that cannot be decoded is reported in
    /// `warnings` with its path, and the rest is shown.
    init(_ document: AppStoreDocument) {
        self.kind = document.kind.rawValue
        self.document = document
        switch document {
        case .notification(let value):
            decodedSignedStrings = value.data?.signedTransactionInfo != nil || value.data?.signedRenewalInfo != nil
            warnings = value.unsignedContentsBesideSignedStrings
            self.document = .notification(value.decodingNestedPayloadsUnverified(reportingFailuresIn: &warnings))
        case .transactionHistory(let value):
            decodedSignedStrings = !(value.signedTransactions ?? []).isEmpty
            transactions = value.decodeTransactionsUnverified(reportingFailuresIn: &warnings)
        case .subscriptionStatuses(let value):
            decodedSignedStrings = (value.data ?? []).contains { !($0.lastTransactions ?? []).isEmpty }
            let decoded = value.decodeLastTransactionsUnverified(reportingFailuresIn: &warnings)
            transactions = decoded.transactions
            renewalInfos = decoded.renewalInfos
        case .notificationRequestBody(let value):
            decodedSignedStrings = value.signedPayload != nil
            notification = value.decodeNotificationUnverified(reportingFailuresIn: &warnings)
        case .transactionInfo(let value):
            decodedSignedStrings = value.signedTransactionInfo != nil
            transactions = [value.decodeTransactionUnverified(reportingFailuresIn: &warnings)].compactMap { $0 }
        case .notificationHistory(let value):
            decodedSignedStrings = !(value.notificationHistory ?? []).isEmpty
            notifications = value.decodeNotificationsUnverified(reportingFailuresIn: &warnings)
        case .transaction, .renewalInfo, .appTransaction, .renewalExtension:
            decodedSignedStrings = false
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
