import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import FamilyEntitlements

/// The rebuild groups candidates by product in arrays, looking a product id up one by one while there are few and in
/// a dictionary beyond that. Generated sequences of product ids, in runs and interleaved, on both sides of the switch,
/// must group exactly as a dictionary does.
@Suite("Candidates grouped by product")
struct CandidatesByProductTests {
    /// Product ids drawn from `distinct` of them, `count` times: a run of the last one half the time, as a family's
    /// copies and a chain's renewals come, else any.
    static func productIds(distinct: Int, count: Int, seed: UInt64) -> [String] {
        var random = SeededRandom(seed: seed)
        var drawn: [String] = []
        for _ in 0..<count {
            if let last = drawn.last, random.chance(0.5) {
                // A copy of the string, not the same storage: equal ids are compared by content.
                drawn.append(String(decoding: Array(last.utf8), as: UTF8.self))
            } else {
                drawn.append("com.example.product.\(random.next() % UInt64(distinct))")
            }
        }
        return drawn
    }

    static func candidate(at index: Int) -> Candidate {
        Candidate(index: index, state: .active, expires: nil, willRenew: nil, revocation: nil, reasons: [])
    }

    @Test(
        "groups as a dictionary does, below, at and beyond the one-by-one limit",
        arguments: [1, 2, ScannedTable<String>.scanned, ScannedTable<String>.scanned + 1, 40])
    func groupsAsADictionary(distinct: Int) {
        for seed in UInt64(1)...20 {
            let drawn = Self.productIds(distinct: distinct, count: 300, seed: seed &* 7919 &+ UInt64(distinct))
            var grouped = CandidatesByProduct()
            var reference: [String: [Int]] = [:]
            for (index, productId) in drawn.enumerated() {
                grouped.append(Self.candidate(at: index), productId: productId)
                reference[productId, default: []].append(index)
            }
            #expect(Set(grouped.productIds).count == grouped.productIds.count, "seed \(seed): a product id twice")
            #expect(grouped.productIds.count == reference.count, "seed \(seed)")
            var found: [String: [Int]] = [:]
            for (position, productId) in grouped.productIds.enumerated() {
                found[productId] = grouped.lists[position].map(\.index)
            }
            #expect(found == reference, "seed \(seed): grouped differently from a dictionary")
            let sorted = grouped.sortedPositions.map { grouped.productIds[$0] }
            #expect(sorted == reference.keys.sorted(), "seed \(seed)")
            let some = Set(reference.keys.sorted().enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
            #expect(
                grouped.candidates(of: some).mapValues { $0.map(\.index) }
                    == reference.filter { some.contains($0.key) }, "seed \(seed)")
        }
    }

    @Test("an empty grouping names no product")
    func empty() {
        let grouped = CandidatesByProduct()
        #expect(grouped.productIds.isEmpty)
        #expect(grouped.sortedPositions.isEmpty)
        #expect(grouped.candidates(of: ["com.example.product.0"]).isEmpty)
    }
}
