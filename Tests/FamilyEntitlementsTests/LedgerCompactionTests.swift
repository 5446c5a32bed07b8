import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Histories that break naive compactions: every decision-table row's history, then mutated with what a service
/// really receives (snapshots signed again, earlier and later; ties; left-out copies; notifications carrying the
/// snapshots; REVOKEs without revocationDate; EXPIRED and GRACE_PERIOD_EXPIRED; renewal infos in billing retry;
/// Apple's statuses from Get All Subscription Statuses, answered again, tied, of another environment or app).
enum LedgerHistoryMutator {
    static func mutated(_ history: History, seed: UInt64) -> History {
        var random = SeededRandom(seed: seed)
        var result = history
        let rounds = Int.random(in: 1...4, using: &random)
        for _ in 0..<rounds {
            mutate(&result, from: history, random: &random)
        }
        // After the other mutations, so that theirs stay what they were for each seed.
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            addStatus(to: &result, from: history, random: &random)
        }
        return result
    }

    /// Apple's status of a chain the history names, as Get All Subscription Statuses answers it: any status (an
    /// unknown one, none), dated by one of the chain's snapshots or shifted from it, sometimes without a date, of
    /// another environment or app; or the same answer again, or another status signed in the same millisecond.
    private static func addStatus(to history: inout History, from seed: History, random: inout SeededRandom) {
        if let held = history.subscriptionStatuses.randomElement(using: &random), Bool.random(using: &random) {
            var copy = held
            if Bool.random(using: &random) {
                copy.status = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked].randomElement(
                    using: &random)
            }
            history.subscriptionStatuses.append(copy)
            return
        }
        let dates =
            allTransactions(seed).map { ($0.originalTransactionId, $0.signedDate ?? $0.purchaseDate) }
            + allRenewalInfos(seed).map { ($0.originalTransactionId, $0.signedDate) }
        guard let (original, date) = dates.randomElement(using: &random) else { return }
        let steps: [Double] = [-20, -1, -0.001, 0, 0, 0.001, 1, 5, 40]
        var snapshot = SubscriptionStatusSnapshot(
            originalTransactionId: original,
            status: [
                .active, .expired, .billingRetry, .billingGracePeriod, .revoked, SubscriptionStatus(rawValue: 9), nil,
            ].randomElement(using: &random) ?? .active,
            signedDate: shifted(date, days: steps.randomElement(using: &random) ?? 0),
            environment: .production, bundleId: "org.familyentitlements.demo", subscriptionGroupIdentifier: "21000001")
        switch Int.random(in: 0..<8, using: &random) {
        case 0: snapshot.environment = .sandbox
        case 1: snapshot.bundleId = "org.example.other"
        case 2: snapshot.signedDate = nil
        case 3: snapshot.subscriptionGroupIdentifier = nil
        default: break
        }
        history.subscriptionStatuses.append(snapshot)
    }

    private static func shifted(_ date: Date?, days: Double) -> Date? {
        date.map { $0.addingTimeInterval(days * 86_400) }
    }

    private static func allTransactions(_ history: History) -> [TransactionPayload] {
        history.transactions + history.notifications.compactMap { $0.data?.transactionInfo }
    }

    private static func allRenewalInfos(_ history: History) -> [RenewalInfoPayload] {
        history.renewalInfos + history.notifications.compactMap { $0.data?.renewalInfo }
    }

    private static func mutate(_ history: inout History, from seed: History, random: inout SeededRandom) {
        let transactions = allTransactions(seed)
        let renewalInfos = allRenewalInfos(seed)
        let steps: [Double] = [-20, -3, -1, -0.001, 0.001, 1, 5, 40]
        let step: Double = steps.randomElement(using: &random) ?? 1
        let uuid = "ledger-\(random.next() % 1_000_000)"
        switch Int.random(in: 0..<12, using: &random) {
        case 0:  // the same snapshot signed again, earlier or later (Get Transaction History signs when it answers)
            guard var copy = transactions.randomElement(using: &random) else { return }
            copy.signedDate = shifted(copy.signedDate, days: step)
            history.transactions.append(copy)
        case 1:  // an older or newer snapshot with another expiry
            guard var copy = transactions.randomElement(using: &random) else { return }
            copy.signedDate = shifted(copy.signedDate, days: step)
            copy.expiresDate = shifted(copy.expiresDate ?? copy.purchaseDate, days: 10)
            history.transactions.append(copy)
        case 2:  // a tie: another snapshot signed in the same millisecond
            guard var copy = transactions.randomElement(using: &random) else { return }
            if Bool.random(using: &random) {
                copy.revocationDate = copy.signedDate
                copy.revocationReason = .otherReason
            } else {
                copy.expiresDate = shifted(copy.expiresDate, days: 1)
            }
            history.transactions.append(copy)
        case 3:  // a copy left out or reported: no environment, Sandbox, an impossible value, an unknown value
            guard var copy = transactions.randomElement(using: &random) else { return }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: copy.environment = nil
            case 1: copy.environment = .sandbox
            case 2: copy.price = -1
            case 3: copy.quantity = 0
            default: copy.offerType = OfferType(rawValue: 9)
            }
            copy.signedDate = shifted(copy.signedDate, days: step)
            history.transactions.append(copy)
        case 4:  // a snapshot carried by a notification
            guard let transaction = transactions.randomElement(using: &random) else { return }
            var notification = Given.notification(
                [.didRenew, .subscribed, .offerRedeemed, .renewalExtended, .refundReversed].randomElement(
                    using: &random) ?? .didRenew,
                signed: 0, transaction: transaction,
                renewal: renewalInfos.first { $0.originalTransactionId == transaction.originalTransactionId })
            notification.signedDate = transaction.signedDate
            notification.notificationUUID = uuid
            switch Int.random(in: 0..<6, using: &random) {
            case 0: notification.data?.bundleId = nil  // a wrapper that names no app: a catalog's bundle refuses it
            case 1: notification.data?.environment = .sandbox
            default: break
            }
            // Apple's status of the chain, as a notification of a subscription states it, signed after the snapshot
            // it carries: the rebuild compares it where it is the latest word on the chain.
            if Bool.random(using: &random) {
                notification.data?.status = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]
                    .randomElement(using: &random)
                notification.signedDate = shifted(transaction.signedDate, days: abs(step))
            }
            history.notifications.append(notification)
        case 5:  // a REVOKE without revocationDate
            guard var transaction = transactions.randomElement(using: &random) else { return }
            transaction.revocationDate = nil
            transaction.signedDate = shifted(transaction.signedDate, days: abs(step))
            var notification = Given.notification(.revoke, signed: 0, transaction: transaction)
            notification.signedDate = transaction.signedDate
            notification.notificationUUID = uuid
            history.notifications.append(notification)
        case 6:  // EXPIRED or GRACE_PERIOD_EXPIRED
            guard let transaction = transactions.randomElement(using: &random) else { return }
            var notification = Given.notification(
                Bool.random(using: &random) ? .expired : .gracePeriodExpired, signed: 0, transaction: transaction)
            notification.signedDate = shifted(transaction.expiresDate ?? transaction.purchaseDate, days: abs(step))
            notification.notificationUUID = uuid
            history.notifications.append(notification)
        case 7:  // a renewal info signed again, earlier or later, sometimes in billing retry with grace
            guard var copy = renewalInfos.randomElement(using: &random) else { return }
            copy.signedDate = shifted(copy.signedDate, days: step)
            if Bool.random(using: &random) {
                copy.isInBillingRetryPeriod = true
                copy.gracePeriodExpiresDate = shifted(copy.signedDate, days: 6)
            } else if Bool.random(using: &random) {
                copy.autoRenewStatus = copy.autoRenewStatus == .on ? .off : .on
            }
            history.renewalInfos.append(copy)
        case 8:  // a renewal info left out: no environment, or an impossible value in the history's own
            guard var copy = renewalInfos.randomElement(using: &random) else { return }
            copy.signedDate = shifted(copy.signedDate, days: step)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: copy.environment = nil
            case 1:
                copy.isInBillingRetryPeriod = true
                copy.gracePeriodExpiresDate = copy.signedDate.map {
                    Date(timeIntervalSince1970: $0.timeIntervalSince1970 / 1_000)
                }
            default: copy.originalTransactionId = copy.originalTransactionId.map { _ in "" }
            }
            history.renewalInfos.append(copy)
        case 9:  // a renewal info carried by DID_FAIL_TO_RENEW or DID_CHANGE_RENEWAL_STATUS
            guard let info = renewalInfos.randomElement(using: &random) else { return }
            let transaction = transactions.last { $0.originalTransactionId == info.originalTransactionId }
            var notification = Given.notification(
                Bool.random(using: &random) ? .didFailToRenew : .didChangeRenewalStatus,
                Bool.random(using: &random) ? .gracePeriod : .autoRenewDisabled, signed: 0, transaction: transaction,
                renewal: info)
            notification.signedDate = info.signedDate
            notification.notificationUUID = uuid
            history.notifications.append(notification)
        case 10:  // a repeat of a notification, and of a snapshot
            if let notification = seed.notifications.randomElement(using: &random) {
                history.notifications.append(notification)
            }
            if let transaction = seed.transactions.randomElement(using: &random) {
                history.transactions.append(transaction)
            }
        default:  // a renewal of a chain, signed at its purchase, with a newer renewal info
            guard let last = transactions.filter({ $0.expiresDate != nil }).randomElement(using: &random),
                let end = last.expiresDate
            else { return }
            var renewal = last
            renewal.transactionId = (last.transactionId ?? "") + "9"
            renewal.purchaseDate = end
            renewal.signedDate = end
            renewal.expiresDate = end.addingTimeInterval(30 * 86_400)
            renewal.revocationDate = nil
            var notification = Given.notification(.didRenew, signed: 0, transaction: renewal)
            notification.signedDate = end
            notification.notificationUUID = uuid
            if let info = renewalInfos.first(where: { $0.originalTransactionId == last.originalTransactionId }) {
                var newer = info
                newer.signedDate = end
                notification.data?.renewalInfo = newer
            }
            history.notifications.append(notification)
        }
    }

    /// Entries arriving after a history was stored: mutations of it, without the history itself.
    static func arrivals(after history: History, seed: UInt64) -> History {
        let mutated = mutated(history, seed: seed)
        return History(
            transactions: Array(mutated.transactions.dropFirst(history.transactions.count)),
            renewalInfos: Array(mutated.renewalInfos.dropFirst(history.renewalInfos.count)),
            notifications: Array(mutated.notifications.dropFirst(history.notifications.count)),
            subscriptionStatuses: Array(mutated.subscriptionStatuses.dropFirst(history.subscriptionStatuses.count)))
    }

    /// Every date the history names, each also one millisecond either side, from `start` on.
    static func edges(of history: History, from start: Date) -> [Date] {
        var dates: Set<Date> = [start, start.addingTimeInterval(0.001), .distantFuture]
        for transaction in allTransactions(history) {
            for date in [
                transaction.signedDate, transaction.purchaseDate, transaction.expiresDate, transaction.revocationDate,
            ] {
                if let date { dates.insert(date) }
            }
        }
        for info in allRenewalInfos(history) {
            for date in [info.signedDate, info.gracePeriodExpiresDate] { if let date { dates.insert(date) } }
        }
        for notification in history.notifications { if let date = notification.signedDate { dates.insert(date) } }
        for snapshot in history.subscriptionStatuses { if let date = snapshot.signedDate { dates.insert(date) } }
        // A date no rule may read (NaN, an infinity, past 9999, as a payload built in code may hold) is no edge: the
        // rebuild compares the instant with none of them.
        dates = dates.filter { $0 == .distantFuture || $0.isReadableEdge }
        let spread = dates.flatMap { [$0, $0.addingTimeInterval(-0.001), $0.addingTimeInterval(0.001)] }
        // Retry billing ends 60 days after expiry; a year on checks that nothing dropped wakes up later.
        let last = dates.filter { $0 < .distantFuture }.max() ?? start
        let later = [last.addingTimeInterval(60 * 86_400), last.addingTimeInterval(365 * 86_400)]
        return Set(spread + later).filter { $0 >= start }.sorted()
    }
}

