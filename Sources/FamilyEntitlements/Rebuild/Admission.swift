#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The entries that may take part in the decision.
///
/// `transactions` starts as the history's own array, which is not copied unless notifications add to it; the
/// positions of those left out are in `excluded`. `dates` holds, position by position, the dates a rule may read of
/// each admitted transaction (none for one left out): a rule reads a transaction's dates there, never in its payload.
struct AdmittedEntries {
    var transactions: [TransactionPayload]
    var dates: [TransactionDates] = []
    /// The instant of evaluation: purchases after it are not noted as hidden.
    let instant: RebuildInstant
    var excluded: Set<Int> = []
    /// The boundaries of the history's transactions after the instant, where admission was asked to collect them.
    var transactionBoundaries: [(date: Date, reach: Staleness.Reach)]?
    /// The first admitted snapshot of each transaction id, taken as admission reads each payload; nil where a
    /// history's end lies at a fraction of a millisecond, since rule 1 compares snapshots at whole milliseconds.
    var firstSnapshots: FirstSnapshots?
    /// The entries of the admitted auto-renewable transactions, in the order of their positions, with the products and
    /// chains they name as numbers.
    var chainRecords: [ChainRecord] = []
    var products = ProductNumbers()
    var chains = ChainNumbers()
    var renewalInfos: [AdmittedRenewalInfo] = []
    /// The newest signedDate of the snapshots left out, by transaction id: they may carry a refund.
    var rejected: [String: RuleInstant] = [:]
    /// The newest signedDate of the renewal infos left out, by original transaction id: they may end billing retry.
    var rejectedRenewalInfos: [String: RuleInstant] = [:]
    /// The purchases of the transactions left out or not trusted: see `HiddenPurchases`.
    var hiddenPurchases: HiddenPurchases
    /// The facts notifications gave: the events that end access or grace, and which notifications carried what.
    var facts = NotificationFacts()
    /// The first bundle id the history names, and whether it names another, when the catalog names none.
    var bundleSeen = BundlesSeen()
    /// The positions of the admitted transactions without signedDate: rule 1 settles each against the dated
    /// snapshots of its transaction.
    var undated: [Int] = []
    /// The paths of the signed strings the history's notifications hold without their decoded contents: entries the
    /// rebuild cannot read, since it never decodes a signed string (rule 10).
    var undecoded: [String] = []
    /// Whether a transaction was left out because it could not be trusted (a newer snapshot left out, impossible
    /// values, a type the catalog contradicts): the customer still named a purchase, so is never `new`.
    var hasUntrustedTransactions = false

    init(transactions: [TransactionPayload], instant: RebuildInstant) {
        (self.transactions, self.instant) = (transactions, instant)
        hiddenPurchases = HiddenPurchases(instant: instant)
    }
}

/// The latest purchase, by the instant, of a transaction that takes no part in its original transaction id's chain
/// (left out, not trusted, an older snapshot, or a one-time purchase of the same id), by original transaction id: the
/// chain's renewal info may describe that one rather than the newest transaction of the chain that takes part (rule 2).
struct HiddenPurchases {
    let instant: RebuildInstant
    private var latest: [String: RuleInstant] = [:]

    init(instant: RebuildInstant) { self.instant = instant }

    var isEmpty: Bool { latest.isEmpty }

    subscript(originalId: String) -> RuleInstant? { latest[originalId] }

    /// Notes a transaction's purchase: one after the instant hides nothing yet. Keeps the latest of each original
    /// transaction id, in one lookup: the slot is updated in place.
    mutating func note(_ purchase: RuleInstant, of originalId: String) {
        guard instant.hasCome(purchase) else { return }
        Self.keepLatest(purchase, in: &latest[originalId, default: purchase])
    }

    private static func keepLatest(_ date: RuleInstant, in slot: inout RuleInstant) {
        if slot < date { slot = date }
    }
}

/// The first admitted snapshot of each transaction id in the history's order, noted while admission reads each payload
/// (a long history's payloads are far larger than the caches, so reading them once more for the newest snapshots would
/// fetch each from memory again). `NewestSnapshots` then offers only the other snapshots, in order, as if it had seen
/// every one: for each transaction id, its first snapshot comes before the others either way.
///
/// Keyed by the ids' values (`TransactionKey.value(of:)`), each beside its position (`NumberedPositions`): a key holds
/// no string, so the table is freed without visiting its keys, and an insert fetches one line of memory. A history with
/// an id of any other form is left to the general path.
struct FirstSnapshots {
    /// The position of each transaction id's first snapshot, by the id's value.
    var positions: NumberedPositions
    /// The positions of the snapshots whose transaction id an earlier one has, in order: usually none.
    private(set) var others: [Int] = []
    /// The positions of the first snapshots signed after the instant, in order.
    private(set) var signedAfterInstant: [Int] = []

    /// How many transactions the history holds: the positions after them are of transactions notifications added.
    let historyCount: Int
    /// Whether an admitted transaction id is not a decimal without leading zeros: the snapshots are then not keyed here.
    private(set) var namesOtherIds = false

    init(historyCount: Int) {
        self.historyCount = historyCount
        positions = NumberedPositions(minimumCapacity: historyCount)
    }

