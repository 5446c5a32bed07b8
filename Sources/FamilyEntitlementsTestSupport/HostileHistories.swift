import FamilyEntitlements
import Foundation

/// Histories shaped to make finding `validUntil` cost more than the history is long: the six shapes a hostile trial
/// found, a mix of them, and random histories, each at any size. For the cost property and `entitlements-bench
/// --hostile`; `package`, not part of the test-support API.
package enum HostileHistories {
    /// A shape of history, by what makes it costly.
    package enum Shape: String, CaseIterable, Sendable {
        /// n chains of one product, each expiring one by one after asOf; nothing purchased or signed after it.
        case chainsExpiringOneByOne = "n chains of one product expiring one by one after asOf"
        /// n identical renewal infos signed after asOf, each at its own instant.
        case renewalInfosSignedAfter = "n identical renewal infos signed after asOf"
        /// n identical snapshots of one transaction signed after asOf, each at its own instant.
        case snapshotsSignedAfter = "n identical snapshots of one transaction signed after asOf"
        /// n renewals of one chain purchased after asOf, inside a longer period.
        case renewalsPurchasedAfter = "n renewals of one chain purchased after asOf, inside a longer period"
        /// n Get All Subscription Statuses answers signed after asOf, all at one instant.
        case statusesSignedAfter = "n Get All Subscription Statuses answers signed after asOf"
        /// One chain of n products, expiring within the last 60 days before asOf.
        case productsOfOneChain = "one chain of n products, expiring within the last 60 days"
        /// n statuses signed at distinct instants after asOf.
        case statusesAtDistinctInstants = "n statuses signed at distinct instants after asOf"
    }

    package static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    private static let day: TimeInterval = 86_400
    private static let bundleId = "org.familyentitlements.demo"

    /// A history of `shape` with about `size` entries, and the instant to decide it at.
    package static func history(_ shape: Shape, size: Int) -> (history: History, asOf: Date) {
        let asOf = start.addingTimeInterval(100 * day)
        switch shape {
        case .chainsExpiringOneByOne:
            // Every chain bought before asOf, each expiring a minute after the one before, all after asOf.
            let transactions = (0..<size).map { index in
                transaction(
                    id: "c\(index)", original: "c\(index)", product: "premium", purchase: start,
                    expires: asOf.addingTimeInterval(Double(index + 1) * 60), signed: start)
            }
            return (History(transactions: transactions), asOf)
        case .renewalInfosSignedAfter:
            let chain = transaction(
                id: "r0", original: "r0", product: "premium", purchase: start,
                expires: asOf.addingTimeInterval(30 * day), signed: start)
            // The same renewal info answered again and again, each answer signed a minute after the one before.
            let infos = (0..<size).map { index in
                RenewalInfoPayload(
                    originalTransactionId: "r0", productId: "premium", autoRenewProductId: "premium",
                    autoRenewStatus: .on, signedDate: asOf.addingTimeInterval(Double(index + 1) * 60),
                    environment: .production)
            }
            return (History(transactions: [chain], renewalInfos: infos), asOf)
        case .snapshotsSignedAfter:
            // An audit of a past instant: Get Transaction History signs every snapshot when it answers, here once a
            // minute after asOf.
            let snapshots = (0..<size).map { index in
                transaction(
                    id: "s0", original: "s0", product: "premium", purchase: start,
                    expires: asOf.addingTimeInterval(30 * day), signed: asOf.addingTimeInterval(Double(index + 1) * 60))
            }
            return (History(transactions: snapshots), asOf)
        case .renewalsPurchasedAfter:
            // A year bought before asOf; n monthly renewals of the same chain purchased after asOf, inside that year.
            var transactions = [
                transaction(
                    id: "y0", original: "y0", product: "premium", purchase: start,
                    expires: start.addingTimeInterval(365 * day), signed: start)
            ]
            for index in 0..<size {
                let purchase = asOf.addingTimeInterval(Double(index + 1) * 3_600)
                transactions.append(
                    transaction(
                        id: "y\(index + 1)", original: "y0", product: "premium", purchase: purchase,
                        expires: purchase.addingTimeInterval(30 * day), signed: purchase))
            }
            return (History(transactions: transactions), asOf)
        case .statusesSignedAfter, .statusesAtDistinctInstants:
            let chain = transaction(
                id: "g0", original: "g0", product: "premium", purchase: start,
                expires: asOf.addingTimeInterval(30 * day), signed: start)
            let statuses = (0..<size).map { index in
                SubscriptionStatusSnapshot(
                    originalTransactionId: "g0", status: .active,
                    signedDate: asOf.addingTimeInterval(shape == .statusesSignedAfter ? day : Double(index + 1) * 60),
                    environment: .production, bundleId: bundleId, subscriptionGroupIdentifier: "g")
            }
            return (History(transactions: [chain], subscriptionStatuses: statuses), asOf)
        case .productsOfOneChain:
            // Each transaction names a product of its own, an hour after the one before; the chain's expiries fall
            // within the 60 days before asOf, so each one's end of billing retry is after it.
            let first = asOf.addingTimeInterval(-59 * day - 30 * day)
            let transactions = (0..<size).map { index in
                let purchase = first.addingTimeInterval(Double(index) * 59 * day / Double(max(size, 1)))
                return transaction(
                    id: "p\(index)", original: "p0", product: "product\(index)", purchase: purchase,
                    expires: purchase.addingTimeInterval(30 * day), signed: purchase)
            }
            return (History(transactions: transactions), asOf)
        }
    }

    /// Two shapes in one history, each of about half the size, decided at the first one's instant.
    package static func mix(_ first: Shape, _ second: Shape, size: Int) -> (history: History, asOf: Date) {
        let one = history(first, size: size / 2)
        let other = history(second, size: size - size / 2)
        return (one.history.merging(other.history), one.asOf)
    }

    /// A random history of about `size` entries: chains of a few products renewing monthly, one-time purchases,
    /// renewal infos and statuses, with dates on either side of the instant.
    package static func random(size: Int, seed: UInt64) -> (history: History, asOf: Date) {
        var random = SeededRandom(seed: seed)
        let asOf = start.addingTimeInterval(200 * day)
        var history = History()
        while history.count < size {
            let original = "x\(history.count)"
            let product = ["premium", "basic", "yearly", "lifetime"].randomElement(using: &random) ?? "premium"
            var purchase = start.addingTimeInterval(Double.random(in: 0...400, using: &random) * day)
            if product == "lifetime" {
                var lifetime = transaction(
                    id: original, original: original, product: product, purchase: purchase, expires: nil,
                    signed: purchase)
                lifetime.type = .nonConsumable
                history.transactions.append(lifetime)
                continue
            }
            for renewal in 0..<Int.random(in: 1...12, using: &random) {
                let expires = purchase.addingTimeInterval(30 * day)
                history.transactions.append(
                    transaction(
                        id: "\(original).\(renewal)", original: original, product: product, purchase: purchase,
                        expires: expires,
                        signed: purchase.addingTimeInterval(Double.random(in: 0...40, using: &random) * day)))
                purchase = expires
            }
            if Bool.random(using: &random) {
                history.renewalInfos.append(
                    RenewalInfoPayload(
                        originalTransactionId: original, productId: product, autoRenewStatus: .on,
                        isInBillingRetryPeriod: Bool.random(using: &random),
                        gracePeriodExpiresDate: purchase.addingTimeInterval(6 * day),
                        signedDate: purchase.addingTimeInterval(-day), environment: .production))
            }
            if Bool.random(using: &random) {
                history.subscriptionStatuses.append(
                    SubscriptionStatusSnapshot(
                        originalTransactionId: original, status: .active,
                        signedDate: start.addingTimeInterval(Double.random(in: 0...400, using: &random) * day),
                        environment: .production, bundleId: bundleId, subscriptionGroupIdentifier: "g"))
            }
        }
        return (history, asOf)
    }

    private static func transaction(
        id: String, original: String, product: String, purchase: Date, expires: Date?, signed: Date
    ) -> TransactionPayload {
        TransactionPayload(
            originalTransactionId: original, transactionId: id, bundleId: bundleId, productId: product,
            purchaseDate: purchase, originalPurchaseDate: start, expiresDate: expires, quantity: 1,
            type: .autoRenewable, inAppOwnershipType: .purchased, signedDate: signed, environment: .production)
    }
}
