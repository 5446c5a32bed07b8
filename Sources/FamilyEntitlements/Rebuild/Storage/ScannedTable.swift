/// Positions for keys in the order first seen, found by scanning while there are few and by hashing beyond
/// `scanned`: a rebuild's products and a chain's products are usually one to three, which a scan compares faster than a
/// dictionary hashes.
///
/// Invariants: the positions are `0..<count`, one per key, given in the order keys are first asked for; the dictionary
/// is empty until there are more than `scanned` keys, and from then on holds every key.
struct ScannedTable<Key: Hashable> {
    /// The keys, by position.
    private(set) var keys: [Key] = []
    private var positions: [Key: Int] = [:]
    /// How many keys are looked for one by one before a dictionary holds their positions.
    static var scanned: Int { 8 }

    var count: Int { keys.count }

    /// The position of `key`, and whether it was added now.
    mutating func position(of key: Key) -> (position: Int, isNew: Bool) {
        if positions.isEmpty, keys.count > Self.scanned {
            for (position, known) in keys.enumerated() { positions[known] = position }
        }
        if let found = positions.isEmpty ? keys.firstIndex(of: key) : positions[key] { return (found, false) }
        keys.append(key)
        if !positions.isEmpty { positions[key] = keys.count - 1 }
        return (keys.count - 1, true)
    }
}
