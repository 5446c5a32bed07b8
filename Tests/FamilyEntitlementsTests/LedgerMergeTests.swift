import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Splits of a history among writers, as concurrent writers of one customer's ledger absorb it: each entry goes to one
/// writer or more (Apple's retry delivered to two instances), in a seeded random order.
enum LedgerSplit {
    /// The history's entries dealt among `parts` histories; an entry goes to a second part with probability
    /// `repeats`.
    static func split(_ history: History, into parts: Int, repeats: Double = 0.2, seed: UInt64) -> [History] {
        var random = SeededRandom(seed: seed)
        var split = [History](repeating: History(), count: parts)
        func deal<Entry>(_ entries: [Entry], into path: WritableKeyPath<History, [Entry]>) {
            for entry in entries.shuffled(using: &random) {
                let first = Int.random(in: 0..<parts, using: &random)
                split[first][keyPath: path].append(entry)
                if random.chance(repeats) {
                    split[(first + Int.random(in: 1..<max(parts, 2), using: &random)) % parts][keyPath: path].append(
                        entry)
                }
            }
        }
        deal(history.transactions, into: \.transactions)
        deal(history.renewalInfos, into: \.renewalInfos)
        deal(history.notifications, into: \.notifications)
        deal(history.subscriptionStatuses, into: \.subscriptionStatuses)
        return split
    }

    /// A few of the instants at which the history's decision can change, from `start` on, and `start` itself.
    static func instants(of history: History, from start: Date, count: Int = 8) -> [Date] {
        let edges = LedgerHistoryMutator.edges(of: history, from: start).filter { $0 < .distantFuture }
        let stride = max(1, edges.count / count)
        return [start] + edges.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
    }
}

/// `CustomerLedger.merge(_:)`: the union of what two writers absorbed, deciding as one writer absorbing everything.
@Suite("Ledger merge")
struct LedgerMergeTests {
    /// Every decision-table row and a mutation of it, split among three writers: merge is commutative, associative
    /// and idempotent in the decisions it leads to, and the writers' ledgers merged in any order decide as one ledger
    /// that absorbed every entry.
    @Test(arguments: DecisionRow.all.indices)
    func mergeDecidesAsAbsorbingEverything(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        for (variant, history) in [
            row.history, LedgerHistoryMutator.mutated(row.history, seed: UInt64(rowIndex * 10 + 3)),
        ].enumerated() {
            let seed = UInt64(rowIndex * 10 + variant)
            let parts = LedgerSplit.split(history, into: 3, seed: seed).map(CustomerLedger.init)
            let (a, b, c) = (parts[0], parts[1], parts[2])
            let whole = CustomerLedger(history)
            var random = Self.random(seed)
            var order = parts.shuffled(using: &random)
            let anyOrder = order.removeFirst().merging(order[0]).merging(order[1])
            for instant in LedgerSplit.instants(of: history, from: row.instant) {
                func decision(_ ledger: CustomerLedger) -> DecisionSummary {
                    DecisionSummary(ledger.rebuild(asOf: instant, environment: row.environment, catalog: row.catalog))
                }
                let context = "\(row.name), variant \(variant), at \(instant)"
                // Commutative and idempotent, on two of the three parts.
                #expect(decision(a.merging(b)) == decision(b.merging(a)), "a ∪ b, b ∪ a: \(context)")
                #expect(decision(a.merging(a)) == decision(a), "a ∪ a: \(context)")
                #expect(decision(a.merging(b).merging(a.merging(b))) == decision(a.merging(b)), "twice: \(context)")
                // Associative, and the union of every part in any order is the whole history absorbed.
                let everything = decision(whole)
                #expect(decision(a.merging(b).merging(c)) == everything, "(a ∪ b) ∪ c: \(context)")
                #expect(decision(a.merging(b.merging(c))) == everything, "a ∪ (b ∪ c): \(context)")
                #expect(decision(anyOrder) == everything, "parts in a shuffled order: \(context)")
            }
        }
    }

    /// Merging is a union of sets: a ledger merged with itself is itself, and every entry merged in again is a repeat.
    @Test(arguments: 1...20)
    func mergingAgainChangesNothing(seed: UInt64) throws {
        let history = HistoryGenerator.history(seed: seed)
        let parts = LedgerSplit.split(history, into: 4, repeats: 0.5, seed: seed).map(CustomerLedger.init)
        var merged = CustomerLedger()
        for part in parts { merged.merge(part) }
        #expect(merged.merging(merged) == merged)
        for part in parts {
            var again = merged
            let changes = again.merge(part)
            #expect(changes.allSatisfy { !$0.changedLedger }, "\(changes.filter(\.changedLedger))")
            #expect(again == merged)
        }
        // One writer absorbing everything, transactions first, holds the same entries: the order of arrival is not
        // kept (a transaction absorbed before the notification that vouches for it is held once, inside it).
        #expect(merged == CustomerLedger(history))
        #expect(try merged.jsonData() == CustomerLedger(history).jsonData())
        var reversed = parts
        reversed.reverse()
        #expect(reversed.reduce(CustomerLedger()) { $0.merging($1) } == merged)
    }

