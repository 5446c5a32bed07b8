/// The answer to an `AccountLinkRequest`.
public enum AccountLinkDecision: Hashable, Sendable {
    /// Record this new link.
    case link(originalTransactionId: OriginalTransactionID, user: AppAccountToken)
    /// The purchase is already linked to this user; nothing changes.
    case alreadyLinked
    /// The purchase belongs to another user; answer the client with `conflict.code` (`account_token_mismatch`).
    case conflict(AccountLinkConflict)
}
