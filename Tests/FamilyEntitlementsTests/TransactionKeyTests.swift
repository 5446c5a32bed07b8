import FamilyEntitlementsTestSupport
import Testing

@testable import FamilyEntitlements

/// The newest snapshots key transactions by `TransactionKey`, which holds an id written as Apple writes them as a
/// number. It must never merge two transactions or split one: two keys are equal exactly when their ids are the same
/// string, and each key gives back its id. Held on generated ids near every edge of the numeric form (leading zeros,
/// 19 and 20 digits, the largest values, bytes just outside the digits, digits beyond ASCII).
@Suite("Transaction ids as keys")
struct TransactionKeyTests {
    /// Ids that are numbers in another form, or almost numbers.
    static let edges = [
        "", "0", "00", "01", "007", "1", "10", "9999999999999999999", "09999999999999999999", "10000000000000000000",
        "18446744073709551615", "18446744073709551616", "99999999999999999999", "-1", "+1", " 1", "1 ", "1.0", "1e3",
        "/", ":", "2000000123456789", "２０００", "a2000000123456789",
    ]

    @Test func keysAreEqualExactlyWhenIdsAre() {
        var random = SeededRandom(seed: 20_261_203)
        // Digits, and the bytes on either side of them, at every length up to 21.
        let alphabet = Array("0123456789") + ["/", ":", "0", "0", "9"]
        var ids = Self.edges
        for _ in 0..<2_000 {
            let length = Int(random.next() % 22)
            ids.append(String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        // Numbers written with their leading zeros, beside the same numbers without.
        for _ in 0..<300 {
            let number = random.next() % 10_000_000_000_000_000_000
            ids.append(String(number))
            ids.append("0" + String(number))
            #expect(TransactionKey(String(number)) != TransactionKey("0" + String(number)))
        }
        var numbers = 0
        for id in ids {
            let key = TransactionKey(id)
            #expect(key.id == id)
            // A string without contiguous storage (bridged from Foundation) is read byte by byte, to the same key.
            if case .number(let value) = key {
                #expect(TransactionKey.number(id.utf8.lazy.map { $0 }) == value)
            } else {
                #expect(TransactionKey.number(id.utf8.lazy.map { $0 }) == nil)
            }
            if case .number = key { numbers += 1 }
        }
        // Both forms are drawn, so that the comparisons below cross them.
        #expect(numbers > 500 && numbers < ids.count - 500)
        for _ in 0..<20_000 {
            let (first, second) = (ids[Int(random.next() % UInt64(ids.count))], ids[Int(random.next() % 50)])
            #expect((TransactionKey(first) == TransactionKey(second)) == (first == second), "\(first) \(second)")
            if first == second { #expect(TransactionKey(first).hashValue == TransactionKey(second).hashValue) }
        }
    }

    @Test func onlyCanonicalDecimalsAreNumbers() {
        for (id, isNumber) in [
            ("0", true), ("7", true), ("2000000123456789", true), ("9999999999999999999", true),
            ("10000000000000000000", false), ("01", false), ("", false), ("２", false), ("1a", false),
        ] {
            if case .number(let value) = TransactionKey(id) {
                #expect(isNumber, "\(id)")
                #expect(String(value) == id)
            } else {
                #expect(!isNumber, "\(id)")
            }
        }
    }
}
