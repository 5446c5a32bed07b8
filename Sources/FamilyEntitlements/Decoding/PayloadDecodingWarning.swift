/// Something a decoder set aside without refusing the document, with where and why: never a silent drop.
///
/// `path` names the place in the document, in the form of `PayloadDecodingError.path`
/// (`signedPayload.data.transactionInfo`, `notifications[2].data.renewalInfo`).
public struct PayloadDecodingWarning: LocatedProblem {
    /// What was set aside; an open set, so later versions may add codes.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Decoded contents written beside a signed string of the same kind (`data.transactionInfo` beside
        /// `data.signedTransactionInfo`, `data.renewalInfo` beside `data.signedRenewalInfo`), which Apple never sends:
        /// the contents come from the signed string, and the unsigned ones are ignored.
        public static let unsignedContentsIgnored = Code(rawValue: "unsigned_contents_ignored")
        /// A signed string nested in the document (`data.signedTransactionInfo`, `signedTransactions[2]`, an item's
        /// `signedPayload`) is not a JWS of the payload it should hold: it is kept as sent, as Apple's library keeps
        /// it, and nothing is taken from it, while the document around it is read.
        public static let undecodableSignedString = Code(rawValue: "undecodable_signed_string")
        /// A Get Transaction History page with `hasMore` true, read as a whole history: the transactions of the later
        /// pages (a refund, a revocation, a renewal) are not in it. At path `hasMore`; fetch every page
        /// (`allTransactionHistoryPages`) or absorb each into a `CustomerLedger` to decide on the whole history.
        public static let partialHistory = Code(rawValue: "partial_history")
    }

    /// What was set aside.
    public var code: Code
    /// Where it is in the document.
    public var path: String
    /// What was set aside and why, in words.
    public var message: String

    public init(code: Code, path: String, message: String) {
        (self.code, self.path, self.message) = (code, path, message)
    }

    /// The warning for a nested signed string at `path` that decoding refused with `error`.
    static func undecodable(at path: String, _ error: PayloadDecodingError) -> PayloadDecodingWarning {
        PayloadDecodingWarning(
            code: .undecodableSignedString, path: path,
            message: "the signed string cannot be decoded (\(error)); it is kept as sent and nothing is taken from it")
    }
}
