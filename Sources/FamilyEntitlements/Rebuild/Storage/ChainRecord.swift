/// The record of an admitted auto-renewable transaction, taken from its payload in admission's pass, with its product
/// and its chain as numbers.
///
/// A long history is far larger than the processor's caches, and a payload's original transaction and product ids are
/// strings of their own elsewhere in memory, so a second pass over the payloads fetches each from memory again.
/// Admission reads each payload once and keeps this record; grouping into chains then reads no payload, and no
/// identifier string.
///
/// Invariants: `index` is the transaction's position in the admitted transactions, `product` a number of the
/// rebuild's `ProductNumbers` and `chain` one of its `ChainNumbers`.
struct ChainRecord {
    let index: Int
    /// The product, as a number of the rebuild's `ProductNumbers` (not yet a position in its chain).
    let product: Int
    /// The chain, as a number of the rebuild's `ChainNumbers`.
    let chain: Int
    /// The dates admission made of the transaction.
    let dates: TransactionDates
    let isUpgraded: Bool

    var purchase: RuleInstant { dates.purchase ?? .distantPast }
}

/// The product ids of the admitted auto-renewable transactions, numbered in the order first seen, so that grouping
/// into chains compares numbers rather than strings. A transaction usually names its chain's product, else the product
/// of the transaction before it: those are compared first, before the table is searched.
struct ProductNumbers {
    private var numbers = ScannedTable<String>()
    private var last = -1

    /// The product ids, by number.
    var ids: [String] { numbers.keys }

    /// The number of `productId`, added where new; `guess` (the number its chain named last, or -1) is compared first.
    mutating func number(of productId: String, guess: Int) -> Int {
        if guess >= 0, ids[guess] == productId {
            last = guess
            return guess
        }
        if last >= 0, ids[last] == productId { return last }
        last = numbers.position(of: productId).position
        return last
    }
}

/// The original transaction ids of the admitted auto-renewable transactions, numbered in the order first seen, with
/// how many transactions each names: a chain's entries are then reserved whole, never copied as they grow. Keyed by
/// `TransactionKey`, so that an id Apple writes as a number is hashed as one.
struct ChainNumbers {
    /// The original transaction ids, by number.
    private(set) var originalIds: [String] = []
    /// How many admitted transactions each names: at least as many as its chain takes.
    private(set) var counts: [Int] = []
    /// The product each named last, as a number of the rebuild's `ProductNumbers`.
    var lastProducts: [Int] = []
    private var positions: [TransactionKey: Int] = [:]

    var count: Int { originalIds.count }

    /// The number of `originalId`, added where new, counting one more transaction for it.
    mutating func number(of originalId: String) -> Int {
        let key = TransactionKey(originalId)
        if let found = positions[key] {
            counts[found] += 1
            return found
        }
        positions[key] = originalIds.count
        originalIds.append(originalId)
        counts.append(1)
        lastProducts.append(-1)
        return originalIds.count - 1
    }

    /// The number of `originalId`, where an auto-renewable transaction names it.
    func existingNumber(of originalId: String) -> Int? {
        positions.isEmpty ? nil : positions[TransactionKey(originalId)]
    }
}