@Suite("Ledger compaction")
struct LedgerCompactionTests {
    /// For every row of the decision table and mutations of it, compacted at several instants: at every instant at or
    /// after the compaction instant, the same decision as the full ledger, with or without the row's catalog; and the
    /// same again once entries arriving late (signed before the compaction instant, too) are absorbed by both.
    @Test(arguments: DecisionRow.all.indices)
    func compactionKeepsEveryDecision(rowIndex: Int) {
        let row = DecisionRow.all[rowIndex]
        let problem = Self.firstDifference(row, seed: Self.seed(of: row))
        #expect(problem == nil, "\(problem ?? "")")
    }

    /// The seed of a row's mutations: its name's, not its place's, so that a row added before it leaves its histories
    /// as they were.
    static func seed(of row: DecisionRow) -> UInt64 { DecisionDigest.fnv(row.testDescription) }

    /// The first instant at which the ledger compacted at the row's instant (or in the middle of its dates) decides
    /// otherwise than the whole ledger, over the row's history and two mutations of it (seeds `seed + 1` and `seed +
    /// 2`), before and after entries arriving late (seed `seed + 7`); nil where there is none.
    static func firstDifference(_ row: DecisionRow, seed: UInt64) -> String? {
        var histories = [row.history]
        for mutation in 0..<2 {
            histories.append(LedgerHistoryMutator.mutated(row.history, seed: seed &+ UInt64(mutation + 1)))
        }
        let late = LedgerHistoryMutator.arrivals(after: histories[histories.count - 1], seed: seed &+ 7)
        for (index, history) in histories.enumerated() {
            let ledger = CustomerLedger(history)
            let dates = LedgerHistoryMutator.edges(of: history, from: .distantPast).filter { $0 < .distantFuture }
            var starts = [row.instant]
            if dates.count > 2 { starts.append(dates[dates.count / 2]) }
            for start in starts {
                var compacted = ledger.compacted(asOf: start)
                var full = ledger
                var pairs = [(full, compacted)]
                compacted.absorb(late)
                full.absorb(late)
                pairs.append((full, compacted))
                for (step, (full, compacted)) in pairs.enumerated() {
                    for instant in LedgerHistoryMutator.edges(of: full.history, from: start) {
                        for catalog in step == 0 ? [row.catalog, nil] : [row.catalog] {
                            let whole = DecisionSummary(
                                full.rebuild(asOf: instant, environment: row.environment, catalog: catalog))
                            let kept = DecisionSummary(
                                compacted.rebuild(asOf: instant, environment: row.environment, catalog: catalog))
                            if whole != kept {
                                return "\(row.name), history \(index), compacted at \(start), late entries \(step), "
                                    + "decided at \(instant): \(whole) vs \(kept)"
                            }
                        }
                    }
                }
            }
        }
        return nil
    }

