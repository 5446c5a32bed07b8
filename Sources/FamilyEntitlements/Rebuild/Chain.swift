#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The transactions of one subscription chain, in purchase order: their entries, and the payloads read in place.
struct Chain {
    let store: PayloadStore
    let entries: [ChainEntry]
    let productIds: [String]
    /// The positions whose product differs from the one before, where the entries are in the order appended; nil
    /// where they were sorted.
    let productChanges: [Int]?

    init(store: PayloadStore, entries unsorted: ChainEntries) {
        self.store = store
        productIds = unsorted.productIds
        func precedes(_ lhs: ChainEntry, _ rhs: ChainEntry) -> Bool {
            lhs.purchase != rhs.purchase
                ? lhs.purchase < rhs.purchase : store[lhs.index].id < store[rhs.index].id
        }
        // Histories usually arrive in purchase order, which appending noted; otherwise checking costs one comparison
        // per transaction (equal purchase dates are in order where their transaction ids are).
        let entries = unsorted.entries
        let isSorted =
            unsorted.isInPurchaseOrder || zip(entries, entries.dropFirst()).allSatisfy { !precedes($1, $0) }
        self.entries = isSorted ? entries : entries.sorted(by: precedes)
        productChanges = isSorted ? unsorted.productChanges : nil
    }

    var count: Int { entries.count }
    var indices: Range<Int> { entries.indices }

    /// The position of the transaction at `position` in the admitted transactions.
    func storeIndex(_ position: Int) -> Int { entries[position].index }

    @inline(__always)
    subscript(position: Int) -> PayloadView { store[entries[position].index] }
}

/// A subscription chain with what its evaluation reads besides its transactions.
struct ChainContext {
    var chain: Chain
    var renewalInfo: AdmittedRenewalInfo?
    var events: ChainEvents
    /// The chain's DID_FAIL_TO_RENEW and DID_CHANGE_RENEWAL_STATUS notifications, in no order.
    var notices: [RenewalNotice] = []
    /// For each position, the next position of the chain that names another product.
    var nextOtherProduct: [Int?]

    /// The entries an evaluation of the chain reads, for `RebuildCost`: its transactions and notices, and the
    /// `statuses` of Apple's that name it. (Its events are searched, not read.)
    func readCount(statuses: Int) -> Int { chain.entries.count + notices.count + statuses }

    init(chain: Chain, renewalInfo: AdmittedRenewalInfo?, events: ChainEvents) {
        self.chain = chain
        self.renewalInfo = renewalInfo
        self.events = events
        var nextOtherProduct = [Int?](repeating: nil, count: chain.count)
        if let changes = chain.productChanges {
            // Known from appending: each position's next other product is where its product's run ends. The entries
            // are not read again, which a long history would fetch from memory.
            var start = 0
            for change in changes {
                for index in start..<change { nextOtherProduct[index] = change }
                start = change
            }
        } else {
            var following: Int?
            for index in chain.indices.reversed() {
                nextOtherProduct[index] = following
                if let next = following, chain.entries[next].product == chain.entries[index].product {
                    nextOtherProduct[index] = nextOtherProduct[next]
                }
                following = index
            }
        }
        self.nextOtherProduct = nextOtherProduct
    }
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
    /// When the notification was signed (or placed, rule 1), at its whole millisecond taken down.
    var signed: RuleInstant
    /// The notification, named in evidence.
    var notification: NotificationMention

    /// Whether this event comes first: the earlier one, then by notification and kind, so that arrival order never
    /// decides between events signed in the same millisecond.
    func precedes(_ other: ChainEvent) -> Bool {
        if signed != other.signed { return signed < other.signed }
        if notification != other.notification { return notification < other.notification }
        return kind < other.kind
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
    /// The transactions whose snapshot says they are revoked (a revocationReason or revocationType) but gives no
    /// revocationDate: revoked from the snapshot's signedDate, their cause inferred (rule 7).
    var impliedRevocations: Set<String> = []

    /// Only the empty literal, `[]`: events are appended one by one as admission finds them.
    init(arrayLiteral events: Never...) {}

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
    func first(_ filter: Filter, from start: RuleInstant, through end: RebuildInstant) -> ChainEvent? {
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
            if events[middle].signed < start { low = middle + 1 } else { high = middle }
        }
        guard low < events.count, end.hasCome(events[low].signed) else { return nil }
        return events[low]
    }
}
