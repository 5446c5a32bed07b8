import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation

/// The transactions of a family of six (an organiser and five members) over ten years, as Apple issues them.
///
/// Each subscription group the organiser buys renews weekly, monthly or yearly; members receive FAMILY_SHARED copies
/// with their own identifiers while they are in the family. Along the way: introductory free trials, billing retries
/// that recover after a grace period, upgrades (the old transaction comes back with `isUpgraded`), refunds and family
/// revocations (a newer snapshot of the transaction with `revocationDate`; `revocationType` only from December 2025),
/// a shared non-consumable, and consumables bought by each member. Larger histories add subscription groups.
enum FamilyHistory {
    static let tenYearsStart = Date(timeIntervalSince1970: 1_451_606_400)  // 2016-01-01
    static let tenYearsEnd = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    static let revocationTypeIntroduced = Date(timeIntervalSince1970: 1_764_547_200)  // 2025-12-01
    static let bundleId = "com.example.familyapp"
    static let familySize = 6

    /// At least `count` transactions, oldest first, then cut to `count`.
    static func transactions(count: Int, seed: UInt64 = 2016) -> [TransactionPayload] {
        var builder = Builder(random: SeededRandom(seed: seed))
        builder.addLifetimePurchases()
        var group = 0
        while builder.transactions.count < count {
            builder.addSubscriptionGroup(group)
            group += 1
        }
        let sorted = builder.transactions.sorted { ($0.signedDate ?? .distantPast) < ($1.signedDate ?? .distantPast) }
        return Array(sorted.prefix(count))
    }

    private struct Builder {
        var random: SeededRandom
        var transactions: [TransactionPayload] = []
        private var nextIdentifier: UInt64 = 2_000_000_123_000_000
        private let storefronts = [("USA", "143441", "USD"), ("GBR", "143444", "GBP"), ("DEU", "143443", "EUR")]

        init(random: SeededRandom) {
            self.random = random
        }

        mutating func identifier() -> String {
            nextIdentifier += 1 + random.next() % 997
            return String(nextIdentifier)
        }

        /// Each member's app download identifier, stable across their transactions.
        func appTransactionId(member: Int) -> String {
            String(704_289_572_311_614_000 + UInt64(member) * 7919)
        }

        mutating func addLifetimePurchases() {
            let purchase = FamilyHistory.tenYearsStart.addingTimeInterval(86_400 * 40)
            let organiserCopy = transaction(
                member: 0, originalTransactionId: nil, productId: "com.example.familyapp.pro.lifetime", group: nil,
                type: .nonConsumable, purchase: purchase, expires: nil, reason: nil, price: 29_990)
            transactions.append(organiserCopy)
            for member in 1..<FamilyHistory.familySize {
                transactions.append(
                    transaction(
                        member: member, originalTransactionId: nil, productId: "com.example.familyapp.pro.lifetime",
                        group: nil, type: .nonConsumable, purchase: purchase.addingTimeInterval(3_600), expires: nil,
                        reason: nil, price: 29_990, shared: true))
            }
            for member in 0..<FamilyHistory.familySize {
                var day = 10.0 + Double(random.next() % 90)
                while day < 3_650 {
                    let date = FamilyHistory.tenYearsStart.addingTimeInterval(day * 86_400)
                    transactions.append(
                        transaction(
                            member: member, originalTransactionId: nil, productId: "com.example.familyapp.coins.100",
                            group: nil, type: .consumable, purchase: date, expires: nil, reason: nil, price: 990))
                    day += 30 + Double(random.next() % 400)
                }
            }
        }

