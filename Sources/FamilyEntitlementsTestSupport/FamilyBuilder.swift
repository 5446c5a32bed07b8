import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Family Sharing group on one subscription, built as one `History` per person: the organiser's and each member's.
///
/// The organiser buys `product` and renews it for `periods` periods; each member's `FAMILY_SHARED` copy arrives
/// `sharingDelay` after the purchase (Apple delays it; members a minute apart), then renews with the organiser. Members have transactions
/// and app transaction ids of their own and no `appAccountToken`, as Apple sends them. Events end sharing:
/// a member leaving, sharing stopped, the purchaser refunded; nothing is renewed for a person after their event.
/// Every payload is for `app`, the demo app unless you pass your own.
public struct FamilyBuilder: Hashable, Sendable {
    /// The shared subscription.
    public var product: TestProduct
    /// When the organiser bought it.
    public var purchaseDate: Date
    /// How many members share it, from 1 to 5.
    public var memberCount: Int
    /// How many paid periods the organiser has had, the first purchase included.
    public var periods: Int
    /// How long after the purchase a member's shared copy arrives.
    public var sharingDelay: TimeInterval
    /// The environment of every payload: the one given to `init`, else the app's.
    public var environment: Environment
    /// The app of every payload.
    public var app: AppUnderTest
    private var events: [Event] = []

    private enum Event: Hashable, Sendable {
        case memberLeaves(Int, Date, NotificationBuilder.Revocation)
        case sharingStopped(Date, NotificationBuilder.Revocation)
        case purchaserRefunded(Date, RevocationReason, NotificationBuilder.Revocation)
    }

    /// A family of the organiser and `members` members; a family is at most six people.
    public init(
        product: TestProduct = .premiumMonthly, purchased purchaseDate: Date, members: Int = 5, periods: Int = 1,
        sharingDelay: TimeInterval = 3600, environment: Environment? = nil, app: AppUnderTest = .demo
    ) {
        precondition((1...5).contains(members), "a family shares with one to five members besides the organiser")
        precondition(periods >= 1, "a subscription has at least its first period")
        self.product = product
        self.purchaseDate = purchaseDate
        self.memberCount = members
        self.periods = periods
        self.sharingDelay = sharingDelay
        self.environment = environment ?? app.environment
        self.app = app
    }

    /// Member `member` (1 for the first) leaves the family at `date` and receives a `REVOKE`.
    public func memberLeaves(
        _ member: Int, at date: Date, _ revocation: NotificationBuilder.Revocation = .withoutRevocationDate
    ) -> FamilyBuilder {
        precondition((1...memberCount).contains(member), "member \(member) is not in a family of \(memberCount)")
        var copy = self
        copy.events.append(.memberLeaves(member, date, revocation))
        return copy
    }

    /// The organiser stops sharing the subscription at `date`: every member receives a `REVOKE`.
    public func sharingStopped(
        at date: Date, _ revocation: NotificationBuilder.Revocation = .familyRevoke
    ) -> FamilyBuilder {
        var copy = self
        copy.events.append(.sharingStopped(date, revocation))
        return copy
    }

    /// Apple refunds the organiser at `date`: the organiser receives a `REFUND`, every member a `REVOKE` that
    /// carries the purchaser's `reason`, as `memberRevocation` describes (`REFUND_FULL` by default).
    public func purchaserRefunded(
        at date: Date, reason: RevocationReason = .appIssue, memberRevocation: NotificationBuilder.Revocation? = nil
    ) -> FamilyBuilder {
        var copy = self
        copy.events.append(.purchaserRefunded(date, reason, memberRevocation ?? .purchaserRefund(reason)))
        return copy
    }

    /// The organiser's history and each member's.
    public func build() -> FamilyHistories {
        let seed = "family|\(product.productId)|\(FixtureIdentifier.text(purchaseDate))"
        var chain = [
            TransactionBuilder.subscription(
                product, purchased: purchaseDate, appAccountToken: FixtureIdentifier.uuid(seed + "|token"),
                appTransactionId: FixtureIdentifier.numeric(seed + "|app|0", prefix: "7"), environment: environment,
                app: app)
        ]
        while chain.count < periods, let last = chain.last {
            chain.append(TransactionBuilder.renewal(of: last, into: product))
        }
        let refund = events.lazy.compactMap { event -> (date: Date, reason: RevocationReason)? in
            if case .purchaserRefunded(let date, let reason, _) = event { return (date, reason) }
            return nil
        }.first
        let organiserChain = chain.filter { ($0.purchaseDate ?? purchaseDate) < refund?.date ?? .distantFuture }
        var organiser = organiserChain.enumerated().map { index, transaction in
            index == 0
                ? NotificationBuilder.subscribed(transaction, app: app)
                : NotificationBuilder.didRenew(transaction, app: app)
        }
        if let refund, let refunded = organiserChain.last {
            organiser.append(NotificationBuilder.refund(refunded, at: refund.date, reason: refund.reason, app: app))
        }
        let members = (1...memberCount).map { member in
            History(notifications: memberNotifications(member, chain: chain, seed: seed))
        }
        return FamilyHistories(organiser: History(notifications: organiser), members: members)
    }

    private func memberNotifications(_ member: Int, chain: [TransactionPayload], seed: String)
        -> [NotificationPayload]
    {
        let end = endOfSharing(for: member)
        let firstPurchase = purchaseDate.addingTimeInterval(sharingDelay + Double(member - 1) * 60)
        let appTransactionId = FixtureIdentifier.numeric(seed + "|app|\(member)", prefix: "7")
        var copies: [TransactionPayload] = []
        for (index, transaction) in chain.enumerated() {
            let start = index == 0 ? firstPurchase : transaction.purchaseDate ?? firstPurchase
            guard start < end?.date ?? .distantFuture else { break }
            var copy = transaction
            copy.transactionId = FixtureIdentifier.numeric(seed + "|member|\(member)|\(index)", prefix: "2")
            copy.originalTransactionId = copies.first?.transactionId ?? copy.transactionId
            copy.webOrderLineItemId = FixtureIdentifier.numeric(seed + "|member|\(member)|\(index)|web", prefix: "3")
            copy.purchaseDate = start
            copy.originalPurchaseDate = firstPurchase
            copy.signedDate = start.addingTimeInterval(TransactionBuilder.signingDelay)
            copy.inAppOwnershipType = .familyShared
            copy.appAccountToken = nil
            copy.appTransactionId = appTransactionId
            copies.append(copy)
        }
        var notifications = copies.enumerated().map { index, transaction in
            index == 0
                ? NotificationBuilder.subscribed(transaction, app: app)
                : NotificationBuilder.didRenew(transaction, app: app)
        }
        if let end, let last = copies.last {
            notifications.append(NotificationBuilder.revoke(last, at: end.date, end.revocation, app: app))
        }
        return notifications
    }

    /// The first event that ends sharing for a member, if any.
    private func endOfSharing(for member: Int) -> (date: Date, revocation: NotificationBuilder.Revocation)? {
        events.compactMap { event -> (date: Date, revocation: NotificationBuilder.Revocation)? in
            switch event {
            case .memberLeaves(let number, let date, let revocation): number == member ? (date, revocation) : nil
            case .sharingStopped(let date, let revocation): (date, revocation)
            case .purchaserRefunded(let date, _, let revocation): (date, revocation)
            }
        }.min { $0.date < $1.date }
    }
}
