/// A purchase that a user asked to link but that belongs to another user.
///
/// Answer the client with `code`; never move the purchase silently. A replayed restore from another account lands here.
public struct AccountLinkConflict: Error, CodedProblem {
    /// The kind of conflict; an open set.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The purchase belongs to another user's account token.
        public static let accountTokenMismatch = Code(rawValue: "account_token_mismatch")
    }

    /// The kind of conflict; `account_token_mismatch`.
    public var code: Code
    /// The purchase asked for.
    public var originalTransactionId: OriginalTransactionID
    /// The user the purchase belongs to.
    public var owner: AppAccountToken
    /// The user who asked.
    public var requestingUser: AppAccountToken
    /// What happened, in words, naming the transaction.
    public var message: String

    public init(
        code: Code = .accountTokenMismatch,
        originalTransactionId: OriginalTransactionID,
        owner: AppAccountToken,
        requestingUser: AppAccountToken,
        message: String
    ) {
        self.code = code
        self.originalTransactionId = originalTransactionId
        self.owner = owner
        self.requestingUser = requestingUser
        self.message = message
    }
}
