#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CustomerLedger {
    /// The ledger without what can no longer change a decision at or after `instant`.
    ///
    /// For every instant at or after `instant`, in every environment and with any catalog, the compacted ledger gives
    /// the same decision as this one (statuses, states, access, willRenew, revocation causes, entitlements and
    /// diagnostic codes; the evidence may name fewer notifications). It drops:
    ///
    /// - a snapshot superseded by one of the same transaction (or renewal info of the same chain) signed later, but by
    ///   `instant`, that is admitted exactly when it is (the same environment, bundle id, identity, type and
    ///   ownership, held the same way: on its own or inside a notification of the same environment and bundle id),
    ///   where both would be admitted in their own environment without any diagnostic;
    /// - a notification that only carries snapshots (at least one; no REVOKE, EXPIRED, GRACE_PERIOD_EXPIRED, DID_FAIL_TO_RENEW or
    ///   DID_CHANGE_RENEWAL_STATUS event, no Apple status in `data.status`, a type and subtype this library knows,
    ///   signed by `instant`, without any diagnostic on its own), once its renewal info is superseded; its
    ///   transaction, where still the newest, is kept on its own when the notification's environment and bundle id
    ///   are the transaction's;
    /// - Apple's status of a chain from Get All Subscription Statuses signed before the newest one signed by `instant`
    ///   of the same chain, environment and bundle id (the rebuild compares only the latest).
    ///
    /// It keeps everything else: snapshots signed after `instant` (a later snapshot may take access away), snapshots
    /// signed in the same millisecond as the newest (ties are settled and reported), snapshots without signedDate,
    /// anything that is left out or reported (a left-out snapshot makes older ones untrusted, and every diagnostic
    /// stays), and every notification whose event the rebuild reads or that states when billing failed or auto-renew
    /// was turned off. A compaction that keeps too much is safe; one that drops too much changes access.
    ///
    /// At an instant no rebuild decides at (not finite, or outside the years 1 to 9999) nothing is dropped.
    public func compacted(asOf instant: Date) -> CustomerLedger {
        // The instant as a rebuild takes it, through the one door to the rules' dates (rule 1 and rule 10).
        guard let instant = RuleInstant(instant: MillisecondDate.whole(instant, .down)) else { return self }
        var compaction = Compaction(ledger: self, instant: instant)
        return compaction.run()
    }
}

/// One run of `CustomerLedger.compacted(asOf:)`.
private struct Compaction {
    let ledger: CustomerLedger
    let instant: RuleInstant
    private var cleanTransactions: [TransactionPayload: Bool] = [:]
    private var cleanRenewalInfos: [RenewalInfoPayload: Bool] = [:]
    private var cleanNotifications: [NotificationPayload: Bool] = [:]

    init(ledger: CustomerLedger, instant: RuleInstant) {
        self.ledger = ledger
        self.instant = instant
    }

    /// How an entry is held: on its own, or inside a notification whose environment and bundle id also gate it.
    enum Gate: Hashable {
        case own
        case wrapper(Environment?, String?)
    }

    /// What must be equal for one transaction snapshot to stand for another at every instant.
    struct TransactionClass: Hashable {
        var transactionId: String?
        var originalTransactionId: String?
        var productId: String?
        var purchaseDate: Date?
        var type: ProductType?
        var ownership: OwnershipType?
        var environment: Environment?
        var bundleId: String?
        var gate: Gate

        init(_ transaction: TransactionPayload, gate: Gate) {
            transactionId = transaction.transactionId
            originalTransactionId = transaction.originalTransactionId
            productId = transaction.productId
            purchaseDate = transaction.purchaseDate
            type = transaction.type
            ownership = transaction.inAppOwnershipType
            environment = transaction.environment
            bundleId = transaction.bundleId
            self.gate = gate
        }
    }

    /// What must be equal for one of Apple's statuses to stand for another: only the latest is compared.
    struct StatusClass: Hashable {
        var originalTransactionId: String?
        var environment: Environment?
        var bundleId: String?

        init(_ snapshot: SubscriptionStatusSnapshot) {
            originalTransactionId = snapshot.originalTransactionId
            environment = snapshot.environment
            bundleId = snapshot.bundleId
        }
    }

