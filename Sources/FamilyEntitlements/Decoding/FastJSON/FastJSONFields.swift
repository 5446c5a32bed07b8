/// The member names of one payload type, and a lookup from a member name's bytes to its coding key.
///
/// Names are matched byte for byte after unescaping. `JSONDecoder` matches them by `String` equality (canonical
/// equivalence), which differs only for a name written with bytes beyond ASCII, such as `SKU` with the Kelvin sign
/// (U+212A) for `K`: the reader compares such names as strings where their bytes match no field
/// (`FastJSONReader.scanUnusualMemberName`). The lookup first tries the field that follows the previous one in the
/// order Apple writes them, then an open-addressing hash table; a name that matches no key belongs to a member to skip
/// (or to keep, for the types that keep unknown members).
struct FastJSONFields<Key: CodingKey & CaseIterable> {
    /// The coding keys, in the order of `Key.allCases`.
    let keys: [Key]
    /// Every name's UTF-8 bytes, one after the other.
    private let names: [UInt8]
    /// Where each name starts in `names`, and one more entry for the end of the last.
    private let nameStarts: [Int]
    /// For each field, the index of the field Apple writes after it (`keys.count` after the last).
    let successors: [Int]
    private let slots: [Int16]
    private let slotMask: Int
    /// Each field's name followed by a quote and a colon, as the bytes of a member appear after its opening quote, in
    /// little-endian words of eight bytes; the last word of each is padded with zeros.
    private let prefixWords: [UInt64]
    /// Where each field's words start in `prefixWords`, and one more entry for the end of the last.
    private let prefixStarts: [Int]
    /// For each field, the mask of the bytes of its last word that belong to the prefix.
    private let prefixLastMasks: [UInt64]

    /// The fields of `Key`, of which Apple writes `wireOrder` in that order; at most 64 fields, the width of
    /// `FastJSONReader.ObjectMembers`' record of the fields seen.
    init(wireOrder: [Key] = []) {
        keys = Array(Key.allCases)
        let indices = Dictionary(
            keys.enumerated().map { ($1.stringValue, $0) }, uniquingKeysWith: { first, _ in first })
        var order = wireOrder.compactMap { indices[$0.stringValue] }
        order += keys.indices.filter { !order.contains($0) }
        var successors = [Int](repeating: keys.count, count: keys.count + 1)
        for (position, field) in order.enumerated() where position + 1 < order.count {
            successors[field] = order[position + 1]
        }
        successors[keys.count] = order.first ?? 0
        self.successors = successors
        precondition(keys.count <= 64, "a payload type has at most 64 fields")
        var names: [UInt8] = []
        var nameStarts: [Int] = []
        for key in keys {
            nameStarts.append(names.count)
            names.append(contentsOf: key.stringValue.utf8)
        }
        nameStarts.append(names.count)
        var size = 16
        while size < keys.count * 4 { size *= 2 }
        var slots = [Int16](repeating: -1, count: size)
        for (index, key) in keys.enumerated() {
            var slot = Int(Array(key.stringValue.utf8).withUnsafeBufferPointer(Self.hash)) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int16(index)
        }
        var prefixWords: [UInt64] = []
        var prefixStarts: [Int] = []
        var prefixLastMasks: [UInt64] = []
        for key in keys {
            prefixStarts.append(prefixWords.count)
            let prefix = Array(key.stringValue.utf8) + [ASCII.quote, ASCII.colon]
            for wordStart in stride(from: 0, to: prefix.count, by: 8) {
                var word: UInt64 = 0
                for (offset, byte) in prefix[wordStart..<min(wordStart + 8, prefix.count)].enumerated() {
                    word |= UInt64(byte) << (8 * UInt64(offset))
                }
                prefixWords.append(word)
            }
            let lastCount = prefix.count - (prefix.count - 1) / 8 * 8
            prefixLastMasks.append(lastCount == 8 ? ~0 : (1 << (8 * UInt64(lastCount))) - 1)
        }
        prefixStarts.append(prefixWords.count)
        self.prefixWords = prefixWords
        self.prefixStarts = prefixStarts
        self.prefixLastMasks = prefixLastMasks
        self.names = names
        self.nameStarts = nameStarts
        self.slots = slots
        slotMask = size - 1
    }

    /// The index of the field named by `name`, or nil; the field at `guess` (if any) is tried first.
    @inline(__always)
    func index(of name: UnsafeBufferPointer<UInt8>, guess: Int) -> Int? {
        names.withUnsafeBufferPointer { names in
            nameStarts.withUnsafeBufferPointer { starts in
                if guess < keys.count, Self.matches(name, field: guess, names: names, starts: starts) { return guess }
                var slot = Int(Self.hash(name)) & slotMask
                while true {
                    let candidate = Int(slots[slot])
                    if candidate < 0 { return nil }
                    if Self.matches(name, field: candidate, names: names, starts: starts) { return candidate }
                    slot = (slot + 1) & slotMask
                }
            }
        }
    }

    /// The length in bytes of the field's name.
    @inline(__always)
    func nameLength(of field: Int) -> Int {
        nameStarts[field + 1] - nameStarts[field]
    }

    /// Whether the member name starting at `start` in `text` (just after its opening quote) is the field's name,
    /// closing quote included: the common case of a field in Apple's order, matched without scanning the name first.
    @inline(__always)
    func isName(of field: Int, at start: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field < keys.count else { return false }
        return names.withUnsafeBufferPointer { names in
            nameStarts.withUnsafeBufferPointer { starts in
                let nameStart = starts[field]
                let count = starts[field + 1] - nameStart
                guard start + count < text.count, text[start + count] == ASCII.quote else { return false }
                return Self.matches(
                    UnsafeBufferPointer(rebasing: text[start..<(start + count)]), field: field, names: names,
                    starts: starts)
            }
        }
    }

    /// Whether the field's name, its closing quote and a colon start at `start` in `text` (just after the member's
    /// opening quote): the common case of a field in Apple's order, matched a word at a time. It answers false, and
    /// the caller looks closer, where the words would reach past the end of `text`.
    @inline(__always)
    func isNameAndColon(of field: Int, at start: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field < keys.count else { return false }
        return prefixWords.withUnsafeBufferPointer { words in
            prefixStarts.withUnsafeBufferPointer { starts in
                let first = starts[field]
                let last = starts[field + 1] - 1
                guard start + (last - first + 1) * 8 <= text.count else { return false }
                let raw = UnsafeRawBufferPointer(text)
                var offset = start
                for word in first..<last {
                    guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == words[word] else {
                        return false
                    }
                    offset += 8
                }
                let tail = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & prefixLastMasks[field]
                return tail == words[last]
            }
        }
    }

    /// A cheap hash of a name: its length and its first, middle and last bytes.
    @inline(__always)
    private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let first = name.first, let last = name.last else { return 0 }
        let middle = name[name.count / 2]
        return UInt32(name.count) &* 0x9E37_79B1 ^ UInt32(first) &* 31 ^ UInt32(middle) &* 7 ^ UInt32(last) &* 131
    }

    @inline(__always)
    private static func matches(
        _ name: UnsafeBufferPointer<UInt8>, field: Int, names: UnsafeBufferPointer<UInt8>,
        starts: UnsafeBufferPointer<Int>
    ) -> Bool {
        let start = starts[field]
        let count = starts[field + 1] - start
        guard count == name.count else { return false }
        return FastJSONReader.bytesEqual(UnsafeBufferPointer(rebasing: names[start..<(start + count)]), name)
    }
}
