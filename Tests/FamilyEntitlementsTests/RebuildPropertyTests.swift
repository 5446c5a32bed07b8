import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Random but realistic histories: renewals, upgrades, refunds, family copies, grace periods and notifications.
enum HistoryGenerator {
    static let products = [Given.basic, Given.monthly, Given.yearly]

    static func history(seed: UInt64) -> History {
        var random = SeededRandom(seed: seed)
        var history = History()
        let chains = Int.random(in: 1...3, using: &random)
        for chain in 0..<chains {
            let original = "\(seed % 1000)\(chain)000"
            let ownership: OwnershipType = Bool.random(using: &random) ? .purchased : .familyShared
            var start = Double(Int.random(in: 0...20, using: &random))
            var product = products.randomElement(using: &random) ?? Given.monthly
            for period in 0..<Int.random(in: 1...6, using: &random) {
                if Int.random(in: 0..<5, using: &random) == 0 {
                    product = products.randomElement(using: &random) ?? product
                }
                let id = period == 0 ? original : "\(original)\(period)"
                let end = start + 30
                var transaction = Given.subscription(
                    id, product, original: original, from: start, to: end, ownership: ownership)
                if Int.random(in: 0..<6, using: &random) == 0 {
                    transaction.offerType = .introductory
                    transaction.offerDiscountType = .freeTrial
                }
                history.transactions.append(transaction)
                if Int.random(in: 0..<5, using: &random) == 0 {
                    var refunded = transaction
                    refunded.signedDate = Given.day(start + 3)
                    refunded.revocationDate = Given.day(start + 3)
                    refunded.revocationReason = Bool.random(using: &random) ? .appIssue : .otherReason
                    history.notifications.append(
                        Given.notification(
                            ownership == .familyShared ? .revoke : .refund, signed: start + 3, transaction: refunded))
                }
                if Int.random(in: 0..<4, using: &random) == 0 {
                    history.notifications.append(
                        Given.notification(.didRenew, signed: start, transaction: transaction))
                }
                start = end + (Int.random(in: 0..<6, using: &random) == 0 ? 10 : 0)
            }
            if Bool.random(using: &random) {
                history.renewalInfos.append(
                    Given.renewal(
                        original, product, signed: start - 1, autoRenew: Bool.random(using: &random) ? .on : .off
                    ) {
                        if Bool.random(using: &random) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(start + 6)
                        }
                    })
            }
            // Apple's status from Get All Subscription Statuses, sometimes two signed in the same millisecond.
            if Int.random(in: 0..<3, using: &random) == 0 {
                let signed = start - Double(Int.random(in: 0...2, using: &random))
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    history.subscriptionStatuses.append(
                        DecisionRow.statusSnapshot(
                            original, SubscriptionStatus(rawValue: Int32.random(in: 1...5, using: &random)),
                            signed: signed))
                }
            }
            if ownership == .familyShared, Int.random(in: 0..<4, using: &random) == 0 {
                let revoked = Given.subscription(original, product, from: 0, to: 30, ownership: .familyShared)
                history.notifications.append(Given.notification(.revoke, signed: start - 5, transaction: revoked))
            }
        }
        if Bool.random(using: &random) {
            history.transactions.append(Given.oneTime("\(seed)77", Given.lifetime, type: .nonConsumable, on: 2))
        }
        return history
    }

    static func shuffled(_ history: History, seed: UInt64) -> History {
        var random = SeededRandom(seed: seed)
        return History(
            transactions: history.transactions.shuffled(using: &random),
            renewalInfos: history.renewalInfos.shuffled(using: &random),
            notifications: history.notifications.shuffled(using: &random),
            subscriptionStatuses: history.subscriptionStatuses.shuffled(using: &random))
    }
}

@Suite("Rebuild properties over generated histories")
struct RebuildPropertyTests {
    static let seeds: [UInt64] = Array(1...200)
    static let instants: [Double] = [0, 15, 45, 95, 200]

    @Test("shuffling the entries changes nothing", arguments: seeds)
    func shuffling(seed: UInt64) {
        let history = HistoryGenerator.history(seed: seed)
        for day in Self.instants {
            let expected = rebuildEntitlements(history: history, asOf: Given.day(day))
            for round in 1...3 {
                let shuffled = HistoryGenerator.shuffled(history, seed: seed &* 31 &+ UInt64(round))
                #expect(rebuildEntitlements(history: shuffled, asOf: Given.day(day)) == expected, "day \(day)")
            }
        }
    }

