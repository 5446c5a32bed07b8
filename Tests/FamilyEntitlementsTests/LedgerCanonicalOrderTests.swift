import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The canonical order on generated ledgers whose entries tie on their id and signedDate: absorbed in any order, one
/// ledger and one stored form, in the order that the comparator of `docs/ledger.md` gives (by signedDate, then id,
/// then JSON), written here as it reads, encoding both entries at every comparison.
extension LedgerTests {
    /// One entry of any kind, so that the kinds interleave when shuffled.
    enum TiedEntry {
        case transaction(TransactionPayload)
        case renewalInfo(RenewalInfoPayload)
        case notification(NotificationPayload)
        case status(SubscriptionStatusSnapshot)
    }

    /// The comparator of the canonical order as documented: signedDate (none: the distant past), then the id (none:
    /// empty), then the bytes of the entry's JSON.
    static func referenceOrder<Entry: AppStorePayload>(
        _ entries: Set<Entry>, signed: KeyPath<Entry, Date?>, key: KeyPath<Entry, String?>
    ) -> [Entry] {
        entries.sorted { lhs, rhs in
            let (leftSigned, rightSigned) = (lhs[keyPath: signed] ?? .distantPast, rhs[keyPath: signed] ?? .distantPast)
            if leftSigned != rightSigned { return leftSigned < rightSigned }
            let (leftKey, rightKey) = (lhs[keyPath: key] ?? "", rhs[keyPath: key] ?? "")
            if leftKey != rightKey { return leftKey < rightKey }
            let left = (try? lhs.jsonData()) ?? Data()
            let right = (try? rhs.jsonData()) ?? Data()
            return left.lexicographicallyPrecedes(right)
        }
    }

    /// Neighbours of a list that tie on signedDate and id: the pairs only the JSON orders.
    static func ties<Entry>(_ entries: [Entry], signed: KeyPath<Entry, Date?>, key: KeyPath<Entry, String?>) -> Int {
        zip(entries, entries.dropFirst()).filter { lhs, rhs in
            lhs[keyPath: signed] == rhs[keyPath: signed] && lhs[keyPath: key] == rhs[keyPath: key]
        }.count
    }

    /// Entries of every kind on two ids and two signedDates (now and then none of either), each with other content:
    /// most of them tie with several others. Dates fall on whole days, so that distinct entries encode differently.
    static func tiedEntries(seed: UInt64) -> [TiedEntry] {
        var random = SeededRandom(seed: seed &* 0x2545_F491 &+ 3)
        func id() -> String? { random.chance(0.05) ? nil : ["7101", "7102"].randomElement(using: &random) }
        func signed() -> Double? { random.chance(0.05) ? nil : [2, 4].randomElement(using: &random) }
        var entries: [TiedEntry] = []
        for _ in 0..<Int.random(in: 12...30, using: &random) {
            var transaction = Given.subscription("7101", from: 0, to: 30)
            transaction.transactionId = id()
            transaction.signedDate = signed().map(Given.day)
            transaction.price = Int64.random(in: 1_000...1_020, using: &random)
            transaction.quantity = Int32.random(in: 1...2, using: &random)
            if random.chance(0.3) {
                transaction.revocationDate = Given.day(3)
                transaction.revocationReason = .otherReason
            }
            entries.append(.transaction(transaction))
            if random.chance(0.3) {
                // A notification that carries it, tied with other notifications on its UUID and signedDate.
                let type: NotificationType = [.didRenew, .refund, .revoke].randomElement(using: &random) ?? .didRenew
                var notification = Given.notification(type, signed: 0, transaction: transaction)
                notification.notificationUUID =
                    random.chance(0.1) ? nil : ["uuid-a", "uuid-b"].randomElement(using: &random)
                notification.signedDate = signed().map(Given.day)
                entries.append(.notification(notification))
            }
        }
        for _ in 0..<Int.random(in: 8...14, using: &random) {
            var renewal = Given.renewal("7101", signed: 2)
            renewal.originalTransactionId = id()
            renewal.signedDate = signed().map(Given.day)
            renewal.renewalPrice = Int64.random(in: 1_000...1_010, using: &random)
            renewal.autoRenewStatus = random.chance(0.5) ? .on : .off
            entries.append(.renewalInfo(renewal))
        }
        for _ in 0..<Int.random(in: 2...8, using: &random) {
            var snapshot = DecisionRow.statusSnapshot(
                "7101", SubscriptionStatus(rawValue: Int32.random(in: 1...5, using: &random)), signed: 2)
            snapshot.originalTransactionId = id()
            snapshot.signedDate = signed().map(Given.day)
            entries.append(.status(snapshot))
        }
        return entries
    }

    static func ledger(absorbing entries: [TiedEntry]) -> CustomerLedger {
        var ledger = CustomerLedger()
        for entry in entries {
            switch entry {
            case .transaction(let transaction): ledger.absorb(transaction)
            case .renewalInfo(let renewalInfo): ledger.absorb(renewalInfo)
            case .notification(let notification): ledger.absorb(notification)
            case .status(let snapshot): ledger.absorb(snapshot)
            }
        }
        return ledger
    }

    @Test(
        "entries tied on id and signedDate, absorbed in any order: one ledger, in the documented order",
        arguments: UInt64(1)...30)
    func tiedEntriesInAnyOrder(seed: UInt64) throws {
        let entries = Self.tiedEntries(seed: seed)
        let first = Self.ledger(absorbing: entries)
        let bytes = try first.jsonData()
        var random = SeededRandom(seed: seed)
        for round in 1...4 {
            let shuffled = Self.ledger(absorbing: entries.shuffled(using: &random))
            #expect(shuffled == first, "seed \(seed), round \(round)")
            #expect(try shuffled.jsonData() == bytes, "seed \(seed), round \(round)")
            let history = shuffled.history
            #expect(
                history.transactions
                    == Self.referenceOrder(shuffled.transactions, signed: \.signedDate, key: \.transactionId))
            #expect(
                history.renewalInfos
                    == Self.referenceOrder(shuffled.renewalInfos, signed: \.signedDate, key: \.originalTransactionId))
            #expect(
                history.notifications
                    == Self.referenceOrder(shuffled.notifications, signed: \.signedDate, key: \.notificationUUID))
            #expect(
                history.subscriptionStatuses
                    == Self.referenceOrder(
                        shuffled.subscriptionStatuses, signed: \.signedDate, key: \.originalTransactionId))
        }
        // Read back, the stored form gives the same ledger and the same bytes.
        #expect(try CustomerLedger(jsonData: bytes).jsonData() == bytes)
        // The generator must make ties that only the JSON orders, in the entries held on their own and in the
        // notifications.
        let history = first.history
        #expect(
            Self.ties(history.transactions, signed: \.signedDate, key: \.transactionId) >= 3, "seed \(seed)")
        #expect(
            Self.ties(history.renewalInfos, signed: \.signedDate, key: \.originalTransactionId) >= 1, "seed \(seed)")
    }

    @Test("the generated ledgers tie notifications and statuses too")
    func generatedLedgersTieEveryKind() {
        var notificationTies = 0
        var statusTies = 0
        for seed in UInt64(1)...30 {
            let history = Self.ledger(absorbing: Self.tiedEntries(seed: seed)).history
            notificationTies += Self.ties(history.notifications, signed: \.signedDate, key: \.notificationUUID)
            statusTies += Self.ties(
                history.subscriptionStatuses, signed: \.signedDate, key: \.originalTransactionId)
        }
        #expect(notificationTies >= 30)
        #expect(statusTies >= 15)
    }
}