    struct RenewalInfoClass: Hashable {
        var originalTransactionId: String?
        var environment: Environment?
        var gate: Gate

        init(_ renewalInfo: RenewalInfoPayload, gate: Gate) {
            originalTransactionId = renewalInfo.originalTransactionId
            environment = renewalInfo.environment
            self.gate = gate
        }
    }

    static func gate(of transaction: TransactionPayload, in data: NotificationData?) -> Gate {
        guard let data, !CustomerLedger.isTransparent(data, for: transaction) else { return .own }
        return .wrapper(data.environment, data.bundleId)
    }

    static func gate(in data: NotificationData?) -> Gate {
        data.map { .wrapper($0.environment, $0.bundleId) } ?? .own
    }

    /// The notification types whose event the rebuild reads, or from which later releases read when billing failed
    /// or auto-renew was turned off: never dropped.
    static let eventTypes: Set<NotificationType> = [
        .revoke, .expired, .gracePeriodExpired, .didFailToRenew, .didChangeRenewalStatus,
    ]

    mutating func run() -> CustomerLedger {
        // The newest signedDate, by `instant`, of a snapshot that stands for each class without any diagnostic.
        // Every date compared is read through `RuleInstant`: a clean entry's dates all are rules' dates.
        var newestTransaction: [TransactionClass: RuleInstant] = [:]
        var newestRenewalInfo: [RenewalInfoClass: RuleInstant] = [:]
        func offer<Key: Hashable>(_ key: Key, _ signed: Date?, to newest: inout [Key: RuleInstant]) {
            guard let signed = signed.ruleInstant, signed <= instant else { return }
            newest[key] = max(newest[key] ?? signed, signed)
        }
        for transaction in ledger.transactions where isClean(transaction) {
            offer(TransactionClass(transaction, gate: .own), transaction.signedDate, to: &newestTransaction)
        }
        for renewalInfo in ledger.renewalInfos where isClean(renewalInfo) {
            offer(
                RenewalInfoClass(renewalInfo, gate: .own), renewalInfo.signedDate, to: &newestRenewalInfo)
        }
        for notification in ledger.notifications where isClean(notification) {
            guard let data = notification.data else { continue }
            if let transaction = data.transactionInfo {
                offer(
                    TransactionClass(transaction, gate: Self.gate(of: transaction, in: data)), transaction.signedDate,
                    to: &newestTransaction)
            }
            if let renewalInfo = data.renewalInfo {
                offer(
                    RenewalInfoClass(renewalInfo, gate: Self.gate(in: data)), renewalInfo.signedDate,
                    to: &newestRenewalInfo)
            }
        }
        func superseded(_ transaction: TransactionPayload, gate: Gate) -> Bool {
            guard let signed = transaction.signedDate.ruleInstant,
                let newest = newestTransaction[TransactionClass(transaction, gate: gate)]
            else { return false }
            return signed < newest
        }
        func superseded(_ renewalInfo: RenewalInfoPayload, gate: Gate) -> Bool {
            guard let signed = renewalInfo.signedDate.ruleInstant,
                let newest = newestRenewalInfo[RenewalInfoClass(renewalInfo, gate: gate)]
            else { return false }
            return signed < newest
        }

        var transactions = Set(
            ledger.transactions.filter { !(isClean($0) && superseded($0, gate: .own)) })
        let renewalInfos = Set(
            ledger.renewalInfos.filter { !(isClean($0) && superseded($0, gate: .own)) })
        var notifications: Set<NotificationPayload> = []
        for notification in ledger.notifications {
            guard isDroppable(notification), let data = notification.data else {
                notifications.insert(notification)
                continue
            }
            if let renewalInfo = data.renewalInfo, !superseded(renewalInfo, gate: Self.gate(in: data)) {
                notifications.insert(notification)
                continue
            }
            guard let transaction = data.transactionInfo else { continue }
            if superseded(transaction, gate: Self.gate(of: transaction, in: data)) { continue }
            guard CustomerLedger.isTransparent(data, for: transaction) else {
                notifications.insert(notification)
                continue
            }
            // Still the newest snapshot of its transaction: kept on its own, where it is admitted alike.
            transactions.insert(transaction)
        }
        var compacted = CustomerLedger()
        compacted.replace(
            transactions: transactions, renewalInfos: renewalInfos, notifications: notifications,
            subscriptionStatuses: compactedStatuses())
        return compacted
    }

