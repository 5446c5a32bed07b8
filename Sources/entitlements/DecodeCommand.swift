import FamilyEntitlements
import Foundation

/// `entitlements decode FILE|-`: prints the normalised values of one App Store document as JSON.
enum DecodeCommand {
    static func run(_ arguments: [String]) throws {
        var path: String?
        var limit = Input.defaultLimit
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--max-input-bytes" {
                guard let value = remaining.popFirst() else { throw UsageError("--max-input-bytes needs a value") }
                limit = try Input.parseLimit(value)
            } else {
                guard path == nil, argument == "-" || !argument.hasPrefix("-") else {
                    throw UsageError("decode takes exactly one FILE, or - for standard input")
                }
                path = argument
            }
        }
        guard let path else { throw UsageError("decode takes exactly one FILE, or - for standard input") }
        let data = try Input.read(path, limit: limit)
        let document = try AppStoreDocument(data: data)
        let output = try DecodedOutput(document)
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
    var signaturesVerified = false
    var containsUnverifiedSignatures: Bool
    /// What decoding set aside (printed on standard error, not in the JSON).
    var warnings: [PayloadDecodingWarning] = []

    init(_ document: AppStoreDocument) throws(PayloadDecodingError) {
        self.kind = document.kind.rawValue
        self.document = document
        containsUnverifiedSignatures = true
        switch document {
        case .notification(let value):
            warnings = value.unsignedContentsBesideSignedStrings
            self.document = .notification(try value.decodingNestedPayloadsUnverified())
        case .transactionHistory(let value):
            transactions = try value.decodeTransactionsUnverified()
        case .subscriptionStatuses(let value):
            let decoded = try value.decodeLastTransactionsUnverified()
            transactions = decoded.transactions
            renewalInfos = decoded.renewalInfos
        case .notificationRequestBody(let value):
            notification = try value.decodeNotificationUnverified()
            if let signedPayload = value.signedPayload {
                let received = try decodeUnverifiedJWS(signedPayload, as: NotificationPayload.self, at: "signedPayload")
                warnings = received.unsignedContentsBesideSignedStrings.map { $0.nested(under: "signedPayload") }
            }
        case .transaction, .renewalInfo, .appTransaction:
            containsUnverifiedSignatures = false
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind, document, transactions, renewalInfos, notification, signaturesVerified
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
        }
        try container.encodeIfPresent(transactions, forKey: .transactions)
        try container.encodeIfPresent(renewalInfos, forKey: .renewalInfos)
        try container.encodeIfPresent(notification, forKey: .notification)
        try container.encode(signaturesVerified, forKey: .signaturesVerified)
    }
}
