#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The steps of the rebuild: admit entries, keep the newest snapshots, evaluate each product, summarise.
struct Rebuilder {
    let instant: Date
    let environment: Environment
    let catalog: ProductCatalog?
    /// The catalog's products; none without a catalog.
    let catalogProducts: [String: ProductCatalog.Product]
    private(set) var diagnostics: Set<Diagnostic> = []
    /// Whether a transaction was left out because it could not be trusted (a newer snapshot left out, impossible
    /// values, a type the catalog contradicts): the customer still named a purchase, so is never `new`.
    var hasUntrustedTransactions = false
    /// Whether evaluations write their evidence: only while the reported candidate of a product is evaluated again.
    var isExplaining = false

    /// The longest billing retry Apple runs after a failed renewal.
    static let billingRetryLimit: TimeInterval = 60 * 24 * 60 * 60

    /// The first bundle id the history names, and whether it names another, when the catalog names none.
    var bundleSeen: (first: String?, mixed: Bool) = (nil, false)

    init(instant: Date, environment: Environment, catalog: ProductCatalog?) {
        self.instant = instant
        self.environment = environment
        self.catalog = catalog
        catalogProducts = catalog?.products ?? [:]
    }

    mutating func rebuild(_ history: History) -> EntitlementReport {
        var evidence = Evidence()
        let admitted = admit(history, into: &evidence)
        evidence.events = evidence.events.mapValues { $0.ordered() }
        return admitted.transactions.withUnsafeBufferPointer { store in
            rebuild(admitted, store: store, evidence: evidence)
        }
    }

    /// The rebuild after admission. `store` holds the admitted transactions for the duration of the call only.
    private mutating func rebuild(_ admitted: AdmittedEntries, store: Store, evidence: Evidence) -> EntitlementReport {
        var admitted = admitted
        let newest = newestTransactions(&admitted)
        let renewalInfos = newestRenewalInfos(admitted)

        var candidates: [String: [Candidate]] = [:]
        var subscriptions: [String: ChainEntries] = [:]
        var namesAPurchase = false
        // In the history's own order, which is usually the order of purchase, so that chains rarely need sorting.
        var isNewest = [Bool](repeating: false, count: store.count)
        for index in newest.values { isNewest[index] = true }
        for index in store.indices where isNewest[index] {
            guard let purchase = store[index].purchaseDate, purchase <= instant,
                let productId = store[index].productId, let originalId = store[index].originalTransactionId
            else { continue }
            let type = store[index].type ?? catalogProducts[productId]?.type
            switch type {
            // The most frequent type first: each case compares the type's raw string.
            case .autoRenewable?:
                namesAPurchase = true
                // Field by field: the payload itself is read in place, never copied.
                let entry = ChainEntry(
                    index: index, product: 0, purchaseDate: purchase, expiresDate: store[index].expiresDate,
                    revocationDate: store[index].revocationDate, signedDate: store[index].signedDate,
                    isUpgraded: store[index].isUpgraded == true)
                subscriptions[originalId, default: ChainEntries()].append(entry, productId: productId)
            case .consumable?:
                admitted.hide(originalId, purchasedAt: purchase)
                if store[index].inAppOwnershipType == .familyShared {
                    report(
                        .error, .familySharedConsumable,
                        "transaction \(store[index].id) of consumable \(productId) is FAMILY_SHARED, which Family "
                            + "Sharing never allows; it is invalid data and grants nothing")
                }
            default:
                namesAPurchase = true
                admitted.hide(originalId, purchasedAt: purchase)
                candidates[productId, default: []].append(
                    evaluateOneTime(at: index, in: store, type: type, evidence: evidence))
            }
        }
        var chains: [ChainContext] = []
        chains.reserveCapacity(subscriptions.count)
        for (originalId, entries) in subscriptions {
            let chain = Chain(store: store, entries: entries)
            // A renewal info describes the chain's newest transaction: where that one was left out or not trusted,
            // it says nothing about the older transactions that take part.
            let hidden = admitted.hiddenPurchases.isEmpty ? nil : admitted.hiddenPurchases[originalId]
            let describesNewest = hidden.map { $0 <= (chain.entries.last?.purchaseDate ?? $0) } ?? true
            let context = ChainContext(
                chain: chain, renewalInfo: describesNewest ? renewalInfos[originalId] : nil,
                events: evidence.events[originalId] ?? [], number: chains.count)
            for candidate in evaluateChain(context, evidence: evidence) {
                candidates[store[candidate.index].productId ?? "", default: []].append(candidate)
            }
            chains.append(context)
        }

        let products = candidates.keys.sorted().compactMap { productId in
            candidates[productId].flatMap { candidates in
                decision(
                    for: productId, from: candidates, store: store, chains: chains, evidence: evidence)
            }
        }
        return summarise(products, namesAPurchase: namesAPurchase || hasUntrustedTransactions)
    }