    /// Apple's statuses without those signed before the newest of their class signed by `instant`: those signed after
    /// it, the newest by it (every one of them, where several share the millisecond) and those without status or
    /// signedDate stay.
    private func compactedStatuses() -> Set<SubscriptionStatusSnapshot> {
        // A status whose signedDate no rule reads is skipped by the rebuild: it stays, and supersedes none.
        var newest: [StatusClass: RuleInstant] = [:]
        for snapshot in ledger.subscriptionStatuses where snapshot.status != nil {
            guard let signed = snapshot.signedDate.ruleInstant, signed <= instant else { continue }
            let key = StatusClass(snapshot)
            newest[key] = max(newest[key] ?? signed, signed)
        }
        return ledger.subscriptionStatuses.filter { snapshot in
            guard snapshot.status != nil, let signed = snapshot.signedDate.ruleInstant,
                let latest = newest[StatusClass(snapshot)]
            else { return true }
            return signed >= latest
        }
    }

    /// Whether a notification only carries snapshots, and may go once they are kept elsewhere or superseded.
    private mutating func isDroppable(_ notification: NotificationPayload) -> Bool {
        guard let type = notification.notificationType, type.isKnown, !Self.eventTypes.contains(type),
            notification.subtype?.isKnown ?? true, let signed = notification.signedDate.ruleInstant, signed <= instant,
            let data = notification.data, data.transactionInfo != nil || data.renewalInfo != nil,
            // Apple's status of the chain is compared while it is the latest word on it: more than a snapshot.
            data.status == nil
        else { return false }
        // One that carries no snapshot (a TEST, a SUMMARY) has nothing to stand for it in another environment, where
        // it is reported: it stays.
        return isClean(notification)
    }

    // MARK: Admitted without any diagnostic

    /// Whether the transaction, alone in its own environment, is admitted with nothing to report: then it is admitted
    /// in every rebuild of that environment that admits one like it, and reported alike in any other.
    private mutating func isClean(_ transaction: TransactionPayload) -> Bool {
        if let known = cleanTransactions[transaction] { return known }
        let clean = isQuiet(
            History(transactions: [transaction]), environment: transaction.environment,
            dates: [
                transaction.signedDate, transaction.purchaseDate, transaction.expiresDate,
            ])
        cleanTransactions[transaction] = clean
        return clean
    }

    private mutating func isClean(_ renewalInfo: RenewalInfoPayload) -> Bool {
        if let known = cleanRenewalInfos[renewalInfo] { return known }
        let clean = isQuiet(
            History(renewalInfos: [renewalInfo]), environment: renewalInfo.environment,
            dates: [
                renewalInfo.signedDate
            ])
        cleanRenewalInfos[renewalInfo] = clean
        return clean
    }

    private mutating func isClean(_ notification: NotificationPayload) -> Bool {
        if let known = cleanNotifications[notification] { return known }
        let data = notification.data
        let clean = isQuiet(
            History(notifications: [notification]), environment: data?.environment,
            dates: [
                notification.signedDate, data?.transactionInfo?.signedDate, data?.transactionInfo?.purchaseDate,
                data?.transactionInfo?.expiresDate, data?.renewalInfo?.signedDate,
            ])
        cleanNotifications[notification] = clean
        return clean
    }

    /// Whether rebuilding the history alone, in the environment, reports nothing at the compaction instant nor at
    /// any of the entry's own dates after it.
    private func isQuiet(_ history: History, environment: Environment?, dates: [Date?]) -> Bool {
        guard let environment else { return false }
        // A date no rule reads makes its entry impossible, which the rebuild at the instant reports.
        let instants = [instant] + dates.compactMap { $0.ruleInstant }.filter { $0 > instant }
        return instants.allSatisfy {
            rebuildEntitlements(history: history, asOf: $0.date, environment: environment).diagnostics.isEmpty
        }
    }
}