    /// Notes the admitted snapshot at `index`, read in place: inlined into admission's loop over the history.
    @inline(__always)
    mutating func offer(
        _ transaction: PayloadView, at index: Int, signed: RuleInstant?, instant: RebuildInstant
    ) {
        guard !namesOtherIds, let transactionId = transaction.transactionId else { return }
        guard let id = TransactionKey.value(of: transactionId) else {
            namesOtherIds = true
            return
        }
        // One lookup for an id seen first, as most are.
        if positions.insert(index, forKey: id) != nil {
            others.append(index)
        } else if let signed, instant.precedes(signed) {
            signedAfterInstant.append(index)
        }
    }
}

extension AdmittedEntries {
    /// The positions of the admitted transactions.
    var admittedIndices: [Int] {
        excluded.isEmpty ? Array(transactions.indices) : transactions.indices.filter { !excluded.contains($0) }
    }

    /// Notes a snapshot left out, so that an older one kept is not trusted where this one might have spoken for the
    /// instant (rule 1). One whose signedDate cannot be read as a date (NaN, outside the range of `RuleDates`), or
    /// one `untrusted` for its impossible values, counts as the newest of all: what it names is not trusted (rule 10).
    mutating func reject(_ transaction: TransactionPayload, untrusted: Bool = false) {
        hide(transaction)
        guard let transactionId = transaction.transactionId else { return }
        let signed = Self.placement(of: transaction.signedDate, untrusted: untrusted)
        rejected[transactionId] = max(rejected[transactionId] ?? signed, signed)
    }

    /// Where a snapshot left out stands among the snapshots kept: at its signedDate where a rule could read it, the
    /// oldest where it has none, and after every one where its date or its values are impossible.
    private static func placement(of signed: Date?, untrusted: Bool) -> RuleInstant {
        guard !untrusted else { return .distantFuture }
        guard let signed else { return .distantPast }
        return RuleInstant(signed) ?? .distantFuture
    }

    /// Notes that the snapshot of `transaction` said it was revoked without a revocationDate, which admission gave it
    /// from its signedDate: its cause is inferred.
    mutating func noteImpliedRevocation(of transaction: TransactionPayload) {
        guard let transactionId = transaction.transactionId, let originalId = transaction.originalTransactionId else {
            return
        }
        facts.events[originalId, default: []].impliedRevocations.insert(transactionId)
    }

    /// Notes the purchase of a transaction left out, read from its payload: a purchase a rule cannot read (rule 10)
    /// was never made, and hides nothing.
    mutating func hide(_ transaction: borrowing TransactionPayload) {
        hide(transaction, purchased: transaction.purchaseDate.ruleInstant)
    }

    /// Notes the purchase of a transaction that was admitted, whose purchase admission read, and takes no part.
    mutating func hide(_ transaction: borrowing TransactionPayload, purchased purchase: RuleInstant?) {
        guard let originalId = transaction.originalTransactionId, let purchase else { return }
        hiddenPurchases.note(purchase, of: originalId)
    }

    /// Notes a renewal info left out, as `reject(_:untrusted:)` notes a transaction.
    mutating func reject(_ renewalInfo: RenewalInfoPayload, untrusted: Bool = false) {
        guard let originalId = renewalInfo.originalTransactionId else { return }
        let signed = Self.placement(of: renewalInfo.signedDate, untrusted: untrusted)
        rejectedRenewalInfos[originalId] = max(rejectedRenewalInfos[originalId] ?? signed, signed)
    }
}

/// Stage 1 of the rebuild, rules 9 and 10 (and rule 1's snapshots left out): keeps the entries of the rebuild's
/// environment and app that carry what the rebuild needs, reports the rest, and gathers the notifications' events.
struct Admission: RebuildStage {
    let scope: RebuildScope

