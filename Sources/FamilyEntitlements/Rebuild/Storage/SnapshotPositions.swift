/// Where the snapshot that speaks for each key lies, as `NewestSnapshots` fills it: one position per key.
protocol SnapshotPositions {
    associatedtype Key: Hashable

    init(minimumCapacity: Int)
    /// How many keys hold a position.
    var count: Int { get }
    subscript(key: Key) -> Int? { get set }
    /// Sets the position of `key`, returning the one it replaced, in one lookup.
    mutating func updateValue(_ position: Int, forKey key: Key) -> Int?
    /// Whether each of the `count` positions is one a key holds; the positions are not used after.
    mutating func takeFlags(count: Int) -> [Bool]
}

extension Dictionary: SnapshotPositions where Value == Int {
    func takeFlags(count: Int) -> [Bool] {
        var flags = [Bool](repeating: false, count: count)
        for position in values { flags[position] = true }
        return flags
    }
}

/// The positions of transaction ids keyed by their values (`TransactionKey.value(of:)`), each kept beside its key.
///
/// A dictionary keeps its keys and its values in two arrays: in a long history, far larger than the caches, each
/// insert fetches a line of each from memory. Here a set holds each key with its position in one 16-byte element, so an
/// insert fetches one; and the flag of each position held is kept as positions come and go, so that `takeFlags(count:)`
/// does not read the table again. A position is one transaction's, so it is only ever held by the key of its id.
///
/// Invariants: `held[position]` is true exactly where a key holds `position` (positions beyond `held.count` are held by
/// none), and each key holds at most one position. `takeFlags(count:)` ends the table's use: it hands the flags over
/// rather than copying them.
struct NumberedPositions: SnapshotPositions {
    /// A key and its position, equal to any other element of the same key: the set finds an element by its key alone.
    private struct Slot: Hashable {
        let key: UInt64
        let position: Int

        static func == (lhs: Slot, rhs: Slot) -> Bool { lhs.key == rhs.key }

        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    private var slots: Set<Slot>
    /// Whether each position is held, up to the highest position set so far.
    private var held: [Bool] = []

    /// Room for `minimumCapacity` keys, with the flags of as many positions.
    init(minimumCapacity: Int) {
        slots = Set(minimumCapacity: minimumCapacity)
        held = [Bool](repeating: false, count: minimumCapacity)
    }

    var count: Int { slots.count }

    subscript(key: UInt64) -> Int? {
        get {
            // The position given is never read: elements are found by their key.
            slots.firstIndex(of: Slot(key: key, position: 0)).map { slots[$0].position }
        }
        set {
            if let newValue {
                _ = updateValue(newValue, forKey: key)
            } else if let removed = slots.remove(Slot(key: key, position: 0)) {
                held[removed.position] = false
            }
        }
    }

    mutating func updateValue(_ position: Int, forKey key: UInt64) -> Int? {
        // One lookup for a key seen first, as most are; a second replaces the position of one seen before.
        guard let replaced = insert(position, forKey: key) else { return nil }
        held[replaced] = false
        slots.update(with: Slot(key: key, position: position))
        hold(position)
        return replaced
    }

    /// The position of `key` where it holds one; otherwise sets it to `position` and returns nil, in one lookup.
    mutating func insert(_ position: Int, forKey key: UInt64) -> Int? {
        let (inserted, member) = slots.insert(Slot(key: key, position: position))
        guard inserted else { return member.position }
        hold(position)
        return nil
    }

    private mutating func hold(_ position: Int) {
        // Beyond the capacity asked for only for the transactions notifications add.
        while position >= held.count { held.append(false) }
        held[position] = true
    }

    mutating func takeFlags(count: Int) -> [Bool] {
        var flags: [Bool] = []
        // Taken, not copied: appending to a copy would copy every flag.
        swap(&flags, &held)
        if flags.count < count { flags += repeatElement(false, count: count - flags.count) }
        return flags
    }
}