    /// Evaluates a candidate again with its evidence written out; the evaluation first runs without it, since only
    /// the reported candidate of each product is explained.
    mutating func explain(
        _ candidate: Candidate, store: Store, chains: [ChainContext], evidence: Evidence
    ) -> Candidate {
        isExplaining = true
        defer { isExplaining = false }
        switch candidate.origin {
        case .oneTime(let type):
            return evaluateOneTime(at: candidate.index, in: store, type: type, evidence: evidence)
        case .chain(let number, let position):
            return self.candidate(at: position, in: chains[number], evidence: evidence)
        }
    }

    // MARK: - Diagnostics

    mutating func report(_ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ message: String) {
        diagnostics.insert(Diagnostic(severity: severity, code: code, message: message))
    }
}

/// The admitted transactions of one rebuild, read in place.
///
/// Payloads are large values with many strings: reading one from an array copies it, retaining each string, and that
/// dominated the rebuild of a long history. A buffer's elements are read where they are. A store is only valid
/// within the rebuild that made it, and nothing that outlives the rebuild holds one.
typealias Store = UnsafeBufferPointer<TransactionPayload>

/// What the evaluation of a chain reads of each transaction, gathered in one pass over the history.
///
/// A long history does not fit in the processor's caches, and a chain's transactions lie scattered through it;
/// reading these few fields in one sequential pass, then evaluating from them, keeps the rebuild close to linear.
struct ChainEntry {
    /// The transaction's position in the admitted transactions.
    var index: Int
    /// The transaction's product, as a position in the chain's `productIds`.
    var product: Int
    var purchaseDate: Date
    var expiresDate: Date?
    var revocationDate: Date?
    var signedDate: Date?
    var isUpgraded: Bool
}

/// The entries of one chain as the history gives them, with the chain's products.
struct ChainEntries {
    var entries: [ChainEntry] = []
    /// The products the chain names, in the order first seen: usually one to three.
    var productIds: [String] = []
    /// Each product's position in `productIds`: a hostile chain may name a product per transaction.
    private var productPositions: [String: Int] = [:]

    /// Adds the entry of an admitted auto-renewable transaction of `productId`, setting its product.
    mutating func append(_ entry: ChainEntry, productId: String) {
        var entry = entry
        // Renewals usually name the product of the transaction before them: one comparison, no hashing.
        if let last = entries.last?.product, productIds[last] == productId {
            entry.product = last
        } else if let known = productPositions[productId] {
            entry.product = known
        } else {
            entry.product = productIds.count
            productPositions[productId] = productIds.count
            productIds.append(productId)
        }
        entries.append(entry)
    }
}

/// The transactions of one subscription chain, in purchase order: their entries, and the payloads read in place.
struct Chain {
    let store: Store
    let entries: [ChainEntry]
    let productIds: [String]

    init(store: Store, entries unsorted: ChainEntries) {
        self.store = store
        productIds = unsorted.productIds
        func precedes(_ lhs: ChainEntry, _ rhs: ChainEntry) -> Bool {
            lhs.purchaseDate != rhs.purchaseDate
                ? lhs.purchaseDate < rhs.purchaseDate : store[lhs.index].id < store[rhs.index].id
        }
        // Histories usually arrive in purchase order; checking costs one comparison per transaction.
        let entries = unsorted.entries
        let isSorted = zip(entries, entries.dropFirst()).allSatisfy { !precedes($1, $0) }
        self.entries = isSorted ? entries : entries.sorted(by: precedes)
    }

    var count: Int { entries.count }
    var indices: Range<Int> { entries.indices }

    /// The position of the transaction at `position` in the admitted transactions.
    func storeIndex(_ position: Int) -> Int { entries[position].index }

    subscript(position: Int) -> TransactionPayload {
        _read { yield store[entries[position].index] }
    }
}

/// A subscription chain with what its evaluation reads besides its transactions.
struct ChainContext {
    var chain: Chain
    var renewalInfo: RenewalInfoPayload?
    var events: ChainEvents
    /// The chain's position among the chains of the rebuild.
    var number: Int
    /// For each position, the next position of the chain that names another product.
    var nextOtherProduct: [Int?]