    /// Two mutated histories on which compaction keeps every decision but drops what made a snapshot untrusted or set
    /// aside: the compacted ledger no longer reports `untrusted_snapshot` or `signed_after_instant` where the whole one
    /// does. Found when the seeds were the rows' places (these rows' seeds were 2,650 and 2,690). A known issue: this
    /// test fails, asking for its removal, once compaction keeps those diagnostics.
    @Test("compaction keeps the diagnostics of snapshots left out or set aside (a known issue)")
    func compactionKeepsTheDiagnosticsOfSnapshotsLeftOut() throws {
        let found: [(name: String, seed: UInt64)] = [
            ("a renewal info signed before the App Store opened is left out: no grace period", 2_650),
            ("a REVOKE whose own signedDate is in seconds (1970): impossible; the copy it names grants nothing", 2_690),
        ]
        for (name, seed) in found {
            let row = try #require(DecisionRow.all.first { $0.name == name })
            withKnownIssue("compaction drops what made a snapshot untrusted or set aside") {
                let problem = Self.firstDifference(row, seed: seed)
                #expect(problem == nil, "\(problem ?? "")")
            }
        }
    }

    /// Compaction does drop things over the mutated histories: a test of safety alone would pass with no compaction.
    @Test func compactionDropsSupersededEntries() {
        var dropped = 0
        for row in DecisionRow.all {
            let history = LedgerHistoryMutator.mutated(row.history, seed: Self.seed(of: row) &+ 1)
            let ledger = CustomerLedger(history)
            dropped += ledger.count - ledger.compacted(asOf: .distantFuture).count
        }
        #expect(dropped > 50)
    }

