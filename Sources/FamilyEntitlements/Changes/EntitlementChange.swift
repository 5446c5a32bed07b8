/// What changed for a customer between two reports: a value a service acts on (a silent push, a new ETag, a
/// cache entry dropped), from `EntitlementReport.changes(from:)`.
///
/// Changes compare what a customer may use: each entitlement's access, and each product's access, state, willRenew
/// and replacement. Evidence, dates, prices and diagnostics are not compared: a renewal that only moves an expiry is
/// no change here.
public enum EntitlementChange: Hashable, Sendable, CustomStringConvertible {
    /// The entitlement is unlocked now and was not before.
    case entitlementGranted(EntitlementID)
    /// The entitlement was unlocked before and is not now.
    case entitlementLost(EntitlementID)
    /// The product of a subscription chain gave way to another product of the same chain (the same
    /// originalTransactionId): an upgrade, a crossgrade, or a downgrade that took effect. The product lost access
    /// and the other one gained it; the customer keeps access through the chain.
    case productReplaced(ProductID, by: ProductID, originalTransactionId: OriginalTransactionID)
    /// The product gave access before and does not now, for this cause.
    case accessLost(ProductID, cause: AccessLossCause)
    /// The product gives access now, in this state (`active` or `gracePeriod`), and did not before.
    case accessGranted(ProductID, state: AccessState)
    /// The product's state changed without changing access: `active` to `gracePeriod`, `expired` to `revoked`.
    case stateChanged(ProductID, from: AccessState, to: AccessState)
    /// Whether the subscription will renew changed (nil: unknown, or a product that does not renew).
    case willRenewChanged(ProductID, from: Bool?, to: Bool?)

    /// The entitlement the change concerns, for an entitlement change.
    public var entitlementId: EntitlementID? {
        switch self {
        case .entitlementGranted(let id), .entitlementLost(let id): id
        default: nil
        }
    }

    /// The product the change concerns (the replaced one, for a replacement), for a product change.
    public var productId: ProductID? {
        switch self {
        case .entitlementGranted, .entitlementLost: nil
        case .productReplaced(let id, _, _), .accessLost(let id, _), .accessGranted(let id, _),
            .stateChanged(let id, _, _), .willRenewChanged(let id, _, _):
            id
        }
    }

    /// Whether the change takes access away: an entitlement or a product's access lost.
    public var takesAccessAway: Bool {
        switch self {
        case .entitlementLost, .accessLost: true
        default: false
        }
    }

    /// `entitlement_granted`, `entitlement_lost`, `product_replaced`, `access_lost`, `access_granted`,
    /// `state_changed` or `will_renew_changed`, for logs and metrics.
    public var code: String {
        switch self {
        case .entitlementGranted: "entitlement_granted"
        case .entitlementLost: "entitlement_lost"
        case .productReplaced: "product_replaced"
        case .accessLost: "access_lost"
        case .accessGranted: "access_granted"
        case .stateChanged: "state_changed"
        case .willRenewChanged: "will_renew_changed"
        }
    }

    public var description: String {
        switch self {
        case .entitlementGranted(let id): "entitlement \(id.rawValue) granted"
        case .entitlementLost(let id): "entitlement \(id.rawValue) lost"
        case .productReplaced(let id, let replacement, let original):
            "\(id.rawValue) replaced by \(replacement.rawValue) (original transaction \(original.rawValue))"
        case .accessLost(let id, let cause): "\(id.rawValue) lost access: \(cause)"
        case .accessGranted(let id, let state): "\(id.rawValue) granted access: \(state.rawValue)"
        case .stateChanged(let id, let from, let to): "\(id.rawValue) \(from.rawValue) -> \(to.rawValue)"
        case .willRenewChanged(let id, let from, let to):
            "\(id.rawValue) willRenew \(Self.text(from)) -> \(Self.text(to))"
        }
    }

    private static func text(_ value: Bool?) -> String { value.map { "\($0)" } ?? "unknown" }
}

/// Why a product that gave access no longer does.
public enum AccessLossCause: Hashable, Sendable, CustomStringConvertible {
    /// The App Store revoked it: a refund, Family Sharing ended (a member or the purchaser left, sharing was turned
    /// off), an assignment withdrawn, or a cause the payload does not state.
    case revoked(RevocationCause)
    /// The renewal failed and the App Store retries billing.
    case billingRetry
    /// The last period (or the grace period) ended and nothing renews it.
    case expired
    /// Another product of the subscription group replaced it, and no product of the same chain gained access.
    case upgraded
    /// The data no longer says how long access lasts.
    case undetermined
    /// The report no longer names the product (a rebuild with another catalog or environment).
    case notReported

    /// The cause of a product leaving an access-granting state for `state`; nil for a state that grants.
    init?(_ decision: ProductDecision) {
        switch decision.state {
        case .active, .gracePeriod: return nil
        case .revoked: self = .revoked(decision.revocationCause ?? .unknown)
        case .billingRetry: self = .billingRetry
        case .expired: self = .expired
        case .upgraded: self = .upgraded
        case .undetermined: self = .undetermined
        }
    }

    public var description: String {
        switch self {
        case .revoked(let cause): "revoked (\(cause.rawValue))"
        case .billingRetry: "billing retry"
        case .expired: "expired"
        case .upgraded: "upgraded"
        case .undetermined: "undetermined"
        case .notReported: "no longer reported"
        }
    }
}