    init(chain: Chain, renewalInfo: RenewalInfoPayload?, events: ChainEvents, number: Int) {
        self.chain = chain
        self.renewalInfo = renewalInfo
        self.events = events
        self.number = number
        var nextOtherProduct = [Int?](repeating: nil, count: chain.count)
        var following: Int?
        for index in chain.indices.reversed() {
            nextOtherProduct[index] = following
            if let next = following, chain.entries[next].product == chain.entries[index].product {
                nextOtherProduct[index] = nextOtherProduct[next]
            }
            following = index
        }
        self.nextOtherProduct = nextOtherProduct
    }
}

/// One transaction's evaluation for the product it names.
struct Candidate {
    /// Where the evaluation came from, so that the reported candidate can be evaluated again with its evidence.
    enum Origin {
        case oneTime(ProductType?)
        /// The chain's number and the transaction's position in it.
        case chain(Int, Int)
    }

    /// The transaction's position in the admitted transactions.
    var index: Int
    var origin: Origin
    var state: AccessState
    var expiresDate: Date?
    var willRenew: Bool?
    var revocation: Revocation?
    var because: Because

    var grants: Bool { state.grantsAccess }
}

/// The evidence of one evaluation, in words; written only while the rebuild explains the reported candidate.
struct Because {
    let isRecording: Bool
    private(set) var lines: [String] = []

    init(recording: Bool) {
        isRecording = recording
    }

    mutating func append(_ line: @autoclosure () -> String) {
        if isRecording { lines.append(line()) }
    }
}

/// A revocation of one transaction: when, why, and whether the cause was inferred.
struct Revocation {
    var date: Date
    var cause: RevocationCause
    var inferred: Bool
    /// The REVOKE notification that revoked the transaction, when its snapshot carries no revocationDate.
    var event: ChainEvent?
}

/// Facts gathered from notifications, for evaluation and for the evidence.
struct Evidence {
    /// Events that end access or grace, by original transaction id; ordered once admission is over.
    var events: [String: ChainEvents] = [:]
    /// The notifications that carried each transaction, by transaction id.
    var notifications: [String: Set<NotificationMention>] = [:]
}

/// A notification that changes a subscription chain regardless of older snapshots.
struct ChainEvent: Hashable {
    enum Kind: Hashable, Comparable {
        /// A REVOKE without revocationDate: revokes the chain's transactions purchased up to it, for this cause.
        case revoke(RevocationCause)
        /// An EXPIRED notification: no grace period and no billing retry after it.
        case expired
        /// A GRACE_PERIOD_EXPIRED notification: no grace period after it.
        case gracePeriodExpired

        /// Orders kinds as their names do (`expired`, `gracePeriodExpired`, `revoke`, then the cause's raw value),
        /// without writing them out.
        static func < (lhs: Kind, rhs: Kind) -> Bool {
            switch (lhs, rhs) {
            case (.revoke(let lhs), .revoke(let rhs)): lhs.rawValue < rhs.rawValue
            default: lhs.rank < rhs.rank
            }
        }

        private var rank: Int {
            switch self {
            case .expired: 0
            case .gracePeriodExpired: 1
            case .revoke: 2
            }
        }
    }

    var kind: Kind
    var date: Date
    var notification: String

    /// Whether this event comes first: the earlier one, then by notification and kind, so that arrival order never
    /// decides between events signed in the same millisecond.
    func precedes(_ other: ChainEvent) -> Bool {
        (date, notification, kind) < (other.date, other.notification, other.kind)
    }
}

/// The events of one chain, each kind apart and in the order of `ChainEvent.precedes` once `ordered()` has run.
///
/// Every transaction of the chain asks for the first event of a kind at or after its purchase: ordered once, each
/// question is a binary search, so that a chain with as many notifications as renewals stays close to linear.
struct ChainEvents: ExpressibleByArrayLiteral {
    /// What a question asks for: a REVOKE of any cause, or one exact kind.
    enum Filter {
        case revoke
        case expired
        case gracePeriodExpired
    }

    private var revokes: [ChainEvent] = []
    private var expired: [ChainEvent] = []
    private var gracePeriodExpired: [ChainEvent] = []
    private var isOrdered = true

    init(arrayLiteral events: ChainEvent...) {
        for event in events { append(event) }
    }

