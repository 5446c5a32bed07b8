import FamilyEntitlementsTestSupport
import Testing

@testable import FamilyEntitlements

/// A long string read as a value is checked as it is copied into its `String` where the system allows it, and checked
/// and then copied on Apple systems before macOS 11 and iOS 14. Linux runs only the first in decoding, so both are
/// held here to the rule they implement, on generated texts: a `String` of exactly the text's bytes when every byte
/// lies from 0x20 to 0x7F, nil otherwise.
@Suite("Long strings checked as copied and checked then copied")
struct CheckedStringTests {
    /// Byte sequences that a string may not hold as it is, each of which must make both readings nil: control
    /// characters, bytes beyond ASCII alone, valid UTF-8 beyond ASCII, and sequences a `String` repairs (three bytes
    /// into one U+FFFD of three bytes among them).
    static let outsiders: [[UInt8]] = [
        [0x00], [0x01], [0x09], [0x0A], [0x1F], [0x80], [0xBF], [0xC0, 0xAF], [0xC3, 0xA9], [0xE2, 0x82],
        [0xE2, 0x82, 0xAC], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x80], [0xFF],
    ]

    @Test func bothReadingsFollowTheRule() {
        var random = SeededRandom(seed: 20_261_203)
        // Printable ASCII but the quote and the backslash, which end a string or start an escape before it gets here.
        let printable = (UInt8(0x20)...0x7F).filter { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        var accepted = 0
        var refused = 0
        for round in 0..<3_000 {
            // Lengths on both sides of every step of the copy: 64-byte blocks, 16-byte blocks and single bytes.
            let length = Int(random.next() % 300)
            var text = (0..<length).map { _ in printable[Int(random.next() % UInt64(printable.count))] }
            let insertions = round % 3 == 0 ? 0 : 1 + Int(random.next() % 2)
            for _ in 0..<insertions {
                let outsider = Self.outsiders[Int(random.next() % UInt64(Self.outsiders.count))]
                text.insert(contentsOf: outsider, at: Int(random.next() % UInt64(text.count + 1)))
            }
            let expected = text.allSatisfy { (0x20...0x7F).contains($0) } ? text : nil
            let label = "round \(round): \(text.count) bytes, \(insertions) outsiders"
            text.withUnsafeBytes { raw in
                let checkedThenCopied = FastJSONReader.stringCheckedThenCopied(raw)
                #expect(checkedThenCopied.map { Array($0.utf8) } == expected, "\(label), checked then copied")
                if #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *) {
                    let checkedAsCopied = FastJSONReader.stringCheckedAsCopied(raw)
                    #expect(checkedAsCopied.map { Array($0.utf8) } == expected, "\(label), checked as copied")
                }
            }
            if expected == nil { refused += 1 } else { accepted += 1 }
        }
        // Both outcomes are drawn often, so neither reading passes by answering one way.
        #expect(accepted > 900)
        #expect(refused > 900)
    }
}
