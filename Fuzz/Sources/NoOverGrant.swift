import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The no-over-grant property, checked from the history alone without the rebuild's code: a product may be granted at
/// an instant only where a trusted snapshot of one of its transactions, signed by the instant, shows a period that
/// covers the instant, or a grace period from a trusted renewal info of the chain's newest transaction.
///
/// Written to be read, not to be fast or complete: it checks only what grants, so it never asks for a grant, and where
/// the rules leave a choice it takes the one that grants more (so that it fails only on a real over-grant).
///
/// - Which snapshot counts: of each transaction (and each chain's renewal infos), the newest signed by the instant,
///   every one tied at that signedDate for renewal infos and any one of them for transactions (the rebuild settles a
///   tie of transaction snapshots by their JSON). A nested snapshot without signedDate counts as signed with its
///   notification (or the other nested payload, where the notification has no date), as rule 1 places it, and any
///   other snapshot without one as signed at the beginning of time; the rebuild, which lets the one that grants less
///   win where an undated snapshot meets a dated one, grants no more. Where none is signed by the instant, any
///   snapshot signed later may count: an audit of a past instant often has nothing else.
/// - Trusted: of the rebuild's environment, with a transactionId, an originalTransactionId, a non-empty productId and a
///   purchaseDate. A newer snapshot of another environment or none is the one that counts, and it grants nothing.
/// - Possible: purchased by the instant, expiry after purchase, quantity at least 1 and price not negative where
///   given, every date finite and from the App Store's opening (2008-07-10) to the end of 9999, and no revocation
///   after the snapshot's own signedDate. A transaction carried by a notification whose own signedDate lies outside
///   that range is not trusted in any snapshot.
/// - Revoked: by the counted snapshot's revocationDate, or by a REVOKE notification of the environment (its data and
///   its transaction) without revocationDate for the chain, signed from the purchase up to the instant.
/// - Bundle ids are not checked: the history does not say which app it belongs to. A history whose transactions of the
///   environment name more than one bundle id must carry an error diagnostic instead.
enum NoOverGrant {
    /// Why `report` grants more than `history` supports at `instant`, or nil when it does not.
    static func violation(
        in report: EntitlementReport, history: History, instant: Date, environment: Environment,
        catalog: ProductCatalog = ProductCatalog()
    ) -> String? {
        let facts = Facts(history: history, instant: instant, environment: environment, catalog: catalog)
        for product in report.products where product.hasAccess {
            guard facts.supports(product.productId.rawValue) else {
                return "\(product.productId) is granted (\(product.state)) at \(instant) in \(environment.rawValue), "
                    + "but no trusted snapshot signed by then covers the instant: "
                    + facts.refusals(of: product.productId.rawValue).joined(separator: "; ")
            }
        }
        let bundleIds = Set(
            facts.snapshots.values.joined().filter { $0.environment == environment }.compactMap(\.bundleId))
        if bundleIds.count > 1, !report.diagnostics.contains(where: { $0.severity == .error }) {
            return "the history names bundle ids \(bundleIds.sorted()) and the report has no error diagnostic"
        }
        return nil
    }

    /// The history, grouped for the questions the property asks.
    struct Facts {
        let instant: Date
        let environment: Environment
        let catalog: ProductCatalog
        /// Every transaction snapshot, by transactionId.
        var snapshots: [String: [TransactionPayload]] = [:]
        /// Every renewal-info snapshot, by originalTransactionId.
        var renewalInfos: [String: [RenewalInfoPayload]] = [:]
        /// The signedDates of the REVOKE notifications without revocationDate, by originalTransactionId.
        var revokes: [String: [Date]] = [:]
        /// The transactions a notification dated outside the range carries: none of their snapshots is trusted.
        var untrusted: Set<String> = []

        /// From 2008-07-10T00:00:00Z to 9999-12-31T23:59:59.999Z, in seconds, compared as numbers so that NaN is out.
        static func isInRange(_ date: Date?) -> Bool {
            guard let seconds = date?.timeIntervalSince1970 else { return true }
            return seconds >= 1_215_648_000 && seconds <= 253_402_300_799.999
        }

