/// A small deterministic random number generator (SplitMix64): the same seed gives the same numbers on every run and
/// every platform, so that generated histories and mutated inputs can be reproduced from their seed.
///
/// Use it wherever a test generates its inputs (`Int.random(in: 1...3, using: &random)`); never for anything secret.
/// The library's own property tests, differential tests and benchmark all draw from it.
public struct SeededRandom: RandomNumberGenerator, Hashable, Sendable {
    /// The generator's state: the seed, advanced once per number drawn.
    public var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with the given probability, from 0 (never) to 1 (always).
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(UInt64(1) << 53) < probability
    }
}
