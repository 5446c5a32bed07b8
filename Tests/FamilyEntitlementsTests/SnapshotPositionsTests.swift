import FamilyEntitlementsTestSupport
import Testing

@testable import FamilyEntitlements

/// The newest snapshots of a history whose ids are numbers are kept in `NumberedPositions`, a set of keys each beside
/// its position, with a flag per position kept as positions come and go. Generated sequences of every operation, over
/// few keys and many, must leave it as a dictionary leaves itself, flags included. As in a history, a position is one
/// transaction's, and so always of the same key.
@Suite("Snapshot positions by the id's value")
struct SnapshotPositionsTests {
    @Test("behaves as a dictionary of positions", arguments: [1, 3, 40, 200])
    func behavesAsADictionary(distinctKeys: Int) {
        for seed in UInt64(1)...10 {
            var random = SeededRandom(seed: seed &* 104_729 &+ UInt64(distinctKeys))
            // Room for fewer positions than are set: the transactions notifications add lie beyond the history's.
            let room = Int(random.next() % 50)
            var positions = NumberedPositions(minimumCapacity: room)
            var reference: [UInt64: Int] = [:]
            let positionCount = 200
            for step in 0..<2_000 {
                // A position is one transaction's, so it always has the same key: near the largest value an id
                // has, or small.
                let position = Int(random.next() % UInt64(positionCount))
                let key =
                    position % 2 == 0
                    ? UInt64(position % distinctKeys) : 9_999_999_999_999_999_999 - UInt64(position % distinctKeys)
                switch random.next() % 4 {
                case 0:
                    #expect(
                        positions.updateValue(position, forKey: key) == reference.updateValue(position, forKey: key))
                case 1:
                    let found = reference[key]
                    #expect(positions.insert(position, forKey: key) == found, "step \(step)")
                    if found == nil { reference[key] = position }
                case 2:
                    positions[key] = nil
                    reference[key] = nil
                default:
                    positions[key] = position
                    reference[key] = position
                }
                #expect(positions[key] == reference[key])
                #expect(positions.count == reference.count)
            }
            for (key, position) in reference { #expect(positions[key] == position) }
            // A flag is held where a key holds that position, and not beyond the positions ever held, which the
            // flags asked for reach past.
            let copy = reference
            let flags = positions.takeFlags(count: positionCount + 10)
            #expect(flags == copy.takeFlags(count: positionCount + 10))
            #expect(flags.filter { $0 }.count == reference.count)
        }
    }
}