        init(history: History, instant: Date, environment: Environment, catalog: ProductCatalog) {
            self.instant = instant
            self.environment = environment
            self.catalog = catalog
            var transactions = history.transactions
            var infos = history.renewalInfos
            for notification in history.notifications {
                guard let data = notification.data else { continue }
                // Rule 1: a nested payload without signedDate was signed with its notification, or with the other
                // nested payload where the notification has no date either.
                let placed =
                    notification.signedDate
                    ?? [data.transactionInfo?.signedDate, data.renewalInfo?.signedDate].compactMap { $0 }
                    .filter { Self.isInRange($0) }.max()
                if var transaction = data.transactionInfo {
                    if transaction.signedDate == nil { transaction.signedDate = placed }
                    transactions.append(transaction)
                    if !Self.isInRange(notification.signedDate), let id = transaction.transactionId {
                        untrusted.insert(id)
                    }
                    if notification.notificationType == .revoke, transaction.revocationDate == nil,
                        data.environment == environment, transaction.environment == environment,
                        data.renewalInfo.map({ $0.environment == environment }) ?? true,
                        let original = transaction.originalTransactionId, let signed = notification.signedDate
                    {
                        revokes[original, default: []].append(signed)
                    }
                }
                if var info = data.renewalInfo {
                    if info.signedDate == nil { info.signedDate = placed }
                    infos.append(info)
                }
            }
            for transaction in transactions {
                if let id = transaction.transactionId { snapshots[id, default: []].append(transaction) }
            }
            for info in infos {
                if let original = info.originalTransactionId { renewalInfos[original, default: []].append(info) }
            }
        }

        /// Whether some transaction of `productId` supports a grant at the instant.
        func supports(_ productId: String) -> Bool {
            // Of tied transaction snapshots any may count, and so may any of those signed later.
            snapshots.values.contains { all in
                Self.counted(all, instant: instant).snapshots.contains { refusal($0, productId: productId) == nil }
            }
        }

        /// Why each transaction that names `productId` in some snapshot does not support a grant, for the message.
        func refusals(of productId: String) -> [String] {
            snapshots.sorted { $0.key < $1.key }.filter { $0.value.contains { $0.productId == productId } }
                .map { id, all in
                    let reasons = Self.counted(all, instant: instant).snapshots.map {
                        "signed \($0.signedDate.map { "\($0)" } ?? "never"): "
                            + (refusal($0, productId: productId) ?? "covers")
                    }
                    return "transaction \(id) (\(reasons.joined(separator: ", ")))"
                }
        }

        /// The snapshots that count at `instant`: the newest signed by then (all those tied), else all of them.
        static func counted<Snapshot: SignedSnapshot>(
            _ all: [Snapshot], instant: Date
        ) -> (snapshots: [Snapshot], signedByThen: Bool) {
            let byThen = all.filter { $0.signed <= instant }
            guard let newest = byThen.map(\.signed).max() else { return (all, false) }
            return (byThen.filter { $0.signed == newest }, true)
        }

        /// Why this snapshot, if it is the one that counts, does not grant `productId` at the instant; nil when it does.
        func refusal(_ snapshot: TransactionPayload, productId: String) -> String? {
            if let distrust = distrust(snapshot) { return distrust }
            guard snapshot.productId == productId else { return "another product" }
            guard let purchase = snapshot.purchaseDate, purchase <= instant else { return "purchased later" }
            if isRevoked(snapshot, purchase: purchase) { return "revoked" }
            switch snapshot.type ?? catalog.products[ProductID(productId)]?.type {
            case .consumable?:
                return "a consumable"
            case .nonConsumable?:
                return nil
            case .nonRenewing?:
                guard let end = catalog.products[ProductID(productId)]?.duration?.added(to: purchase) else {
                    return "non-renewing without a catalog duration"
                }
                return instant < end ? nil : "non-renewing, ended"
            case .autoRenewable?:
                guard let expires = snapshot.expiresDate else { return "no expiresDate" }
                return instant < expires || isInGracePeriod(snapshot, purchase: purchase)
                    ? nil : "expired, not in a grace period that counts"
            default:
                guard let expires = snapshot.expiresDate else { return "unknown type, no expiresDate" }
                return instant < expires ? nil : "unknown type, expired"
            }
        }