    /// A notification whose wrapper gates its transaction otherwise than the transaction alone (no bundle id, where a
    /// catalog names the app) is kept whole: its transaction on its own would be admitted where it was not.
    @Test func wrapperThatGatesOtherwiseIsKept() {
        let transaction = Given.subscription("6101", from: 0, to: 30)
        var notification = Given.notification(.subscribed, .initialBuy, signed: 0, transaction: transaction)
        notification.data?.bundleId = nil
        let ledger = CustomerLedger(History(notifications: [notification]))
        let catalog = ProductCatalog(
            bundleId: "org.familyentitlements.demo", products: [ProductID(Given.monthly): .init(entitlements: ["pro"])])
        let compacted = ledger.compacted(asOf: Given.day(1))
        #expect(compacted == ledger)
        for instant in [Given.day(1), Given.day(5), Given.day(29)] {
            let full = DecisionSummary(ledger.rebuild(asOf: instant, catalog: catalog))
            #expect(!full.entitlements["pro", default: false])
            #expect(full == DecisionSummary(compacted.rebuild(asOf: instant, catalog: catalog)))
        }
        // Where the wrapper names the transaction's app, the transaction is kept on its own and the notification goes.
        let named = CustomerLedger(
            History(notifications: [Given.notification(.subscribed, .initialBuy, signed: 0, transaction: transaction)]))
        #expect(named.compacted(asOf: Given.day(1)).transactions == [transaction])
        #expect(named.compacted(asOf: Given.day(1)).notifications.isEmpty)
    }