    /// Keeps the entries of the rebuild's environment that carry what the rebuild needs, and notes the rest. Where
    /// `staleness` is given, collects in `transactionBoundaries` the boundaries of the history's transactions for its
    /// plan as each payload is read, so that a long history's payloads, far larger than the caches, are read once.
    func admit(
        _ history: History, collectingBoundariesFor staleness: Staleness? = nil, log: inout DiagnosticsLog
    ) -> AdmittedEntries {
        let boundaries = staleness.map(Staleness.BoundaryReader.init)
        var collected: [(date: Date, reach: Staleness.Reach)] = []
        var fractional: [Int] = []
        var first = FirstSnapshots(historyCount: history.transactions.count)
        var impliedRevocations: [(index: Int, date: RuleInstant)] = []
        // Read in place: copying each payload out of the array would retain every one of its strings. The entries are
        // made inside the closure and returned from it, so that they are moved out rather than copied.
        var admitted = PayloadStore.reading(history.transactions) { store in
            var admitted = AdmittedEntries(transactions: history.transactions, instant: instant)
            admitted.dates.reserveCapacity(store.count + history.notifications.count)
            for index in store.indices {
                // Every entry's dates, admitted or not: one left out may still decide at a later instant (rule 1).
                boundaries?.add(store[index]) { collected.append(($0, $1)) }
                let verdict = admission(
                    of: store[index], what: "transaction \(store[index].id)", &admitted, log: &log)
                guard case .takesPart(var dates) = verdict else {
                    admitted.dates.append(TransactionDates())
                    admitted.excluded.insert(index)
                    admitted.reject(store[index].copy, untrusted: verdict.isImpossible)
                    continue
                }
                let isFractional = dates.hasFractionalEnds
                if isFractional {
                    fractional.append(index)
                    dates.takeEndsDown()
                }
                first.offer(store[index], at: index, signed: dates.signed, instant: instant)
                if dates.signed == nil { admitted.undated.append(index) }
                if let implied = dates.impliedRevocation(saysRevoked: store[index].saysRevoked) {
                    impliedRevocations.append((index, implied))
                    dates.revoke(at: implied)
                }
                admitted.dates.append(dates)
                noteChained(
                    store[index], at: index, dates: dates, in: &admitted,
                    reserving: store.count - index + history.notifications.count)
            }
            return admitted
        }
        if staleness != nil { admitted.transactionBoundaries = collected }
        // Rule 1 compares snapshots at whole milliseconds: where an end is taken down, the newest snapshots are found
        // after it, from every snapshot; so they are where an id is not a number.
        if fractional.isEmpty, !first.namesOtherIds { admitted.firstSnapshots = first }
        // Rule 1: ends and revocations are decided at whole milliseconds, taken down; the history keeps them as sent.
        for index in fractional { admitted.transactions[index].takeEndsDown() }
        for (index, date) in impliedRevocations {
            admitted.transactions[index].revocationDate = date.date
            admitted.noteImpliedRevocation(of: admitted.transactions[index])
        }
        for renewalInfo in history.renewalInfos {
            admit(renewalInfo, what: "renewal info", into: &admitted, log: &log)
        }
        for (index, notification) in history.notifications.enumerated() {
            admit(notification, at: index, into: &admitted, log: &log)
        }
        for snapshot in history.subscriptionStatuses {
            admit(snapshot, into: &admitted, log: &log)
        }
        return admitted
    }

    /// Notes Apple's status from a Get All Subscription Statuses item of this environment and app, for the
    /// cross-check of the rebuilt state, dated by the item's signed strings; it never changes a state. One of another
    /// environment or app is reported like any entry; one without status, chain or signedDate says nothing to compare.
    private func admit(
        _ snapshot: SubscriptionStatusSnapshot, into admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) {
        let name =
            "Apple's status in Get All Subscription Statuses of original transaction "
            + (snapshot.originalTransactionId ?? "(none)")
        guard admits(snapshot.environment, what: name, log: &log),
            admits(bundleId: snapshot.bundleId, what: name, &admitted, log: &log),
            let status = snapshot.status, let originalId = snapshot.originalTransactionId
        else { return }
        // Statuses never grant: one that cannot be placed in time, or is dated where no rule may read, is skipped.
        guard let date = snapshot.signedDate else {
            log.report(.undatedEntry, "\(name) has no signedDate, so it cannot be compared with the rebuild; skipped")
            return
        }
        guard let signed = RuleInstant(date) else {
            reportImpossible([RuleDates.problem("signedDate", date)].compactMap { $0 }, what: name, log: &log)
            return
        }
        admitted.facts.appleStatuses[originalId, default: []].append(
            AppleStatusNotice(
                status: status, signed: signed,
                source: .subscriptionStatuses(group: snapshot.subscriptionGroupIdentifier)))
    }

    /// Notes the entry of an admitted transaction, read in place, where it is auto-renewable by its own type, or by its
    /// product's in the catalog where it gives none, numbering its product and its chain; `dates` are the ones admission
    /// made of it. The first entry reserves room for `count`, as many as may follow it, so that a long history's
    /// entries are never copied as they grow.
    private func noteChained(
        _ transaction: PayloadView, at index: Int, dates: TransactionDates,
        in admitted: inout AdmittedEntries, reserving count: Int
    ) {
        let type =
            transaction.type
            ?? (catalogProducts.isEmpty
                ? nil : transaction.productId.flatMap { catalogProducts[ProductID($0)]?.type })
        // Admission keeps no transaction without both ids.
        guard type == .autoRenewable, let productId = transaction.productId,
            let originalId = transaction.originalTransactionId
        else { return }
        let chain = admitted.chains.number(of: originalId)
        // A chain usually renews the product it named last: compared first, before any hashing.
        let product = admitted.products.number(of: productId, guess: admitted.chains.lastProducts[chain])
        admitted.chains.lastProducts[chain] = product
        if admitted.chainRecords.isEmpty { admitted.chainRecords.reserveCapacity(count) }
        admitted.chainRecords.append(
            ChainRecord(
                index: index, product: product, chain: chain, dates: dates, isUpgraded: transaction.isUpgraded == true))
    }

    /// What admission makes of an entry: it takes part, it is left out (another environment or app, incomplete, a
    /// type the catalog contradicts), or it carries values no real payload carries, so that what it names is not
    /// trusted either (rule 10).
    enum Verdict {
        /// Takes part, with the dates a rule may read of it.
        case takesPart(TransactionDates)
        case leftOut, impossible

        var isImpossible: Bool {
            if case .impossible = self { return true }
            return false
        }
    }

