#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The entry of an admitted auto-renewable transaction, taken from its payload in admission's pass, with its chain.
///
/// A long history is far larger than the processor's caches: a payload takes about 520 bytes, and its original
/// transaction and product ids are strings of their own elsewhere in memory, so a second pass over the payloads
/// fetches each from memory again. Admission reads each payload once and keeps these 48 bytes, with the product and
/// the chain as numbers; grouping into chains then reads no payload, and no identifier string.
struct ChainRecord {
    /// The entry; its `product` is the product's number in the rebuild's `ProductNumbers` until it joins its chain.
    var entry: ChainEntry
    /// The chain's number, in the bytes the entry leaves spare: below 2^31, as the entry's position is, since there are
    /// at most as many chains as positions.
    private let chainNumber: Int32

    init(entry: ChainEntry, chain: Int) {
        self.entry = entry
        chainNumber = Int32(chain)
    }

    /// The chain, as a number of the rebuild's `ChainNumbers`.
    var chain: Int { Int(chainNumber) }
}

/// The product ids of the admitted auto-renewable transactions, numbered in the order first seen, so that grouping
/// into chains compares numbers rather than strings. A transaction usually names its chain's product, else the product
/// of the transaction before it: those are compared first, then the few known one by one, and a dictionary holds them
/// only beyond eight.
struct ProductNumbers {
    /// The product ids, by number.
    private(set) var ids: [String] = []
    private var positions: [String: Int] = [:]
    private var last = -1

    /// The number of `productId`, added where new; `guess` (the number its chain named last, or -1) is compared first.
    mutating func number(of productId: String, guess: Int) -> Int {
        if guess >= 0, ids[guess] == productId {
            last = guess
            return guess
        }
        if last >= 0, ids[last] == productId { return last }
        if positions.isEmpty, ids.count > CandidatesByProduct.scanned {
            for (position, known) in ids.enumerated() { positions[known] = position }
        }
        if let found = positions.isEmpty ? ids.firstIndex(of: productId) : positions[productId] {
            last = found
            return found
        }
        last = ids.count
        ids.append(productId)
        if !positions.isEmpty { positions[productId] = last }
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