        /// One subscription group over ten years: the organiser's chain and the members' shared copies.
        mutating func addSubscriptionGroup(_ group: Int) {
            let cadences: [(name: String, seconds: Double)] = [
                ("monthly", 30.4 * 86_400), ("weekly", 7 * 86_400), ("monthly", 30.4 * 86_400),
                ("yearly", 365.25 * 86_400),
            ]
            var cadence = cadences[group % cadences.count]
            let groupIdentifier = String(21_000_000 + group * 37)
            var productId = "com.example.familyapp.g\(group).\(cadence.name)"
            let organiserOriginal = identifier()
            var memberOriginals: [String?] = Array(repeating: nil, count: FamilyHistory.familySize)
            var inFamily = (0..<FamilyHistory.familySize).map { $0 == 0 || random.chance(0.6) }
            var date = FamilyHistory.tenYearsStart.addingTimeInterval(Double(random.next() % 60) * 86_400)
            var isFirst = true
            var active = true
            while date < FamilyHistory.tenYearsEnd {
                guard active else {
                    date = date.addingTimeInterval(Double(30 + random.next() % 200) * 86_400)
                    active = true
                    isFirst = true
                    continue
                }
                let trial = isFirst && random.chance(0.5)
                let period = trial ? 7 * 86_400 : cadence.seconds
                let expires = date.addingTimeInterval(period)
                let reason: TransactionReason = isFirst ? .purchase : .renewal
                let price: Int64 =
                    trial ? 0 : (cadence.name == "yearly" ? 99_990 : cadence.name == "weekly" ? 2_990 : 9_990)
                var copies: [TransactionPayload] = []
                for member in 0..<FamilyHistory.familySize where inFamily[member] {
                    let original: String
                    if member == 0 {
                        original = organiserOriginal
                    } else if let known = memberOriginals[member] {
                        original = known
                    } else {
                        original = identifier()
                        memberOriginals[member] = original
                    }
                    var copy = transaction(
                        member: member, originalTransactionId: original, productId: productId, group: groupIdentifier,
                        type: .autoRenewable, purchase: date.addingTimeInterval(Double(member) * 60),
                        expires: expires, reason: reason, price: price, shared: member != 0)
                    if trial {
                        copy.offerType = .introductory
                        copy.offerDiscountType = .freeTrial
                        copy.offerPeriod = "P1W"
                    }
                    copies.append(copy)
                }
                transactions.append(contentsOf: copies)
                isFirst = false

                if random.chance(0.01), let refunded = copies.first {
                    revoke(refunded, at: date.addingTimeInterval(3 * 86_400), reason: 1, family: false)
                    for copy in copies.dropFirst() {
                        revoke(copy, at: date.addingTimeInterval(3 * 86_400 + 120), reason: 1, family: false)
                    }
                    active = false
                } else if random.chance(0.004), cadence.name == "monthly", let upgraded = copies.first {
                    var snapshot = upgraded
                    snapshot.isUpgraded = true
                    snapshot.signedDate = date.addingTimeInterval(5 * 86_400)
                    transactions.append(snapshot)
                    cadence = ("yearly", 365.25 * 86_400)
                    productId = "com.example.familyapp.g\(group).yearly"
                    date = date.addingTimeInterval(5 * 86_400)
                    isFirst = true
                    continue
                } else if random.chance(0.008) {
                    active = false
                }
                for member in 1..<FamilyHistory.familySize {
                    if inFamily[member], random.chance(0.004), let copy = copies.first(where: { isCopy($0, member) }) {
                        revoke(copy, at: date.addingTimeInterval(86_400), reason: 0, family: true)
                        inFamily[member] = false
                    } else if !inFamily[member], random.chance(0.01) {
                        inFamily[member] = true
                    }
                }
                let billingRetry = random.chance(0.03) ? Double(1 + random.next() % 16) * 86_400 : 0
                date = expires.addingTimeInterval(billingRetry)
            }
        }

        func isCopy(_ transaction: TransactionPayload, _ member: Int) -> Bool {
            transaction.appTransactionId == appTransactionId(member: member)
        }

        /// Appends a newer snapshot of `transaction`, revoked at `date`.
        mutating func revoke(_ transaction: TransactionPayload, at date: Date, reason: Int32, family: Bool) {
            var snapshot = transaction
            snapshot.revocationDate = date
            snapshot.revocationReason = RevocationReason(rawValue: reason)
            snapshot.signedDate = date
            if date >= FamilyHistory.revocationTypeIntroduced {
                snapshot.revocationType = family ? .familyRevoke : .refundFull
            }
            transactions.append(snapshot)
        }

        mutating func transaction(
            member: Int, originalTransactionId: String?, productId: String, group: String?, type: ProductType,
            purchase: Date, expires: Date?, reason: TransactionReason?, price: Int64, shared: Bool = false
        ) -> TransactionPayload {
            let transactionId = identifier()
            let storefront = storefronts[member % storefronts.count]
            return TransactionPayload(
                originalTransactionId: originalTransactionId ?? transactionId,
                transactionId: transactionId,
                webOrderLineItemId: group == nil ? nil : identifier(),
                bundleId: FamilyHistory.bundleId,
                productId: productId,
                subscriptionGroupIdentifier: group,
                purchaseDate: purchase,
                originalPurchaseDate: purchase,
                expiresDate: expires,
                quantity: 1,
                type: type,
                appAccountToken: shared || member != 0 ? nil : UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
                inAppOwnershipType: shared ? .familyShared : .purchased,
                signedDate: purchase.addingTimeInterval(2),
                environment: .production,
                storefront: storefront.0,
                storefrontId: storefront.1,
                transactionReason: reason ?? .purchase,
                currency: storefront.2,
                price: price,
                appTransactionId: appTransactionId(member: member))
        }
    }
}