    /// Whether a transaction may take part: of the rebuild's environment and app, complete, possible and agreeing with
    /// the catalog; reports it when not, and reports an ownership this library does not know. The one check of a
    /// transaction: `TransactionFindings` makes every check once, reading the payload in place field by field (a copy
    /// of the payload would retain each of its strings), and only a finding is put into words, by `report`.
    private func admission(
        of transaction: PayloadView, what: @autoclosure () -> String,
        _ admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) -> Verdict {
        let findings = self.findings(of: transaction)
        // Without a catalog bundle id, the bundle ids of the entries of this environment are noted, so that a history
        // mixing apps is reported.
        if catalog?.bundleId == nil, !findings.contains(.missingEnvironment), !findings.contains(.foreignEnvironment) {
            admitted.bundleSeen.note(transaction.bundleId)
        }
        guard !findings.isEmpty else { return .takesPart(findings.dates) }
        return report(findings, of: transaction, what: what(), &admitted, log: &log)
    }

    /// Every check of a transaction, made once, reading the payload in place and making no message.
    private func findings(of transaction: PayloadView) -> TransactionFindings {
        var found: TransactionFindings.Kind = []
        if transaction.environment == nil {
            found.insert(.missingEnvironment)
        } else if transaction.environment != environment {
            found.insert(.foreignEnvironment)
        }
        if let expected = catalog?.bundleId, transaction.bundleId != expected {
            found.insert(.foreignBundle)
        }
        if transaction.transactionId == nil || transaction.originalTransactionId == nil
            || transaction.productId == nil || transaction.purchaseDate == nil
        {
            found.insert(.incomplete)
        }
        let (impossibility, dates) = Impossibility.parse(transaction)
        if !impossibility.isEmpty { found.insert(.impossible) }
        // Without a catalog's product there is nothing to disagree with: no product id is hashed.
        if !catalogProducts.isEmpty, let type = transaction.type,
            let productId = transaction.productId,
            let catalogType = catalogProducts[ProductID(productId)]?.type, type != catalogType
        {
            found.insert(.catalogTypeMismatch)
        }
        if let ownership = transaction.inAppOwnershipType, !ownership.isKnown {
            found.insert(.unknownOwnership)
        }
        return TransactionFindings(found, impossibility: impossibility, dates: dates)
    }

    /// Reports what `findings` found in a transaction, in the order of the checks, and what admission makes of it:
    /// another environment or app, or an incomplete transaction, is left out with that report alone; then impossible
    /// values; then a type the catalog contradicts; an unknown ownership is reported and takes part.
    private func report(
        _ findings: TransactionFindings, of transaction: PayloadView, what: String,
        _ admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) -> Verdict {
        if findings.contains(.missingEnvironment) || findings.contains(.foreignEnvironment) {
            reportEnvironment(of: transaction.environment, what: what, log: &log)
            return .leftOut
        }
        if findings.contains(.foreignBundle) {
            reportForeignBundle(transaction.bundleId, what: what, log: &log)
            return .leftOut
        }
        if findings.contains(.incomplete) {
            let missing = [
                transaction.transactionId == nil ? "transactionId" : nil,
                transaction.originalTransactionId == nil ? "originalTransactionId" : nil,
                transaction.productId == nil ? "productId" : nil,
                transaction.purchaseDate == nil ? "purchaseDate" : nil,
            ].compactMap { $0 }
            log.report(.incompleteTransaction, "\(what) has no \(missing.joined(separator: ", ")); it grants nothing")
            return .leftOut
        }
        if !findings.impossibility.isEmpty {
            reportImpossible(findings.impossibility.described(transaction), what: what, log: &log)
            admitted.hasUntrustedTransactions = true
            return .impossible
        }
        if findings.contains(.catalogTypeMismatch), let type = transaction.type,
            let productId = transaction.productId,
            let catalogType = catalogProducts[ProductID(productId)]?.type
        {
            log.report(
                .catalogTypeMismatch,
                "\(what) is of type \(type.rawValue), but the catalog says \(productId) is \(catalogType.rawValue); "
                    + "one of them is wrong, so it grants nothing")
            admitted.hasUntrustedTransactions = true
            return .leftOut
        }
        if findings.contains(.unknownOwnership), let ownership = transaction.inAppOwnershipType {
            log.report(
                .unknownOwnership,
                "\(what) has inAppOwnershipType \"\(ownership.rawValue)\", which this library does not know; it "
                    + "counts where its fields allow, without the right to manage the subscription")
        }
        return .takesPart(findings.dates)
    }

    private func admit(
        _ renewalInfo: RenewalInfoPayload, what: @autoclosure () -> String, into admitted: inout AdmittedEntries,
        log: inout DiagnosticsLog
    ) {
        let original = renewalInfo.originalTransactionId
        guard
            admits(
                renewalInfo.environment, what: "\(what()) of original transaction \(original ?? "(none)")", log: &log)
        else {
            admitted.reject(renewalInfo)
            return
        }
        guard let original else {
            log.report(.incompleteTransaction, "\(what()) has no originalTransactionId; it is left out")
            return
        }
        let impossible = [
            original.isEmpty ? "an empty originalTransactionId" : nil,
            RuleDates.problem("signedDate", renewalInfo.signedDate),
            RuleDates.problem("gracePeriodExpiresDate", renewalInfo.gracePeriodExpiresDate),
        ].compactMap { $0 }
        guard impossible.isEmpty else {
            reportImpossible(impossible, what: "\(what()) of original transaction \(original)", log: &log)
            admitted.reject(renewalInfo, untrusted: true)
            return
        }
        admitted.renewalInfos.append(AdmittedRenewalInfo(renewalInfo))
    }