    /// Get All Subscription Statuses every day: each renewal info and transaction signed again, the older ones go.
    @Test func statusesFetchedDailyCompact() {
        var ledger = CustomerLedger()
        for day in 0..<30 {
            ledger.absorb(Given.subscription("6201", from: 0, to: 30, signed: Double(day)))
            ledger.absorb(Given.renewal("6201", signed: Double(day)) { $0.autoRenewStatus = day < 20 ? .on : .off })
        }
        let compacted = ledger.compacted(asOf: Given.day(29.5))
        #expect(compacted.transactions == [Given.subscription("6201", from: 0, to: 30, signed: 29)])
        #expect(compacted.renewalInfos == [Given.renewal("6201", signed: 29, autoRenew: .off)])
        // Compacted at an earlier instant, what was signed after it stays.
        #expect(ledger.compacted(asOf: Given.day(9.5)).count == 2 + 2 * 20)
    }

    /// A notification that carries no snapshot (TEST, from Sandbox) is reported in a Production rebuild: it stays.
    @Test func notificationWithoutSnapshotsIsKept() {
        var test = Given.notification(.test, signed: 1, environment: .sandbox)
        test.notificationUUID = "test-notification"
        let ledger = CustomerLedger(History(notifications: [test]))
        #expect(ledger.compacted(asOf: Given.day(1000)) == ledger)
        let codes = Set(ledger.compacted(asOf: Given.day(1000)).rebuild(asOf: Given.day(2)).diagnostics.map(\.code))
        #expect(codes == [.foreignEnvironment])
    }