extension EntitlementReport {
    /// What changed since `previous`, the report the service stored before (nil when it stored none: every
    /// entitlement and product that grants now is then granted).
    ///
    /// The order is fixed, so that the same two reports always give the same list:
    /// 1. entitlement changes, by entitlement id: `entitlementLost` or `entitlementGranted`;
    /// 2. product changes, by product id, and for one product in this order: `productReplaced`, `accessLost`,
    ///    `accessGranted` or `stateChanged` (at most one of the three), then `willRenewChanged`.
    ///
    /// A product that loses access while another product of the same chain (the same originalTransactionId) gains it
    /// is `productReplaced` by that one, in place of `accessLost`; the product that replaces it has its own
    /// `accessGranted`. A product named by only one of the reports changes
    /// only where it grants: `accessGranted` when it appears, `accessLost` (`notReported`) when it disappears.
    ///
    /// It costs n log n for n products and entitlements: a lookup by id per product, and a sort of the entitlement
    /// ids (and of the product ids where a report's products are not sorted by id, as the rebuild sorts them).
    public func changes(from previous: EntitlementReport?) -> [EntitlementChange] {
        entitlementChanges(from: previous) + productChanges(from: previous)
    }

    private func entitlementChanges(from previous: EntitlementReport?) -> [EntitlementChange] {
        let ids = Array(entitlements.keys) + (previous?.entitlements.keys.filter { entitlements[$0] == nil } ?? [])
        return ids.sorted().compactMap { id in
            let before = previous?.hasAccess(to: id) ?? false
            let now = hasAccess(to: id)
            if before == now { return nil }
            return now ? .entitlementGranted(id) : .entitlementLost(id)
        }
    }

    /// One lookup per product: each report's decisions by product id, and the product of each chain that gained
    /// access, found in one pass each; the ids merged in one more pass, or sorted where a list is not sorted.
    private func productChanges(from previous: EntitlementReport?) -> [EntitlementChange] {
        let previousProducts = previous?.products ?? []
        let positions = Self.firstPositions(products)
        let previousPositions = Self.firstPositions(previousProducts)
        let gains = Self.gains(products, previous: previousProducts, at: previousPositions)
        let ids =
            Self.mergedIds(products, previousProducts)
            ?? (Array(positions.keys) + previousPositions.keys.filter { positions[$0] == nil }).sorted()
        return ids.flatMap { id in
            changes(
                of: id, before: previousPositions[id].map { previousProducts[$0] },
                now: positions[id].map { products[$0] }, gains: gains)
        }
    }

    /// The product ids of two lists, sorted, each once, in one pass where each list is sorted by product id without a
    /// repeat, as the rebuild writes them; nil where one is not.
    private static func mergedIds(_ products: [ProductDecision], _ others: [ProductDecision]) -> [ProductID]? {
        func isSorted(_ list: [ProductDecision]) -> Bool {
            zip(list, list.dropFirst()).allSatisfy { $0.productId < $1.productId }
        }
        guard isSorted(products), isSorted(others) else { return nil }
        var ids: [ProductID] = []
        ids.reserveCapacity(products.count + others.count)
        var (index, other) = (0, 0)
        while index < products.count || other < others.count {
            guard index < products.count else {
                ids.append(others[other].productId)
                other += 1
                continue
            }
            guard other < others.count else {
                ids.append(products[index].productId)
                index += 1
                continue
            }
            let (id, otherId) = (products[index].productId, others[other].productId)
            ids.append(min(id, otherId))
            if id <= otherId { index += 1 }
            if otherId <= id { other += 1 }
        }
        return ids
    }

    /// The position of each product id's decision in the list: the first where it is named twice, as
    /// `decision(for:)` finds it.
    private static func firstPositions(_ products: [ProductDecision]) -> [ProductID: Int] {
        var positions: [ProductID: Int] = [:]
        positions.reserveCapacity(products.count)
        for (position, product) in products.enumerated() where positions[product.productId] == nil {
            positions[product.productId] = position
        }
        return positions
    }

    /// The product of each chain (originalTransactionId) that gained access since `previous`: the first of the list
    /// (which is by product id) where several did, granting now and not in `previous`.
    ///
    /// It replaces any product of its chain that lost access: never itself, for a product that lost access had it in
    /// `previous` and so did not gain it.
    private static func gains(
        _ products: [ProductDecision], previous: [ProductDecision], at positions: [ProductID: Int]
    ) -> [OriginalTransactionID: ProductID] {
        var gains: [OriginalTransactionID: ProductID] = [:]
        for product in products
        where product.hasAccess && !(positions[product.productId].map { previous[$0].hasAccess } ?? false) {
            if gains[product.originalTransactionId] == nil {
                gains[product.originalTransactionId] = product.productId
            }
        }
        return gains
    }

    private func changes(
        of id: ProductID, before: ProductDecision?, now: ProductDecision?,
        gains: [OriginalTransactionID: ProductID]
    ) -> [EntitlementChange] {
        guard let now else {
            guard let before, before.hasAccess else { return [] }
            return [.accessLost(id, cause: .notReported)]
        }
        guard let before else {
            return now.hasAccess ? [.accessGranted(id, state: now.state)] : []
        }
        var changes: [EntitlementChange] = []
        if before.hasAccess && !now.hasAccess, let replacement = gains[now.originalTransactionId] {
            changes.append(.productReplaced(id, by: replacement, originalTransactionId: now.originalTransactionId))
        } else if before.hasAccess && !now.hasAccess, let cause = AccessLossCause(now) {
            changes.append(.accessLost(id, cause: cause))
        } else if !before.hasAccess && now.hasAccess {
            changes.append(.accessGranted(id, state: now.state))
        } else if before.state != now.state {
            changes.append(.stateChanged(id, from: before.state, to: now.state))
        }
        if before.willRenew != now.willRenew {
            changes.append(.willRenewChanged(id, from: before.willRenew, to: now.willRenew))
        }
        return changes
    }
}
