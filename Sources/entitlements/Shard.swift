/// The value of `--shard I/N`: the customers whose id hashes to shard I of N.
///
/// The hash is FNV-1a 64-bit of the id's UTF-8 bytes, modulo N: stable across runs, machines and languages (unlike
/// Swift's seeded `Hasher`), so that N jobs of any batch runner, each given its index, split a fleet exactly.
struct Shard: ArgumentValue, Sendable {
    var index: UInt64
    var count: UInt64

    init(index: UInt64, count: UInt64) {
        self.index = index
        self.count = count
    }

    init(argument text: String, option: String) throws(UsageError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = UInt64(parts[0]), let count = UInt64(parts[1]), count >= 1,
            index < count
        else {
            throw UsageError(
                "\(option) takes I/N with N at least 1 and I from 0 to N-1 (as a batch runner's job index counts), "
                    + "such as 0/4, not \"\(TerminalText.escaped(text))\"")
        }
        self.index = index
        self.count = count
    }

    /// Whether the customer with this id belongs to this shard.
    func contains(_ customer: String) -> Bool {
        Self.fnv1a64(customer) % count == index
    }

    /// FNV-1a, 64-bit: offset basis 0xcbf29ce484222325, prime 0x100000001b3, over the UTF-8 bytes.
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