    /// The notifications whose event a decision reads, or from which billingIssueDetectedAt and
    /// unsubscribeDetectedAt are read, are never compacted away, however old.
    @Test func eventNotificationsAreKept() {
        let transaction = Given.subscription("6001", from: 0, to: 30)
        let renewal = Given.renewal("6001", signed: 30)
        let events: [(NotificationType, NotificationSubtype?)] = [
            (.revoke, nil), (.expired, .voluntary), (.gracePeriodExpired, nil), (.didFailToRenew, .gracePeriod),
            (.didFailToRenew, nil), (.didChangeRenewalStatus, .autoRenewDisabled),
            (.didChangeRenewalStatus, .autoRenewEnabled),
        ]
        for (offset, (type, subtype)) in events.enumerated() {
            var ledger = CustomerLedger()
            let event = Given.notification(type, subtype, signed: 30, transaction: transaction, renewal: renewal)
            ledger.absorb(event)
            // A newer notification supersedes both snapshots the event carries.
            let signed = 40 + Double(offset)
            ledger.absorb(
                Given.notification(
                    .didRenew, signed: signed,
                    transaction: Given.subscription("6001", from: 0, to: 30, signed: signed),
                    renewal: Given.renewal("6001", signed: signed)))
            let compacted = ledger.compacted(asOf: Given.day(1000))
            #expect(compacted.notifications.contains(event), "\(type.rawValue)")
            #expect(compacted.count == 2, "\(type.rawValue)")
        }
        // A notification that only carries snapshots goes once they are superseded; its transaction, still the
        // newest of its own, is kept on its own. A renewal info held on its own does not supersede one carried by a
        // notification, which its wrapper's bundle id also gates: the newer notification does.
        var ledger = CustomerLedger()
        let renewed = Given.subscription("6002", original: "6001", from: 30, to: 60)
        let older = Given.notification(.didRenew, signed: 30, transaction: transaction, renewal: renewal)
        let newer = Given.notification(
            .didRenew, signed: 40, transaction: renewed, renewal: Given.renewal("6001", signed: 40))
        ledger.absorb(older)
        ledger.absorb(Given.renewal("6001", signed: 50))
        #expect(ledger.compacted(asOf: Given.day(1000)).notifications == [older])
        ledger.absorb(newer)
        let compacted = ledger.compacted(asOf: Given.day(1000))
        #expect(compacted.notifications == [newer])
        #expect(compacted.transactions == [transaction])
        #expect(ledger.compacted(asOf: Given.day(35)).notifications.count == 2, "the newer one is signed later")
    }
}

extension LedgerCompactionTests {
    /// Apple's status in a notification is the rebuild's to compare while it is the latest word on the chain: a
    /// notification that carries one is more than its snapshots, and stays when they are superseded.
    @Test("a notification stating Apple's status stays, though its snapshot is superseded")
    func notificationWithAppleStatusIsKept() {
        let bought = Given.subscription("6401", from: 0, to: 30, signed: 8)
        var subscribed = Given.notification(.subscribed, .initialBuy, signed: 10, transaction: bought)
        subscribed.data?.status = .expired
        let refunded = Given.subscription("6401", from: 0, to: 30, signed: 9) {
            $0.revocationDate = Given.day(9)
            $0.revocationType = .refundFull
        }
        let ledger = CustomerLedger(History(transactions: [refunded], notifications: [subscribed]))
        let compacted = ledger.compacted(asOf: Given.day(35))
        #expect(compacted.notifications.count == 1)
        for instant in [35.0, 40, 100] {
            let full = ledger.rebuild(asOf: Given.day(instant))
            #expect(full.diagnostics.map(\.code) == [.appleStatusDisagrees], "day \(instant)")
            #expect(DecisionSummary(compacted.rebuild(asOf: Given.day(instant))) == DecisionSummary(full))
        }
    }
}

extension LedgerCompactionTests {
    /// Compaction drops only what was signed by its instant: a notification signed after it stays whole, though its
    /// transaction is the newest snapshot and would be kept on its own.
    @Test("a notification signed after the compaction instant stays, with its transaction inside it")
    func notificationSignedAfterTheInstantIsKept() {
        let bought = Given.subscription("6402", from: 0, to: 30, signed: 5)
        var renewed = Given.notification(.didRenew, signed: 20, transaction: bought)
        renewed.notificationUUID = "signed-after-the-instant"
        let ledger = CustomerLedger(History(notifications: [renewed]))
        let compacted = ledger.compacted(asOf: Given.day(10))
        #expect(compacted.notifications == [renewed])
        #expect(compacted.transactions.isEmpty)
    }
}

extension Date {
    /// Whether a report could be asked about this instant: finite, within the years 1 to 9999.
    fileprivate var isReadableEdge: Bool {
        let milliseconds = timeIntervalSince1970 * 1000
        return milliseconds.isFinite && milliseconds > -62_135_769_600_000 && milliseconds <= 253_402_300_799_999
    }
}
