#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Identifiers derived from a seed, so that builders give the same ids for the same inputs with no shared counter.
enum FixtureIdentifier {
    /// A numeric string of `digits` digits starting with `prefix`, like Apple's transaction identifiers.
    static func numeric(_ seed: String, prefix: String, digits: Int = 16) -> String {
        let width = digits - prefix.count
        var value = hash(seed) % power(width)
        var text = ""
        for _ in 0..<width {
            text = String(value % 10) + text
            value /= 10
        }
        return prefix + text
    }

    /// A version 4 UUID derived from a seed.
    static func uuid(_ seed: String) -> UUID {
        let high = hash(seed + "#high")
        let low = hash(seed + "#low")
        var bytes =
            (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// Milliseconds since 1970 as text, for seeds.
    static func text(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// FNV-1a, 64 bits.
    private static func hash(_ seed: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return value
    }

    private static func power(_ exponent: Int) -> UInt64 {
        (0..<exponent).reduce(1) { result, _ in result * 10 }
    }
}
