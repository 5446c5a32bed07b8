/// A request to link one Apple purchase to the signed-in user, made on a restore or a first launch.
public struct AccountLinkRequest: Hashable, Sendable {
    /// The purchase; Apple's `originalTransactionId` of the user's own transaction (a family member's own copy).
    public var originalTransactionId: OriginalTransactionID
    /// The signed-in user making the request.
    public var user: AppAccountToken
    /// The transaction's `appAccountToken`: the user the app named at purchase, if any.
    public var transactionAppAccountToken: AppAccountToken?
    /// The transaction's `inAppOwnershipType`.
    public var ownership: OwnershipType?

    public init(
        originalTransactionId: OriginalTransactionID,
        user: AppAccountToken,
        transactionAppAccountToken: AppAccountToken? = nil,
        ownership: OwnershipType? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.user = user
        self.transactionAppAccountToken = transactionAppAccountToken
        self.ownership = ownership
    }

    /// The request for a verified transaction; throws when it has no `originalTransactionId`.
    public init(transaction: TransactionPayload, user: AppAccountToken) throws(AccountLinkError) {
        guard let originalTransactionId = transaction.originalTransactionId, !originalTransactionId.isEmpty else {
            throw AccountLinkError(
                code: .missingOriginalTransactionId,
                message: "transaction \(transaction.transactionId ?? "without transactionId") has no "
                    + "originalTransactionId to link")
        }
        self.init(
            originalTransactionId: OriginalTransactionID(originalTransactionId), user: user,
            transactionAppAccountToken: transaction.appAccountToken.map(AppAccountToken.init),
            ownership: transaction.inAppOwnershipType)
    }
}