    private func admit(
        _ notification: NotificationPayload, at index: Int, into admitted: inout AdmittedEntries,
        log: inout DiagnosticsLog
    ) {
        let type = notification.notificationType ?? NotificationType(rawValue: "")
        let mention = NotificationMention(
            type: type, subtype: notification.subtype, signedDate: notification.signedDate,
            notificationUUID: notification.notificationUUID)
        let name = "\(mention.label) notification \(notification.notificationUUID ?? "(no notificationUUID)")"
        if !type.isKnown {
            log.report(
                .unknownNotificationType,
                "\(name) has notificationType \"\(type.rawValue)\", which this library does not know; its "
                    + "transaction and renewal info were still evaluated")
        }
        if let subtype = notification.subtype, !subtype.isKnown {
            log.report(
                .unknownNotificationSubtype,
                "\(name) has subtype \"\(subtype.rawValue)\", which this library does not know; its transaction "
                    + "and renewal info were still evaluated")
        }
        guard let data = notification.data else { return }
        // Rule 1: a notification without signedDate is placed by its nested payloads' (signed when it was), and a
        // nested payload without one by its notification's.
        let placed = notification.signedDate.ruleInstant ?? Self.newestSignedDate(of: data)
        guard admits(data.environment, what: name, log: &log),
            admits(bundleId: data.bundleId, what: name, &admitted, log: &log)
        else {
            // Left out where it stands in time, so that a snapshot it would have replaced is not trusted either.
            if var transaction = data.transactionInfo {
                if transaction.signedDate == nil { transaction.signedDate = placed?.date }
                admitted.reject(transaction)
            }
            if var renewalInfo = data.renewalInfo {
                if renewalInfo.signedDate == nil { renewalInfo.signedDate = placed?.date }
                admitted.reject(renewalInfo)
            }
            return
        }
        // Rule 10: a signed string without its decoded contents was never read, so it might name any chain.
        if data.signedTransactionInfo != nil, data.transactionInfo == nil {
            admitted.undecoded.append("notifications[\(index)].data.signedTransactionInfo")
        }
        if data.signedRenewalInfo != nil, data.renewalInfo == nil {
            admitted.undecoded.append("notifications[\(index)].data.signedRenewalInfo")
        }
        // Rule 10: a signedDate no real notification carries makes it impossible, and what it names is not trusted.
        if let problem = RuleDates.problem("signedDate", notification.signedDate) {
            reportImpossible([problem], what: name, log: &log)
            if let transaction = data.transactionInfo {
                admitted.reject(transaction, untrusted: true)
                admitted.hasUntrustedTransactions = true
            }
            if let renewalInfo = data.renewalInfo { admitted.reject(renewalInfo, untrusted: true) }
            return
        }
        let ends = Self.endingTypes.contains(type)
        if placed == nil, !ends {
            // A notification that grants and cannot be placed in time never grants: its nested entries are left out.
            log.report(
                .undatedEntry,
                "\(name) has no signedDate, nor do the transaction and renewal info it carries, so it cannot be placed "
                    + "in time; what it carries grants nothing")
            if let transaction = data.transactionInfo {
                admitted.hide(transaction)
                admitted.hasUntrustedTransactions = true
            }
            return
        }
        if var transaction = data.transactionInfo {
            if transaction.signedDate == nil { transaction.signedDate = placed?.date }
            let verdict = PayloadView.reading(transaction) {
                admission(of: $0, what: "transaction \(transaction.id) in \(name)", &admitted, log: &log)
            }
            if case .takesPart(var dates) = verdict {
                // Admitted as sent, as a history's transaction is; then revoked where it says so without a date.
                let implied = dates.impliedRevocation(saysRevoked: transaction.saysRevoked)
                if let implied {
                    transaction.revocationDate = implied.date
                    dates.revoke(at: implied)
                }
                transaction.takeEndsDown()
                dates.takeEndsDown()
                let index = admitted.transactions.count
                PayloadView.reading(transaction) {
                    noteChained($0, at: index, dates: dates, in: &admitted, reserving: 1)
                }
                admitted.transactions.append(transaction)
                admitted.dates.append(dates)
                if dates.signed == nil { admitted.undated.append(index) }
                if implied != nil { admitted.noteImpliedRevocation(of: transaction) }
                if let transactionId = transaction.transactionId {
                    admitted.facts.notifications[transactionId, default: []].insert(mention)
                }
            } else {
                admitted.reject(transaction, untrusted: verdict.isImpossible)
            }
        }
        if var renewalInfo = data.renewalInfo {
            if renewalInfo.signedDate == nil { renewalInfo.signedDate = placed?.date }
            admit(renewalInfo, what: "renewal info in \(name)", into: &admitted, log: &log)
        }
        recordEvent(of: notification, placed: placed, mention: mention, data: data, into: &admitted.facts, log: &log)
        if let placed {
            recordRenewalNotice(of: notification, signed: placed, data: data, into: &admitted.facts)
        }
    }

    /// The notification types that only end access or grace: one that cannot be placed in time still ends what it
    /// names, from the purchase of the transaction it carries.
    static let endingTypes: Set<NotificationType> = [.revoke, .refund, .expired, .gracePeriodExpired]

