/// Which user account each Apple purchase belongs to: `originalTransactionId` -> the user's `AppAccountToken`.
///
/// A plain value the service stores wherever it likes. A restore or a first launch asks to link a purchase to the
/// signed-in user; `decide(_:)` answers without changing anything and `link(_:)` applies the answer. A purchase linked
/// to one user is never moved to another by a link request: that is an `account_token_mismatch` conflict, and only an
/// explicit `unlink(originalTransactionId:)` frees it. Family members are linked by the `originalTransactionId` of
/// their own `FAMILY_SHARED` transaction, which carries no `appAccountToken` of the purchaser.
public struct AccountLinks: Hashable, Sendable {
    /// The owner of each linked `originalTransactionId`.
    public private(set) var owners: [OriginalTransactionID: AppAccountToken]

    /// Links as stored; empty by default.
    public init(owners: [OriginalTransactionID: AppAccountToken] = [:]) {
        self.owners = owners
    }

    /// The user a purchase is linked to, if any.
    public func owner(of originalTransactionId: OriginalTransactionID) -> AppAccountToken? {
        owners[originalTransactionId]
    }

    /// The purchases linked to a user, sorted.
    public func originalTransactionIds(of user: AppAccountToken) -> [OriginalTransactionID] {
        owners.filter { $0.value == user }.keys.sorted()
    }

    /// What linking the request would do, without changing the links.
    ///
    /// A conflict arises when the purchase is already linked to another user, or when the user bought it themselves
    /// (`PURCHASED`) and the transaction's `appAccountToken` names another user. A `FAMILY_SHARED` transaction's
    /// `appAccountToken` is not compared: Apple does not set one for family members.
    public func decide(_ request: AccountLinkRequest) -> AccountLinkDecision {
        if let owner = owners[request.originalTransactionId] {
            if owner == request.user { return .alreadyLinked }
            return .conflict(
                AccountLinkConflict(
                    originalTransactionId: request.originalTransactionId, owner: owner, requestingUser: request.user,
                    message: "originalTransactionId \(request.originalTransactionId) is linked to user \(owner), "
                        + "not to \(request.user); it is not moved"))
        }
        if request.ownership != .familyShared, let token = request.transactionAppAccountToken, token != request.user {
            return .conflict(
                AccountLinkConflict(
                    originalTransactionId: request.originalTransactionId, owner: token, requestingUser: request.user,
                    message: "originalTransactionId \(request.originalTransactionId) was bought with "
                        + "appAccountToken \(token), not \(request.user)"))
        }
        return .link(originalTransactionId: request.originalTransactionId, user: request.user)
    }

    /// Decides the request and, when the answer is `.link`, records the link.
    @discardableResult
    public mutating func link(_ request: AccountLinkRequest) -> AccountLinkDecision {
        let decision = decide(request)
        if case .link(let originalTransactionId, let user) = decision {
            owners[originalTransactionId] = user
        }
        return decision
    }

    /// Removes a purchase's link, returning its former owner; the explicit step before linking it to someone else.
    @discardableResult
    public mutating func unlink(originalTransactionId: OriginalTransactionID) -> AppAccountToken? {
        owners.removeValue(forKey: originalTransactionId)
    }
}

/// Links read from and written to JSON: `AccountLinks(jsonData:)` checks the bytes with the library's strict reader
/// before decoding them, and `jsonData()` writes them with sorted keys.
extension AccountLinks: AppStorePayload {}

extension AccountLinks: Codable {
    /// Decodes the JSON object `{"originalTransactionId": "appAccountToken", ...}`; prefer `init(jsonData:)`, which
    /// checks untrusted bytes before Foundation's parser sees them.
    public init(from decoder: any Decoder) throws {
        owners = try decoder.singleValueContainer().decode([OriginalTransactionID: AppAccountToken].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(owners)
    }
}
