#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The entries that may take part in the decision.
///
/// `transactions` starts as the history's own array, which is not copied unless notifications add to it; the
/// positions of those left out are in `excluded`.
struct AdmittedEntries {
    var transactions: [TransactionPayload]
    /// The instant of evaluation: purchases after it are not noted as hidden.
    let instant: Date
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
    var renewalInfos: [RenewalInfoPayload] = []
    /// The newest signedDate of the snapshots left out, by transaction id: they may carry a refund.
    var rejected: [String: Date] = [:]
    /// The newest signedDate of the renewal infos left out, by original transaction id: they may end billing retry.
    var rejectedRenewalInfos: [String: Date] = [:]
    /// The latest purchaseDate of the transactions left out, not trusted, or not read as auto-renewable, by original
    /// transaction id: a chain's renewal info may describe one of them rather than the newest transaction of the
    /// chain that takes part.
    var hiddenPurchases: [String: Date] = [:]
    /// The facts notifications gave: the events that end access or grace, and which notifications carried what.
    var facts = NotificationFacts()
    /// The first bundle id the history names, and whether it names another, when the catalog names none.
    var bundleSeen: (first: String?, mixed: Bool) = (nil, false)
    /// Whether a transaction was left out because it could not be trusted (a newer snapshot left out, impossible
    /// values, a type the catalog contradicts): the customer still named a purchase, so is never `new`.
    var hasUntrustedTransactions = false
}

/// A transaction id as a key of the newest snapshots. An id written as a decimal number without leading zeros, as
/// Apple writes them, is held as its value, so that the key is hashed without its string and the snapshots' dictionary
/// holds no string to retain and release (a long history's ids are each a string of their own in memory, fetched
/// again by each visit); any other id is held as it is. Two ids are the same key exactly when they are the same
/// string: a number is never held as text.
enum TransactionKey: Hashable {
    case number(UInt64)
    case text(String)

    init(_ id: String) {
        self = Self.value(of: id).map(TransactionKey.number) ?? .text(id)
    }

    /// The value of `id` where it is written as a decimal without leading zeros, as `number(_:)` reads it. In place
    /// where the string is stored as contiguous UTF-8, as a decoded one is; byte by byte otherwise (a string bridged
    /// from Foundation on Apple systems), so that the same id always has the same value.
    static func value(of id: String) -> UInt64? {
        id.utf8.withContiguousStorageIfAvailable { number($0) } ?? number(id.utf8)
    }

    /// The value of an id written as a decimal without leading zeros, of at most 19 digits (below 2^64); "0" alone is
    /// one, so that the number gives back the id. Nil for any other id.
    static func number(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard let first = bytes.first, bytes.count <= 19, first != UInt8(ascii: "0") || bytes.count == 1 else {
            return nil
        }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }

    /// The transaction id.
    var id: String {
        switch self {
        case .number(let value): String(value)
        case .text(let id): id
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .number(let value): hasher.combine(value)
        case .text(let id): hasher.combine(id)
        }
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

    /// Notes the admitted snapshot at `index`, read in place.
    mutating func offer(_ transaction: UnsafePointer<TransactionPayload>, at index: Int, instant: Date) {
        guard !namesOtherIds, let transactionId = transaction.pointee.transactionId else { return }
        guard let id = TransactionKey.value(of: transactionId) else {
            namesOtherIds = true
            return
        }
        // One lookup for an id seen first, as most are.
        if positions.insert(index, forKey: id) != nil {
            others.append(index)
        } else if let signed = transaction.pointee.signedDate, signed > instant {
            signedAfterInstant.append(index)
        }
    }
}

extension AdmittedEntries {
    /// The positions of the admitted transactions.
    var admittedIndices: [Int] {
        excluded.isEmpty ? Array(transactions.indices) : transactions.indices.filter { !excluded.contains($0) }
    }

    mutating func reject(_ transaction: TransactionPayload) {
        hide(transaction)
        guard let transactionId = transaction.transactionId else { return }
        let signed = transaction.signedDate ?? .distantPast
        rejected[transactionId] = max(rejected[transactionId] ?? signed, signed)
    }

    /// Notes the purchase of a transaction that takes no part, so that its chain's renewal info is not read as
    /// describing an older transaction.
    mutating func hide(_ transaction: borrowing TransactionPayload) {
        guard let originalId = transaction.originalTransactionId, let purchase = transaction.purchaseDate else {
            return
        }
        hide(originalId, purchasedAt: purchase)
    }

