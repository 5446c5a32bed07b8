/// The body of Get Transaction Info; Apple's
/// [TransactionInfoResponse](https://developer.apple.com/documentation/appstoreserverapi/transactioninforesponse).
public struct TransactionInfoResponse: Hashable, Sendable {
    /// The transaction, as a JWS signed on its own; Apple's `signedTransactionInfo`.
    public var signedTransactionInfo: String?

    /// Creates a payload; every field defaults to absent.
    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}

extension TransactionInfoResponse: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case signedTransactionInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signedTransactionInfo = try container.decodeIfPresent(String.self, forKey: .signedTransactionInfo)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(signedTransactionInfo, forKey: .signedTransactionInfo)
    }
}