    var isEmpty: Bool { revokes.isEmpty && expired.isEmpty && gracePeriodExpired.isEmpty }

    mutating func append(_ event: ChainEvent) {
        isOrdered = false
        switch event.kind {
        case .revoke: revokes.append(event)
        case .expired: expired.append(event)
        case .gracePeriodExpired: gracePeriodExpired.append(event)
        }
    }

    /// The same events, ordered for `first`.
    func ordered() -> ChainEvents {
        var ordered = self
        ordered.revokes.sort { $0.precedes($1) }
        ordered.expired.sort { $0.precedes($1) }
        ordered.gracePeriodExpired.sort { $0.precedes($1) }
        ordered.isOrdered = true
        return ordered
    }

    /// The first event (by `ChainEvent.precedes`) that `filter` takes, signed from `start` up to `end` included.
    func first(_ filter: Filter, from start: Date, through end: Date) -> ChainEvent? {
        assert(isOrdered, "ChainEvents.first before ordered()")
        let events =
            switch filter {
            case .revoke: revokes
            case .expired: expired
            case .gracePeriodExpired: gracePeriodExpired
            }
        // Ordered by date first, so the first event signed at or after `start` precedes every later one.
        var (low, high) = (0, events.count)
        while low < high {
            let middle = low + (high - low) / 2
            if events[middle].date < start { low = middle + 1 } else { high = middle }
        }
        guard low < events.count, events[low].date <= end else { return nil }
        return events[low]
    }
}

/// A notification that carried a transaction, in words for the evidence.
struct NotificationMention: Hashable, Comparable {
    var type: NotificationType
    var subtype: NotificationSubtype?
    var signedDate: Date?
    var notificationUUID: String?

    var label: String { subtype.map { "\(type) \($0)" } ?? type.rawValue }

    static func < (lhs: NotificationMention, rhs: NotificationMention) -> Bool {
        (lhs.signedDate ?? .distantPast, lhs.label, lhs.notificationUUID ?? "")
            < (rhs.signedDate ?? .distantPast, rhs.label, rhs.notificationUUID ?? "")
    }
}

extension TransactionPayload {
    /// The transaction identifier, or a placeholder naming the product for messages.
    ///
    /// Small enough to inline, so that reading it from a payload in place reads one field rather than copying the
    /// payload; the placeholder is built out of line.
    @inline(__always)
    var id: String { transactionId ?? placeholderId() }

    @inline(never)
    private func placeholderId() -> String { "without transactionId (product \(productId ?? "unknown"))" }
}

extension Date {
    /// The instant in ISO 8601, for evidence and diagnostics: what `formatted(.iso8601)` writes (UTC, whole seconds).
    ///
    /// Written directly for the years 1601 to 9999 of the Gregorian calendar, since the format style dominated the
    /// cost of explaining a small rebuild; other instants use the format style itself.
    package var evidenceText: String {
        let seconds = timeIntervalSince1970.rounded(.down)
        guard seconds >= Self.evidenceTextRange.lowerBound, seconds < Self.evidenceTextRange.upperBound else {
            return formatted(.iso8601)
        }
        let total = Int64(seconds)
        let (days, secondOfDay) = (
            total.dividedRounding(by: 86_400), total - total.dividedRounding(by: 86_400) * 86_400
        )
        // Days since 1970-01-01 to a proleptic Gregorian civil date, counted in 400-year eras from 0000-03-01.
        let shifted = days + 719_468
        let era = shifted.dividedRounding(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text: [UInt8] = Array("0000-00-00T00:00:00Z".utf8)
        func write(_ value: Int64, digits: Int, at offset: Int) {
            var value = value
            for position in (offset..<offset + digits).reversed() {
                text[position] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
            }
        }
        write(year, digits: 4, at: 0)
        write(month, digits: 2, at: 5)
        write(day, digits: 2, at: 8)
        write(secondOfDay / 3_600, digits: 2, at: 11)
        write(secondOfDay / 60 % 60, digits: 2, at: 14)
        write(secondOfDay % 60, digits: 2, at: 17)
        return String(decoding: text, as: UTF8.self)
    }

    /// The seconds since 1970 written by `evidenceText` itself: 1601-01-01 up to 10000-01-01.
    private static let evidenceTextRange: Range<Double> = -11_644_473_600..<253_402_300_800
}

extension Int64 {
    /// The quotient rounded towards negative infinity.
    fileprivate func dividedRounding(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