    mutating func hide(_ originalId: String, purchasedAt purchase: Date) {
        guard purchase <= instant else { return }
        Self.noteHidden(purchase, of: originalId, in: &hiddenPurchases)
    }

    /// Keeps the latest hidden purchase of each original transaction id, in one lookup: the slot is updated in place.
    static func noteHidden(_ purchase: Date, of originalId: String, in hidden: inout [String: Date]) {
        keepLatest(purchase, in: &hidden[originalId, default: purchase])
    }

    private static func keepLatest(_ date: Date, in slot: inout Date) {
        if slot < date { slot = date }
    }

    mutating func reject(_ renewalInfo: RenewalInfoPayload) {
        guard let originalId = renewalInfo.originalTransactionId else { return }
        let signed = renewalInfo.signedDate ?? .distantPast
        rejectedRenewalInfos[originalId] = max(rejectedRenewalInfos[originalId] ?? signed, signed)
    }
}

/// Stage 1 of the rebuild, rules 9 and 10 (and rule 1's snapshots left out): keeps the entries of the rebuild's
/// environment and app that carry what the rebuild needs, reports the rest, and gathers the notifications' events.
struct Admission: RebuildStage {
    static let rules: [DecisionRule] = [DecisionRule.environment, .unknownValues]
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
        // Read in place: copying each payload out of the array would retain every one of its strings. The entries are
        // made inside the closure and returned from it, so that they are moved out rather than copied.
        var admitted = history.transactions.withUnsafeBufferPointer { buffer in
            var admitted = AdmittedEntries(transactions: history.transactions, instant: instant)
            guard let transactions = buffer.baseAddress else { return admitted }
            for index in buffer.indices {
                let transaction = transactions + index
                boundaries?.add(transaction) { collected.append(($0, $1)) }
                let isFractional = TransactionPayload.hasFractionalEnds(transaction)
                if isFractional { fractional.append(index) }
                if isPlainlyAdmissible(transaction, bundleSeen: admitted.bundleSeen.first)
                    || isAdmissible(
                        transaction.pointee, what: "transaction \(transaction.pointee.id)", &admitted, log: &log)
                {
                    first.offer(transaction, at: index, instant: instant)
                    noteChained(
                        transaction, at: index, takingEndsDown: isFractional, in: &admitted,
                        reserving: buffer.count - index + history.notifications.count)
                } else {
                    admitted.excluded.insert(index)
                    admitted.reject(transaction.pointee)
                }
            }
            return admitted
        }
        if staleness != nil { admitted.transactionBoundaries = collected }
        // Rule 1 compares snapshots at whole milliseconds: where an end is taken down, the newest snapshots are found
        // after it, from every snapshot; so they are where an id is not a number.
        if fractional.isEmpty, !first.namesOtherIds { admitted.firstSnapshots = first }
        // Rule 1: ends and revocations are decided at whole milliseconds, taken down; the history keeps them as sent.
        for index in fractional { admitted.transactions[index].takeEndsDown() }
        for renewalInfo in history.renewalInfos {
            admit(renewalInfo, what: "renewal info", into: &admitted, log: &log)
        }
        for notification in history.notifications {
            admit(notification, into: &admitted, log: &log)
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
            let status = snapshot.status, let date = snapshot.signedDate,
            let originalId = snapshot.originalTransactionId
        else { return }
        admitted.facts.appleStatuses[originalId, default: []].append(
            AppleStatusNotice(
                status: status, date: date, source: .subscriptionStatuses(group: snapshot.subscriptionGroupIdentifier)))
    }

    /// Notes the entry of an admitted transaction, read in place, where it is auto-renewable by its own type, or by its
    /// product's in the catalog where it gives none, numbering its product and its chain. With `takingEndsDown`, its
    /// ends are taken down to their whole milliseconds, as the payload's are after the pass. The first entry reserves
    /// room for `count`, as many as may follow it, so that a long history's entries are never copied as they grow.
    private func noteChained(
        _ transaction: UnsafePointer<TransactionPayload>, at index: Int, takingEndsDown: Bool,
        in admitted: inout AdmittedEntries, reserving count: Int
    ) {
        let type =
            transaction.pointee.type
            ?? (catalogProducts.isEmpty
                ? nil : transaction.pointee.productId.flatMap { catalogProducts[ProductID($0)]?.type })
        // Admission keeps no transaction without both ids.
        guard type == .autoRenewable, let productId = transaction.pointee.productId,
            let originalId = transaction.pointee.originalTransactionId
        else { return }
        let chain = admitted.chains.number(of: originalId)
        // A chain usually renews the product it named last: compared first, before any hashing.
        let product = admitted.products.number(of: productId, guess: admitted.chains.lastProducts[chain])
        admitted.chains.lastProducts[chain] = product
        var entry = ChainEntry(transaction, index: index, product: product)
        if takingEndsDown { entry.takeEndsDown() }
        if admitted.chainRecords.isEmpty { admitted.chainRecords.reserveCapacity(count) }
        admitted.chainRecords.append(ChainRecord(entry: entry, chain: chain))
    }