    /// What merge says it did: each entry of the other ledger, added where new, unchanged where already held.
    @Test func mergeReportsEachEntry() {
        let first = Given.subscription("7101", from: 0, to: 30)
        let renewal = Given.subscription("7102", original: "7101", from: 30, to: 60)
        let mine = CustomerLedger(History(transactions: [first]))
        let theirs = CustomerLedger(History(transactions: [first, renewal]))
        var merged = mine
        let changes = merged.merge(theirs)
        #expect(changes.map(\.code) == ["unchanged", "added"])
        #expect(merged == theirs)
        #expect(merged.rebuild(asOf: Given.day(45)).hasAccess(to: EntitlementID(Given.monthly)))
        #expect(!mine.rebuild(asOf: Given.day(45)).hasAccess(to: EntitlementID(Given.monthly)))
    }

    /// The order of arrival is not kept: a transaction absorbed on its own, then the notification that carries it
    /// unchanged, is held once, inside the notification, as it is when the notification comes first; and a ledger
    /// stored by an earlier release that holds it both ways reads as the same ledger.
    @Test func aTransactionAndTheNotificationCarryingItAreHeldOnce() throws {
        let transaction = Given.subscription("7401", from: 0, to: 30)
        let notification = Given.notification(.subscribed, .initialBuy, signed: 0, transaction: transaction)
        var transactionFirst = CustomerLedger()
        #expect(transactionFirst.absorb(transaction).code == "added")
        #expect(transactionFirst.absorb(notification).code == "added")
        var notificationFirst = CustomerLedger()
        notificationFirst.absorb(notification)
        #expect(notificationFirst.absorb(transaction).code == "unchanged")
        #expect(transactionFirst == notificationFirst)
        #expect(transactionFirst.transactions.isEmpty && transactionFirst.count == 1)

        var stored = try #require(
            try JSONSerialization.jsonObject(with: notificationFirst.jsonData()) as? [String: Any])
        stored["transactions"] = [try JSONSerialization.jsonObject(with: transaction.jsonData())]
        let read = try CustomerLedger(jsonData: try JSONSerialization.data(withJSONObject: stored))
        #expect(read == notificationFirst)
        // A transaction no notification vouches for stays on its own.
        let other = Given.subscription("7402", from: 0, to: 30)
        stored["transactions"] = [try JSONSerialization.jsonObject(with: other.jsonData())]
        #expect(
            try CustomerLedger(jsonData: try JSONSerialization.data(withJSONObject: stored)).transactions == [other])
    }

    /// Two writers compact their ledgers at different instants: the merge decides as the union of everything at every
    /// instant at or after the later of the two compaction instants.
    @Test(arguments: DecisionRow.all.indices)
    func compactedLedgersMerge(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        let history = LedgerHistoryMutator.mutated(row.history, seed: UInt64(rowIndex * 10 + 5))
        var random = Self.random(UInt64(rowIndex) + 900)
        let parts = LedgerSplit.split(history, into: 2, seed: UInt64(rowIndex) + 500).map(CustomerLedger.init)
        let edges = LedgerHistoryMutator.edges(of: history, from: .distantPast).filter { $0 < .distantFuture }
        let compactionInstants = [
            edges.randomElement(using: &random) ?? row.instant, edges.randomElement(using: &random) ?? row.instant,
        ]
        let merged = parts[0].compacted(asOf: compactionInstants[0]).merging(
            parts[1].compacted(asOf: compactionInstants[1]))
        let whole = CustomerLedger(history)
        let later = compactionInstants.max() ?? row.instant
        for instant in LedgerSplit.instants(of: history, from: later, count: 12) {
            let expected = DecisionSummary(
                whole.rebuild(asOf: instant, environment: row.environment, catalog: row.catalog))
            let actual = DecisionSummary(
                merged.rebuild(asOf: instant, environment: row.environment, catalog: row.catalog))
            #expect(
                expected == actual,
                "\(row.name): compacted at \(compactionInstants), decided at \(instant): \(expected) vs \(actual)")
            if expected != actual { return }
        }
    }

    /// The generator that splits are dealt by, one per seed.
    static func random(_ seed: UInt64) -> SeededRandom { SeededRandom(seed: seed &+ 0x5EED) }
}