    /// The newest signedDate of a notification's nested payloads that a rule may read: the notification's own date
    /// where it has none, since Apple signs them together.
    private static func newestSignedDate(of data: NotificationData) -> RuleInstant? {
        [data.transactionInfo?.signedDate.ruleInstant, data.renewalInfo?.signedDate.ruleInstant].compactMap { $0 }.max()
    }

    /// Notes a DID_FAIL_TO_RENEW or DID_CHANGE_RENEWAL_STATUS, for the entitlement's billing issue and unsubscribe
    /// dates, and Apple's `data.status`, for the cross-check of the rebuilt state; neither changes a state.
    private func recordRenewalNotice(
        of notification: NotificationPayload, signed: RuleInstant, data: NotificationData,
        into facts: inout NotificationFacts
    ) {
        let kind: RenewalNotice.Kind?
        switch (notification.notificationType, notification.subtype) {
        case (.didFailToRenew?, _): kind = .billingIssue
        case (.didChangeRenewalStatus?, .autoRenewDisabled?): kind = .autoRenewDisabled
        case (.didChangeRenewalStatus?, .autoRenewEnabled?): kind = .autoRenewEnabled
        default: kind = nil
        }
        guard kind != nil || data.status != nil else { return }
        // As for the events: a wrapper's nested entries of another environment or app say nothing of this one.
        let nestedAdmitted =
            (data.transactionInfo.map { admits($0.environment) && isOfTheApp($0.bundleId) } ?? true)
            && (data.renewalInfo.map { admits($0.environment) } ?? true)
        guard nestedAdmitted,
            let originalId = data.transactionInfo?.originalTransactionId ?? data.renewalInfo?.originalTransactionId
        else { return }
        if let status = data.status {
            facts.appleStatuses[originalId, default: []].append(
                AppleStatusNotice(status: status, signed: signed, source: .notification(notification.mention)))
        }
        if let kind {
            facts.renewalNotices[originalId, default: []].append(RenewalNotice(kind: kind, signed: signed))
        }
    }

    /// Notes a REVOKE without revocationDate, an EXPIRED or a GRACE_PERIOD_EXPIRED as an event of its chain, at
    /// `placed`, the notification's signedDate or its nested payloads'. One that cannot be placed still ends what it
    /// names: it is dated by the purchase of the transaction it carries, the earliest it could speak for, and reported.
    private func recordEvent(
        of notification: NotificationPayload, placed: RuleInstant?, mention: NotificationMention,
        data: NotificationData,
        into facts: inout NotificationFacts, log: inout DiagnosticsLog
    ) {
        let (type, name) = (mention.type, mention.name)
        let kind: ChainEvent.Kind
        switch type {
        case .revoke:
            guard let transaction = data.transactionInfo, transaction.revocationDate == nil else { return }
            kind = .revoke(RevocationCauses(scope: scope).cause(ofRevoke: name, carrying: transaction, log: &log))
        case .expired: kind = .expired
        case .gracePeriodExpired: kind = .gracePeriodExpired
        default: return
        }
        guard
            let originalId = data.transactionInfo?.originalTransactionId ?? data.renewalInfo?.originalTransactionId,
            data.transactionInfo.map({ admits($0.environment) && isOfTheApp($0.bundleId) }) ?? true,
            data.renewalInfo.map({ admits($0.environment) }) ?? true
        else { return }
        // A purchase a rule cannot read (rule 10) dates nothing: its transaction is left out as impossible.
        let purchase = data.transactionInfo?.purchaseDate.ruleInstant
        guard let date = placed ?? purchase else {
            log.report(
                .undatedEntry,
                "\(name) has no signedDate, nor a transaction whose purchase would date it, so the rebuild cannot "
                    + "tell when it took effect; it is left out")
            return
        }
        if placed == nil {
            log.report(
                .undatedEntry,
                "\(name) has no signedDate, nor do the payloads it carries, so it cannot be placed in time; it ends "
                    + "what it names from the purchase of transaction \(data.transactionInfo?.id ?? "(none)")")
        }
        // An event ends or revokes: at its signedDate's whole millisecond, taken down (rule 1).
        facts.events[originalId, default: []].append(
            ChainEvent(kind: kind, signed: date.whole(.down), notification: mention))
    }

    /// Whether an entry of this environment may take part; reports it when not.
    private func admits(
        _ entryEnvironment: Environment?, what: @autoclosure () -> String, log: inout DiagnosticsLog
    ) -> Bool {
        guard entryEnvironment != environment else { return true }
        reportEnvironment(of: entryEnvironment, what: what(), log: &log)
        return false
    }

    /// Reports an entry without an environment, or of another environment than the rebuild's.
    private func reportEnvironment(of entryEnvironment: Environment?, what: String, log: inout DiagnosticsLog) {
        guard let entryEnvironment else {
            log.report(.missingEnvironment, "\(what) has no environment; it grants nothing")
            return
        }
        let message =
            environment == .production && entryEnvironment == .sandbox
            ? "\(what) is from Sandbox in a Production history: an attack or a bug, not a purchase; it grants "
                + "nothing"
            : "\(what) is from \(entryEnvironment.rawValue), not \(environment.rawValue); it grants nothing"
        log.report(.foreignEnvironment, message)
    }