    /// Whether a transaction may take part and has nothing to report: the common case, checked without mutation, so
    /// that the payload is read field by field in place rather than copied whole.
    private func isPlainlyAdmissible(_ transaction: UnsafePointer<TransactionPayload>, bundleSeen: String?) -> Bool {
        guard transaction.pointee.environment == environment, transaction.pointee.inAppOwnershipType?.isKnown != false,
            let transactionId = transaction.pointee.transactionId, !transactionId.isEmpty,
            let originalId = transaction.pointee.originalTransactionId, !originalId.isEmpty,
            let productId = transaction.pointee.productId, !productId.isEmpty,
            let purchase = transaction.pointee.purchaseDate, purchase >= Self.appStoreOpening,
            transaction.pointee.expiresDate.map({ $0 >= purchase }) ?? true,
            transaction.pointee.revocationDate.map({ $0 >= purchase }) ?? true,
            transaction.pointee.signedDate.map({ $0 >= Self.appStoreOpening }) ?? true,
            transaction.pointee.quantity.map({ $0 >= 1 }) ?? true, transaction.pointee.price.map({ $0 >= 0 }) ?? true
        else { return false }
        if let catalog, let bundleId = catalog.bundleId, transaction.pointee.bundleId != bundleId { return false }
        if !catalogProducts.isEmpty, let catalogType = catalogProducts[ProductID(productId)]?.type,
            let type = transaction.pointee.type,
            type != catalogType
        {
            return false
        }
        return catalog?.bundleId != nil || transaction.pointee.bundleId == nil
            || transaction.pointee.bundleId == bundleSeen
    }

    /// Whether a transaction may take part: of the rebuild's environment and complete; reports it when not, and
    /// reports an ownership this library does not know.
    private func isAdmissible(
        _ transaction: borrowing TransactionPayload, what: @autoclosure () -> String,
        _ admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) -> Bool {
        guard admits(transaction.environment, what: what(), log: &log),
            admits(bundleId: transaction.bundleId, what: what(), &admitted, log: &log),
            isComplete(transaction, what: what(), log: &log),
            isPossible(transaction, what: what(), &admitted, log: &log),
            agreesWithCatalog(transaction, what: what(), &admitted, log: &log)
        else {
            return false
        }
        if let ownership = transaction.inAppOwnershipType, !ownership.isKnown {
            log.report(
                .unknownOwnership,
                "\(what()) has inAppOwnershipType \"\(ownership.rawValue)\", which this library does not know; it "
                    + "counts where its fields allow, without the right to manage the subscription")
        }
        return true
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
            renewalInfo.signedDate.flatMap { $0 < Self.appStoreOpening ? "signedDate \($0.evidenceText)" : nil },
            renewalInfo.gracePeriodExpiresDate.flatMap {
                $0 < Self.appStoreOpening ? "gracePeriodExpiresDate \($0.evidenceText)" : nil
            },
        ].compactMap { $0 }
        guard impossible.isEmpty else {
            reportImpossible(impossible, what: "\(what()) of original transaction \(original)", log: &log)
            admitted.reject(renewalInfo)
            return
        }
        var whole = renewalInfo
        if let grace = renewalInfo.gracePeriodExpiresDate {
            whole.gracePeriodExpiresDate = MillisecondDate.whole(grace, .down)
        }
        admitted.renewalInfos.append(whole)
    }

    private func admit(
        _ notification: NotificationPayload, into admitted: inout AdmittedEntries, log: inout DiagnosticsLog
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
        guard admits(data.environment, what: name, log: &log),
            admits(bundleId: data.bundleId, what: name, &admitted, log: &log)
        else {
            if let transaction = data.transactionInfo { admitted.reject(transaction) }
            if let renewalInfo = data.renewalInfo { admitted.reject(renewalInfo) }
            return
        }
        if let transaction = data.transactionInfo {
            if isAdmissible(transaction, what: "transaction \(transaction.id) in \(name)", &admitted, log: &log) {
                var whole = transaction
                whole.takeEndsDown()
                let index = admitted.transactions.count
                withUnsafePointer(to: whole) {
                    noteChained($0, at: index, takingEndsDown: false, in: &admitted, reserving: 1)
                }
                admitted.transactions.append(whole)
                if let transactionId = transaction.transactionId {
                    admitted.facts.notifications[transactionId, default: []].insert(mention)
                }
            } else {
                admitted.reject(transaction)
            }
        }
        if let renewalInfo = data.renewalInfo {
            admit(renewalInfo, what: "renewal info in \(name)", into: &admitted, log: &log)
        }
        recordEvent(of: notification, mention: mention, data: data, into: &admitted.facts, log: &log)
        recordRenewalNotice(of: notification, data: data, into: &admitted.facts)
    }

