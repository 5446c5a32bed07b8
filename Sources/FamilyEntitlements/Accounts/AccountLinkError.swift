/// A request about account links that cannot be decided, with what was wrong.
public struct AccountLinkError: Error, CodedProblem {
    /// What was wrong; an open set, so later versions may add codes.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An `appAccountToken` that is not a UUID.
        public static let invalidAppAccountToken = Code(rawValue: "invalid_app_account_token")
        /// A transaction without `originalTransactionId`, which is what links are made of.
        public static let missingOriginalTransactionId = Code(rawValue: "missing_original_transaction_id")
    }

    /// What was wrong.
    public var code: Code
    /// What was wrong, in words, naming the token or transaction.
    public var message: String

    public init(code: Code, message: String) {
        (self.code, self.message) = (code, message)
    }
}