    @Test("the generated histories hold Apple's statuses, tied ones and ones the rebuild disagrees with")
    func generatedHistoriesHoldStatuses() {
        let histories = Self.seeds.map(HistoryGenerator.history(seed:))
        let withStatuses = histories.filter { !$0.subscriptionStatuses.isEmpty }
        #expect(withStatuses.count >= Self.seeds.count / 5)
        #expect(
            withStatuses.contains { history in
                let keys = history.subscriptionStatuses.map {
                    "\($0.originalTransactionId ?? "") \($0.signedDate.map { "\($0)" } ?? "")"
                }
                return Set(keys).count < keys.count
            }, "two statuses of one chain signed in the same millisecond")
        #expect(
            withStatuses.contains { history in
                Self.instants.contains { day in
                    rebuildEntitlements(history: history, asOf: Given.day(day)).diagnostics.contains {
                        $0.code == .appleStatusDisagrees
                    }
                }
            })
    }

    @Test("repeating entries changes nothing", arguments: seeds)
    func repeating(seed: UInt64) {
        let history = HistoryGenerator.history(seed: seed)
        let doubled = history.merging(HistoryGenerator.shuffled(history, seed: seed + 7))
        for day in Self.instants {
            #expect(
                rebuildEntitlements(history: doubled, asOf: Given.day(day))
                    == rebuildEntitlements(history: history, asOf: Given.day(day)), "day \(day)")
        }
    }

    /// Admission keys the newest snapshots by each transaction id's value where every id is a number, as Apple writes
    /// them, and by the id itself where one is not: both ways must decide alike, repeated snapshots included.
    @Test("a transaction id that is not a number, keying the snapshots by text, changes nothing", arguments: seeds)
    func textTransactionIds(seed: UInt64) {
        let history = HistoryGenerator.history(seed: seed)
        let doubled = history.merging(HistoryGenerator.shuffled(history, seed: seed + 11))
        for repeated in [history, doubled] {
            // A consumable takes part in no decision: only the form of its id differs, and so the way of keying.
            var numbered = repeated
            numbered.transactions.append(Given.oneTime("\(seed)99", Given.coins, type: .consumable, on: 1))
            var named = repeated
            named.transactions.append(Given.oneTime("coins-\(seed)", Given.coins, type: .consumable, on: 1))
            for day in Self.instants {
                #expect(
                    rebuildEntitlements(history: named, asOf: Given.day(day))
                        == rebuildEntitlements(history: numbered, asOf: Given.day(day)), "day \(day)")
            }
        }
    }

    @Test("adding a revocation never grants more", arguments: seeds)
    func revocationNeverGrantsMore(seed: UInt64) {
        let history = HistoryGenerator.history(seed: seed)
        var random = SeededRandom(seed: seed ^ 0xABCD)
        for day in Self.instants {
            let before = rebuildEntitlements(history: history, asOf: Given.day(day))
            guard var target = history.transactions.randomElement(using: &random) else { continue }
            let revokedAt = (target.purchaseDate ?? Given.day(0)).addingTimeInterval(86_400)
            target.signedDate = Given.day(400)
            target.revocationDate = revokedAt
            var familyRevoke = target
            familyRevoke.revocationDate = nil
            for extra in [
                History(transactions: [target]),
                History(notifications: [Given.notification(.revoke, signed: day - 1, transaction: familyRevoke)]),
            ] {
                let after = rebuildEntitlements(history: history.merging(extra), asOf: Given.day(day))
                for product in after.products where product.hasAccess {
                    #expect(
                        before.decision(for: product.productId)?.hasAccess == true,
                        "\(product.productId) gained access at day \(day) after a revocation")
                }
                #expect(!(after.customerStatus == .active && before.customerStatus != .active))
            }
        }
    }

    @Test("notifications signed in the same millisecond give the same evidence in any order (found by fuzzing)")
    func simultaneousNotifications() {
        let transaction = Given.subscription("1", from: 0, to: 30)
        var first = Given.notification(.expired, .voluntary, signed: 31, transaction: transaction)
        var second = first
        first.notificationUUID = "00000000-0000-4000-8000-00000000000a"
        second.notificationUUID = "00000000-0000-4000-8000-00000000000b"
        for kind in [NotificationType.expired, .gracePeriodExpired] {
            first.notificationType = kind
            second.notificationType = kind
            let forward = rebuildEntitlements(history: History(notifications: [first, second]), asOf: Given.day(40))
            let backward = rebuildEntitlements(history: History(notifications: [second, first]), asOf: Given.day(40))
            #expect(forward == backward, "\(kind)")
        }
    }

    @Test("two REVOKE notifications with one UUID and date but different contents: the same answer in any order")
    func simultaneousRevokes() {
        let shared = Given.subscription("2", from: 0, to: 30, ownership: .familyShared)
        var unknownOwner = shared
        unknownOwner.inAppOwnershipType = nil
        let first = Given.notification(.revoke, signed: 10, transaction: shared)
        let second = Given.notification(.revoke, signed: 10, transaction: unknownOwner)
        let forward = rebuildEntitlements(history: History(notifications: [first, second]), asOf: Given.day(12))
        let backward = rebuildEntitlements(history: History(notifications: [second, first]), asOf: Given.day(12))
        #expect(forward == backward)
        #expect(forward.decision(for: ProductID(Given.monthly))?.hasAccess == false)
    }

    @Test("the instant is an argument: the same history is new, active, then expired as the instant moves")
    func instantIsAnArgument() {
        let history = History(transactions: [Given.subscription("1", from: 10, to: 40)])
        #expect(rebuildEntitlements(history: history, asOf: Given.day(-1000)).customerStatus == .new)
        #expect(rebuildEntitlements(history: history, asOf: Given.day(20)).customerStatus == .active)
        #expect(rebuildEntitlements(history: history, asOf: Given.day(100_000)).customerStatus == .inactive)
        #expect(
            rebuildEntitlements(history: history, asOf: Given.day(20))
                == rebuildEntitlements(history: history, asOf: Given.day(20)))
    }

    @Test("the library never reads the clock: no clock API appears in its sources")
    func noClockReads() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/FamilyEntitlements")
        let forbidden = [
            "Date()", "Date.now", ".now()", "ContinuousClock", "SuspendingClock", "ProcessInfo", "clock_gettime",
            "gettimeofday", "CFAbsoluteTimeGetCurrent", "DispatchTime", "timeIntervalSinceNow",
            "Date(timeIntervalSinceNow",
        ]
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for name in forbidden {
                // A use is the name not preceded by an identifier character: `readDate()` is not `Date()`.
                let uses = text.ranges(of: name).filter { range in
                    guard range.lowerBound > text.startIndex, name.first?.isLetter == true else { return true }
                    let before = text[text.index(before: range.lowerBound)]
                    return !(before.isLetter || before.isNumber || before == "_")
                }
                #expect(uses.isEmpty, "\(file) uses \(name)")
            }
        }
    }

    @Test("evidence writes each instant exactly as Foundation's ISO 8601 format style does")
    func evidenceInstants() {
        var random = SeededRandom(seed: 8601)
        // Both ends of the range written directly, either side of 1970, and instants with milliseconds.
        var instants: [Double] = [
            -11_644_473_600, -11_644_473_600.5, -11_644_473_601, 253_402_300_799.999, 253_402_300_800, 0, -0.001,
            -1, 0.999, 951_782_400, 951_868_799.5, 4_107_542_400, -2_203_891_200, 1_767_225_600,
            // Before the range: the Gregorian reform of 1582, the year 1000, the year 1, and 1 BC.
            -12_219_292_800, -12_219_379_200, -30_610_224_000, -62_135_596_800, -62_167_219_200,
        ]
        for _ in 0..<5_000 {
            let milliseconds = Int64.random(in: -63_000_000_000_000...253_500_000_000_000, using: &random)
            instants.append(Double(milliseconds) / 1_000)
        }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(date.evidenceText == date.formatted(.iso8601), "at \(seconds) s since 1970")
        }
    }

    /// The notifications that carried a snapshot are named in one order, whatever the history's: by signedDate, type,
    /// subtype and notificationUUID, an absent subtype or id before any.
    @Test("evidence names the notifications that carried a snapshot in one order, an absent subtype first")
    func evidenceOrdersTheNotificationsThatCarriedASnapshot() {
        let transaction = Given.subscription("1209", from: 0, to: 30)
        let resubscribed = Given.notification(.subscribed, .resubscribe, signed: 0, transaction: transaction)
        var plain = Given.notification(.subscribed, signed: 0, transaction: transaction)
        plain.notificationUUID = "00000000-0000-4000-8000-000000000001"
        var anonymous = Given.notification(.subscribed, signed: 0, transaction: transaction)
        anonymous.notificationUUID = nil
        let orders = [
            [resubscribed, plain, anonymous], [anonymous, plain, resubscribed], [plain, resubscribed, anonymous],
        ]
        // The order itself, compared directly: where two mentions differ only by a UUID, an absent one sorts first.
        // (The reports below hold notifications in a set, whose order may hide a comparison that cannot tell.)
        let withUUID = NotificationMention(type: .subscribed, signedDate: Given.day(0), notificationUUID: "a")
        let withoutUUID = NotificationMention(type: .subscribed, signedDate: Given.day(0))
        #expect(withoutUUID < withUUID)
        #expect(!(withUUID < withoutUUID))
        for notifications in orders {
            let report = rebuildEntitlements(
                history: History(transactions: [transaction], notifications: notifications), asOf: Given.day(5))
            let carriers: [NotificationMention] = report.products.flatMap(\.reasons).compactMap {
                if case .carriedBy(let mention) = $0.fact { mention } else { nil }
            }
            #expect(carriers.map(\.subtype) == [nil, nil, .resubscribe])
            #expect(carriers.map(\.notificationUUID) == [nil, plain.notificationUUID, resubscribed.notificationUUID])
        }
    }
}