    /// Notes a DID_FAIL_TO_RENEW or DID_CHANGE_RENEWAL_STATUS, for the entitlement's billing issue and unsubscribe
    /// dates, and Apple's `data.status`, for the cross-check of the rebuilt state; neither changes a state.
    private func recordRenewalNotice(
        of notification: NotificationPayload, data: NotificationData, into facts: inout NotificationFacts
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
        guard let date = notification.signedDate, nestedAdmitted,
            let originalId = data.transactionInfo?.originalTransactionId ?? data.renewalInfo?.originalTransactionId
        else { return }
        if let status = data.status {
            facts.appleStatuses[originalId, default: []].append(
                AppleStatusNotice(status: status, date: date, source: .notification(notification.mention)))
        }
        if let kind {
            facts.renewalNotices[originalId, default: []].append(RenewalNotice(kind: kind, date: date))
        }
    }

    private func recordEvent(
        of notification: NotificationPayload, mention: NotificationMention, data: NotificationData,
        into facts: inout NotificationFacts, log: inout DiagnosticsLog
    ) {
        let (type, name) = (mention.type, mention.name)
        let kind: ChainEvent.Kind
        switch type {
        case .revoke:
            guard let transaction = data.transactionInfo, transaction.revocationDate == nil else { return }
            if transaction.inAppOwnershipType == .familyShared {
                kind = .revoke(.familyRevocation)
            } else {
                log.report(
                    .unexpectedRevoke,
                    "\(name) revokes transaction \(transaction.id), which is not FAMILY_SHARED; it is revoked, "
                        + "cause unknown")
                kind = .revoke(.unknown)
            }
        case .expired: kind = .expired
        case .gracePeriodExpired: kind = .gracePeriodExpired
        default: return
        }
        guard
            let originalId = data.transactionInfo?.originalTransactionId ?? data.renewalInfo?.originalTransactionId,
            data.transactionInfo.map({ admits($0.environment) && isOfTheApp($0.bundleId) }) ?? true,
            data.renewalInfo.map({ admits($0.environment) }) ?? true
        else { return }
        guard let date = notification.signedDate else {
            log.report(
                .incompleteNotification,
                "\(name) has no signedDate, so the rebuild cannot tell when it took effect; it is left out")
            return
        }
        // An event ends or revokes: at its signedDate's whole millisecond, taken down (rule 1).
        facts.events[originalId, default: []].append(
            ChainEvent(kind: kind, date: MillisecondDate.whole(date, .down), notification: mention))
    }

    /// Whether an entry of this environment may take part; reports it when not.
    private func admits(
        _ entryEnvironment: Environment?, what: @autoclosure () -> String, log: inout DiagnosticsLog
    ) -> Bool {
        guard let entryEnvironment else {
            log.report(.missingEnvironment, "\(what()) has no environment; it grants nothing")
            return false
        }
        guard entryEnvironment == environment else {
            let message =
                environment == .production && entryEnvironment == .sandbox
                ? "\(what()) is from Sandbox in a Production history: an attack or a bug, not a purchase; it grants "
                    + "nothing"
                : "\(what()) is from \(entryEnvironment.rawValue), not \(environment.rawValue); it grants nothing"
            log.report(.foreignEnvironment, message)
            return false
        }
        return true
    }

    private func admits(_ entryEnvironment: Environment?) -> Bool {
        entryEnvironment == environment
    }