    private func admits(_ entryEnvironment: Environment?) -> Bool {
        entryEnvironment == environment
    }

    /// Whether an entry's bundle id is the catalog's, where the catalog names one.
    private func isOfTheApp(_ bundleId: String?) -> Bool {
        guard let expected = catalog?.bundleId else { return true }
        return bundleId == expected
    }

    /// Whether an entry of this bundle id may take part; reports it when not. Without a catalog bundle id, notes the
    /// bundle ids seen, so that a history mixing apps is reported.
    private func admits(
        bundleId: String?, what: @autoclosure () -> String, _ admitted: inout AdmittedEntries,
        log: inout DiagnosticsLog
    ) -> Bool {
        guard catalog?.bundleId != nil else {
            admitted.bundleSeen.note(bundleId)
            return true
        }
        guard !isOfTheApp(bundleId) else { return true }
        reportForeignBundle(bundleId, what: what(), log: &log)
        return false
    }

    /// Reports an entry of another bundle id than the catalog's.
    private func reportForeignBundle(_ bundleId: String?, what: String, log: inout DiagnosticsLog) {
        log.report(
            .foreignBundle,
            "\(what) is of bundle id \(bundleId.map { "\"\($0)\"" } ?? "(none)"), not the catalog's "
                + "\"\(catalog?.bundleId ?? "")\"; it grants nothing")
    }

    private func reportImpossible(_ values: [String], what: String, log: inout DiagnosticsLog) {
        log.report(
            .impossibleValue,
            "\(what) has \(values.joined(separator: ", ")), which no real payload carries; it grants nothing")
    }
}

/// What admission finds in a transaction (rules 5 and 10): each check made once, reading the payload in place and
/// making no message, so that the common case, a transaction with nothing to report, costs a few comparisons. Empty
/// where the transaction takes part with nothing to report; `Admission.report` puts a finding into words.
struct TransactionFindings {
    struct Kind: OptionSet {
        let rawValue: UInt8

        static let missingEnvironment = Kind(rawValue: 1 << 0)
        static let foreignEnvironment = Kind(rawValue: 1 << 1)
        /// Of another bundle id than the catalog's.
        static let foreignBundle = Kind(rawValue: 1 << 2)
        /// Without transactionId, originalTransactionId, productId or purchaseDate.
        static let incomplete = Kind(rawValue: 1 << 3)
        /// With values no real payload carries, which `impossibility` names.
        static let impossible = Kind(rawValue: 1 << 4)
        /// Of a type the catalog's product contradicts.
        static let catalogTypeMismatch = Kind(rawValue: 1 << 5)
        /// Of an inAppOwnershipType this library does not know: reported, and still takes part.
        static let unknownOwnership = Kind(rawValue: 1 << 6)
    }

    /// What was found.
    let kinds: Kind
    /// The impossible values found (rule 10), where `kinds` holds `impossible`.
    let impossibility: Impossibility
    /// The dates a rule may read of the transaction, where it takes part.
    let dates: TransactionDates

    var isEmpty: Bool { kinds.isEmpty }

    func contains(_ kind: Kind) -> Bool { kinds.contains(kind) }

    init(_ kinds: Kind, impossibility: Impossibility, dates: TransactionDates) {
        (self.kinds, self.impossibility, self.dates) = (kinds, impossibility, dates)
    }
}

/// The bundle ids an entry named, where the catalog names none: the first, and whether another was named.
struct BundlesSeen {
    private(set) var first: String?
    private(set) var mixed = false

    mutating func note(_ bundleId: String?) {
        guard let bundleId else { return }
        if first == nil {
            first = bundleId
        } else if first != bundleId {
            mixed = true
        }
    }
}

extension TransactionPayload {
    /// Whether the snapshot says it is revoked, by a revocationReason or a revocationType (rule 7).
    var saysRevoked: Bool { revocationReason != nil || revocationType != nil }

    /// Takes expiresDate and revocationDate down to their whole milliseconds, in the direction that never grants.
    mutating func takeEndsDown() {
        if let expires = expiresDate { expiresDate = MillisecondDate.whole(expires, .down) }
        if let revoked = revocationDate { revocationDate = MillisecondDate.whole(revoked, .down) }
    }
}

/// What makes a transaction impossible (rule 10), each check made once, reading the payload in place and making no
/// message: the common case, a possible transaction, costs a few comparisons. Dates are ordered only once `RuleDates`
/// holds them, so that NaN never reaches a comparison.
struct Impossibility: OptionSet {
    let rawValue: UInt16

