import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The ledger looks up repeats and conflicts by key: each absorb must say what a scan of everything held would say.
struct LedgerIndexTests {
    /// What absorbing an entry changes, found by scanning every entry held: the ledger's rules written plainly.
    struct ScanningLedger {
        var transactions: [TransactionPayload] = []
        var renewalInfos: [RenewalInfoPayload] = []
        var notifications: [NotificationPayload] = []
        var statuses: [SubscriptionStatusSnapshot] = []

        private func collides(_ transaction: TransactionPayload) -> Bool {
            (transactions + notifications.compactMap { $0.data?.transactionInfo }).contains {
                $0.transactionId == transaction.transactionId && $0.signedDate == transaction.signedDate
                    && $0 != transaction
            }
        }

        private func collides(_ renewalInfo: RenewalInfoPayload) -> Bool {
            (renewalInfos + notifications.compactMap { $0.data?.renewalInfo }).contains {
                $0.originalTransactionId == renewalInfo.originalTransactionId
                    && $0.signedDate == renewalInfo.signedDate && $0 != renewalInfo
            }
        }

        /// Whether the entry holds a value JSON cannot hold, which the ledger refuses rather than keep unwritable.
        static func unwritable(_ entry: some Encodable) -> Bool {
            (try? JSONEncoder().encode(entry)) == nil
        }

        mutating func absorb(_ transaction: TransactionPayload) -> String {
            if Self.unwritable(transaction) { return "refused" }
            if transactions.contains(transaction) { return "unchanged" }
            if notifications.contains(where: {
                $0.data?.transactionInfo == transaction && $0.data?.environment == transaction.environment
                    && $0.data?.bundleId == transaction.bundleId
            }) {
                return "unchanged"
            }
            let conflict = collides(transaction)
            transactions.append(transaction)
            return conflict ? "conflicting" : "added"
        }

        mutating func absorb(_ renewalInfo: RenewalInfoPayload) -> String {
            if Self.unwritable(renewalInfo) { return "refused" }
            if renewalInfos.contains(renewalInfo) { return "unchanged" }
            let conflict = collides(renewalInfo)
            renewalInfos.append(renewalInfo)
            return conflict ? "conflicting" : "added"
        }

        mutating func absorb(_ notification: NotificationPayload) -> String {
            var stored = notification
            if stored.data?.transactionInfo != nil { stored.data?.signedTransactionInfo = nil }
            if stored.data?.renewalInfo != nil { stored.data?.signedRenewalInfo = nil }
            if Self.unwritable(stored) { return "refused" }
            if notifications.contains(stored) { return "unchanged" }
            let conflict =
                (stored.notificationUUID.map { uuid in notifications.contains { $0.notificationUUID == uuid } }
                    ?? false)
                || (stored.data?.transactionInfo.map(collides) ?? false)
                || (stored.data?.renewalInfo.map(collides) ?? false)
            notifications.append(stored)
            return conflict ? "conflicting" : "added"
        }

        mutating func absorb(_ snapshot: SubscriptionStatusSnapshot) -> String {
            if Self.unwritable(snapshot) { return "refused" }
            if statuses.contains(snapshot) { return "unchanged" }
            let conflict = statuses.contains {
                $0.originalTransactionId == snapshot.originalTransactionId && $0.signedDate == snapshot.signedDate
            }
            statuses.append(snapshot)
            return conflict ? "conflicting" : "added"
        }
    }

    static func kind(_ change: LedgerChange) -> String {
        switch change {
        case .added: "added"
        case .unchanged: "unchanged"
        case .conflicting: "conflicting"
        case .refused: "refused"
        }
    }

    /// Every decision-table row's history, mutated as a service receives it, absorbed entry by entry in a random
    /// order, twice over: each change is the one a scan finds, and the ledger equals one absorbed in another order.
    @Test(arguments: DecisionRow.all.indices)
    func absorbAsAScanWould(rowIndex: Int) {
        let history = LedgerHistoryMutator.mutated(DecisionRow.all[rowIndex].history, seed: UInt64(rowIndex) + 7_000)
        enum Entry {
            case transaction(TransactionPayload)
            case renewalInfo(RenewalInfoPayload)
            case notification(NotificationPayload)
            case status(SubscriptionStatusSnapshot)
        }
        var entries: [Entry] =
            history.transactions.map(Entry.transaction) + history.renewalInfos.map(Entry.renewalInfo)
            + history.notifications.map(Entry.notification) + history.subscriptionStatuses.map(Entry.status)
        var random = SeededRandom(seed: UInt64(rowIndex) + 8_000)
        entries = (entries + entries).shuffled(using: &random)
        var ledger = CustomerLedger()
        var scanning = ScanningLedger()
        for entry in entries {
            let (change, expected): (LedgerChange, String)
            switch entry {
            case .transaction(let value): (change, expected) = (ledger.absorb(value), scanning.absorb(value))
            case .renewalInfo(let value): (change, expected) = (ledger.absorb(value), scanning.absorb(value))
            case .notification(let value): (change, expected) = (ledger.absorb(value), scanning.absorb(value))
            case .status(let value): (change, expected) = (ledger.absorb(value), scanning.absorb(value))
            }
            #expect(Self.kind(change) == expected, "row \(rowIndex): \(change), a scan says \(expected)")
        }
        // The order of arrival may change what is held (a transaction absorbed before the notification that carries
        // it is kept on its own, after it is a repeat) but never the decision.
        let instant = DecisionRow.all[rowIndex].instant
        #expect(
            DecisionSummary(ledger.rebuild(asOf: instant))
                == DecisionSummary(CustomerLedger(history).rebuild(asOf: instant)),
            "row \(rowIndex): the order of arrival changed the decision")
        // Read back from its JSON, the ledger's index is rebuilt from what it holds: absorbing what it holds changes
        // nothing. (Its own history, since dates drawn here need not be whole milliseconds.)
        var again = ledger
        let changes = again.absorb(history).filter { !["unchanged", "refused"].contains(Self.kind($0)) }
        #expect(changes.isEmpty, "row \(rowIndex): absorbed again: \(changes)")
        if let data = try? ledger.jsonData(), var decoded = try? CustomerLedger(jsonData: data) {
            let changes = decoded.absorb(decoded.history).filter { Self.kind($0) != "unchanged" }
            #expect(changes.isEmpty, "row \(rowIndex): read back and absorbed again: \(changes)")
        } else {
            Issue.record("row \(rowIndex): the ledger does not round-trip its JSON")
        }
    }
}