        /// Why this snapshot cannot be trusted to grant anything; nil when it can.
        func distrust(_ snapshot: TransactionPayload) -> String? {
            guard snapshot.environment == environment else { return "another environment or none" }
            if let id = snapshot.transactionId, untrusted.contains(id) {
                return "carried by a notification dated outside the range"
            }
            let dates = [snapshot.purchaseDate, snapshot.signedDate, snapshot.expiresDate, snapshot.revocationDate]
            guard dates.allSatisfy(Self.isInRange) else { return "a date outside the range" }
            if let revoked = snapshot.revocationDate, let signed = snapshot.signedDate,
                revoked.timeIntervalSince1970 >= signed.timeIntervalSince1970 + 0.001
            {
                return "revoked after its own signedDate"
            }
            guard snapshot.transactionId?.isEmpty == false, snapshot.originalTransactionId?.isEmpty == false,
                snapshot.productId?.isEmpty == false, let purchase = snapshot.purchaseDate
            else { return "an identifier or the purchaseDate missing or empty" }
            if let expires = snapshot.expiresDate, expires < purchase { return "expires before its purchase" }
            if let quantity = snapshot.quantity, quantity < 1 { return "quantity below 1" }
            if let price = snapshot.price, price < 0 { return "negative price" }
            return nil
        }

        func isRevoked(_ snapshot: TransactionPayload, purchase: Date) -> Bool {
            if let revoked = snapshot.revocationDate, revoked <= instant { return true }
            let chainRevokes = revokes[snapshot.originalTransactionId ?? ""] ?? []
            return chainRevokes.contains { $0 >= purchase && $0 <= instant }
        }

        /// Whether the chain's renewal infos that count put this transaction, the chain's newest, in a grace period.
        func isInGracePeriod(_ snapshot: TransactionPayload, purchase: Date) -> Bool {
            guard let original = snapshot.originalTransactionId, isNewestOfChain(snapshot, purchase: purchase) else {
                return false
            }
            let (counted, signedByThen) = Self.counted(renewalInfos[original] ?? [], instant: instant)
            func grants(_ info: RenewalInfoPayload) -> Bool {
                info.environment == environment && info.isInBillingRetryPeriod == true && info.signed >= purchase
                    && (info.gracePeriodExpiresDate.map { $0 > instant } ?? false)
            }
            // Renewal infos tied by then: the one that grants less wins, so all must grant. Signed later: any may.
            return signedByThen ? counted.allSatisfy(grants) : counted.contains(where: grants)
        }

        /// Whether no other trusted auto-renewable transaction of the chain was purchased after this one, by then.
        func isNewestOfChain(_ snapshot: TransactionPayload, purchase: Date) -> Bool {
            !snapshots.values.contains { all in
                Self.counted(all, instant: instant).snapshots.contains { other in
                    guard other.transactionId != snapshot.transactionId,
                        other.originalTransactionId == snapshot.originalTransactionId, distrust(other) == nil,
                        (other.type ?? other.productId.flatMap { catalog.products[ProductID($0)] }?.type)
                            == .autoRenewable,
                        let otherPurchase = other.purchaseDate
                    else { return false }
                    return otherPurchase > purchase && otherPurchase <= instant
                }
            }
        }
    }
}

/// A snapshot with the signedDate that orders it; none reads as the beginning of time, as in the rebuild's rule 1.
protocol SignedSnapshot {
    var signedDate: Date? { get }
}

extension SignedSnapshot {
    var signed: Date { signedDate ?? .distantPast }
}

extension TransactionPayload: SignedSnapshot {}
extension RenewalInfoPayload: SignedSnapshot {}