    static let emptyTransactionId = Impossibility(rawValue: 1 << 0)
    static let emptyOriginalTransactionId = Impossibility(rawValue: 1 << 1)
    static let emptyProductId = Impossibility(rawValue: 1 << 2)
    static let purchaseUnreadable = Impossibility(rawValue: 1 << 3)
    static let signedUnreadable = Impossibility(rawValue: 1 << 4)
    static let expiresUnreadable = Impossibility(rawValue: 1 << 5)
    static let revocationUnreadable = Impossibility(rawValue: 1 << 6)
    static let expiresBeforePurchase = Impossibility(rawValue: 1 << 7)
    static let revocationBeforePurchase = Impossibility(rawValue: 1 << 8)
    static let revocationAfterSigned = Impossibility(rawValue: 1 << 9)
    static let noQuantity = Impossibility(rawValue: 1 << 10)
    static let negativePrice = Impossibility(rawValue: 1 << 11)

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The impossible values of `transaction`, read in place, and the dates a rule may read of it (`TransactionDates`):
    /// the one place a transaction's dates become `RuleInstant`s, so that a date is checked once, here.
    @inline(__always)
    static func parse(_ transaction: PayloadView) -> (Impossibility, TransactionDates) {
        var flags: Impossibility = []
        if transaction.transactionId?.isEmpty == true { flags.insert(.emptyTransactionId) }
        if transaction.originalTransactionId?.isEmpty == true { flags.insert(.emptyOriginalTransactionId) }
        if transaction.productId?.isEmpty == true { flags.insert(.emptyProductId) }
        let dates = TransactionDates(
            purchase: transaction.purchaseDate.ruleInstant,
            expires: transaction.expiresDate.ruleInstant,
            revocation: transaction.revocationDate.ruleInstant,
            signed: transaction.signedDate.ruleInstant)
        if dates.purchase == nil, transaction.purchaseDate != nil { flags.insert(.purchaseUnreadable) }
        if dates.signed == nil, transaction.signedDate != nil { flags.insert(.signedUnreadable) }
        if transaction.expiresDate != nil {
            if let expires = dates.expires {
                if let purchase = dates.purchase, expires < purchase { flags.insert(.expiresBeforePurchase) }
            } else {
                flags.insert(.expiresUnreadable)
            }
        }
        if transaction.revocationDate != nil {
            if let revoked = dates.revocation {
                if let purchase = dates.purchase, revoked < purchase { flags.insert(.revocationBeforePurchase) }
                // No snapshot reports a revocation that had not happened when it was signed; compared at the
                // revocation's whole millisecond, as rule 1 takes it, so that Xcode's fractions of one stay possible.
                if let signed = dates.signed, revoked.whole(.down) > signed { flags.insert(.revocationAfterSigned) }
            } else {
                flags.insert(.revocationUnreadable)
            }
        }
        if let quantity = transaction.quantity, quantity < 1 { flags.insert(.noQuantity) }
        if let price = transaction.price, price < 0 { flags.insert(.negativePrice) }
        return (flags, dates)
    }

    /// The words of each flag set, in the order of the checks, for the diagnostic.
    func described(_ transaction: PayloadView) -> [String] {
        let payload = transaction.copy
        let words: [(Impossibility, () -> String?)] = [
            (.emptyTransactionId, { "an empty transactionId" }),
            (.emptyOriginalTransactionId, { "an empty originalTransactionId" }),
            (.emptyProductId, { "an empty productId" }),
            (.purchaseUnreadable, { RuleDates.problem("purchaseDate", payload.purchaseDate) }),
            (.signedUnreadable, { RuleDates.problem("signedDate", payload.signedDate) }),
            (.expiresUnreadable, { RuleDates.problem("expiresDate", payload.expiresDate) }),
            (.revocationUnreadable, { RuleDates.problem("revocationDate", payload.revocationDate) }),
            (.expiresBeforePurchase, { "expiresDate before purchaseDate" }),
            (.revocationBeforePurchase, { "revocationDate before purchaseDate" }),
            (
                .revocationAfterSigned,
                {
                    "revocationDate \((payload.revocationDate ?? .distantPast).evidenceText) after its own signedDate "
                        + "\((payload.signedDate ?? .distantPast).evidenceText)"
                }
            ),
            (.noQuantity, { "quantity \(payload.quantity ?? 0)" }),
            (.negativePrice, { "a negative price (\(payload.price ?? 0) milliunits)" }),
        ]
        return words.compactMap { flag, text in contains(flag) ? text() : nil }
    }
}

/// An admitted renewal info: the fields the rules read, its dates as admission made them (`RuleInstant`s, the grace
/// end taken down to its whole millisecond, rule 1), and the payload as it came, for what identifies a snapshot.
struct AdmittedRenewalInfo {
    let signed: RuleInstant?
    let graceEnd: RuleInstant?
    let originalTransactionId: String?
    let isInBillingRetryPeriod: Bool?
    let autoRenewStatus: AutoRenewStatus?
    let autoRenewProductId: String?
    /// The payload as it came: compared and encoded whole, never read for a date.
    let payload: RenewalInfoPayload

    /// The renewal info, whose dates admission found readable (`RuleDates`).
    fileprivate init(_ payload: RenewalInfoPayload) {
        self.payload = payload
        signed = payload.signedDate.ruleInstant
        graceEnd = payload.gracePeriodExpiresDate.ruleInstant?.whole(.down)
        originalTransactionId = payload.originalTransactionId
        isInBillingRetryPeriod = payload.isInBillingRetryPeriod
        autoRenewStatus = payload.autoRenewStatus
        autoRenewProductId = payload.autoRenewProductId
    }
}

extension TransactionPayload {
    /// The snapshot without its signedDate: what it says, whenever it was signed.
    var unsigned: TransactionPayload {
        var copy = self
        copy.signedDate = nil
        return copy
    }
}

extension RenewalInfoPayload {
    /// The snapshot without its signedDate: what it says, whenever it was signed.
    var unsigned: RenewalInfoPayload {
        var copy = self
        copy.signedDate = nil
        return copy
    }
}