    /// 2008-07-10T00:00:00Z, the day the App Store opened: no purchase is older, so an earlier date can only be
    /// seconds mistaken for milliseconds. Xcode's year-1 originalPurchaseDate is never read by the rebuild.
    static let appStoreOpening = Date(timeIntervalSince1970: 1_215_648_000)

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
        guard let expected = catalog?.bundleId else {
            if let bundleId {
                if admitted.bundleSeen.first == nil {
                    admitted.bundleSeen.first = bundleId
                } else if admitted.bundleSeen.first != bundleId {
                    admitted.bundleSeen.mixed = true
                }
            }
            return true
        }
        guard bundleId != expected else { return true }
        log.report(
            .foreignBundle,
            "\(what()) is of bundle id \(bundleId.map { "\"\($0)\"" } ?? "(none)"), not the catalog's \"\(expected)\"; it "
                + "grants nothing")
        return false
    }

    /// Whether a transaction carries only values a real payload can; reports the impossible ones when not.
    private func isPossible(
        _ transaction: borrowing TransactionPayload, what: @autoclosure () -> String,
        _ admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) -> Bool {
        let purchase = transaction.purchaseDate ?? Self.appStoreOpening
        func early(_ name: String, _ date: Date?) -> String? {
            date.flatMap { $0 < Self.appStoreOpening ? "\(name) \($0.evidenceText), before the App Store opened" : nil }
        }
        let impossible = [
            transaction.transactionId == "" ? "an empty transactionId" : nil,
            transaction.originalTransactionId == "" ? "an empty originalTransactionId" : nil,
            transaction.productId == "" ? "an empty productId" : nil,
            early("purchaseDate", transaction.purchaseDate), early("signedDate", transaction.signedDate),
            early("expiresDate", transaction.expiresDate), early("revocationDate", transaction.revocationDate),
            transaction.expiresDate.flatMap { $0 < purchase ? "expiresDate before purchaseDate" : nil },
            transaction.revocationDate.flatMap { $0 < purchase ? "revocationDate before purchaseDate" : nil },
            transaction.quantity.flatMap { $0 < 1 ? "quantity \($0)" : nil },
            transaction.price.flatMap { $0 < 0 ? "a negative price (\($0) milliunits)" : nil },
        ].compactMap { $0 }
        guard impossible.isEmpty else {
            reportImpossible(impossible, what: what(), log: &log)
            admitted.hasUntrustedTransactions = true
            return false
        }
        return true
    }

    private func reportImpossible(_ values: [String], what: String, log: inout DiagnosticsLog) {
        log.report(
            .impossibleValue,
            "\(what) has \(values.joined(separator: ", ")), which no real payload carries; it grants nothing")
    }

    /// Whether a transaction's own type agrees with the catalog's type for its product; reports it when not.
    private func agreesWithCatalog(
        _ transaction: borrowing TransactionPayload, what: @autoclosure () -> String,
        _ admitted: inout AdmittedEntries, log: inout DiagnosticsLog
    ) -> Bool {
        guard let productId = transaction.productId, let catalogType = catalogProducts[ProductID(productId)]?.type,
            let type = transaction.type, type != catalogType
        else { return true }
        log.report(
            .catalogTypeMismatch,
            "\(what()) is of type \(type.rawValue), but the catalog says \(productId) is \(catalogType.rawValue); "
                + "one of them is wrong, so it grants nothing")
        admitted.hasUntrustedTransactions = true
        return false
    }

    private func isComplete(
        _ transaction: borrowing TransactionPayload, what: @autoclosure () -> String, log: inout DiagnosticsLog
    ) -> Bool {
        if transaction.transactionId != nil, transaction.originalTransactionId != nil, transaction.productId != nil,
            transaction.purchaseDate != nil
        {
            return true
        }
        let missing = [
            transaction.transactionId == nil ? "transactionId" : nil,
            transaction.originalTransactionId == nil ? "originalTransactionId" : nil,
            transaction.productId == nil ? "productId" : nil,
            transaction.purchaseDate == nil ? "purchaseDate" : nil,
        ].compactMap { $0 }
        log.report(.incompleteTransaction, "\(what()) has no \(missing.joined(separator: ", ")); it grants nothing")
        return false
    }
}

extension TransactionPayload {
    /// Whether expiresDate or revocationDate holds a fraction of a millisecond, as Xcode signs them; read in place.
    static func hasFractionalEnds(_ transaction: UnsafePointer<TransactionPayload>) -> Bool {
        transaction.pointee.expiresDate.map { MillisecondDate.whole($0, .down) != $0 } == true
            || transaction.pointee.revocationDate.map { MillisecondDate.whole($0, .down) != $0 } == true
    }

    /// Takes expiresDate and revocationDate down to their whole milliseconds, in the direction that never grants.
    mutating func takeEndsDown() {
        if let expires = expiresDate { expiresDate = MillisecondDate.whole(expires, .down) }
        if let revoked = revocationDate { revocationDate = MillisecondDate.whole(revoked, .down) }
    }
}
