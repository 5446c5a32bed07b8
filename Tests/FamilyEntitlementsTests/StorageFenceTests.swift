import Foundation
import Testing

@testable import FamilyEntitlements

/// The engine's speed tricks live behind one fence, `Sources/FamilyEntitlements/Rebuild/Storage`: packed entries and
/// their numbered positions, the transaction id key, the small tables and the unsafe buffers. The rules outside it
/// read payloads through `PayloadView` and positions as plain `Int`s. These scans keep it so.
struct StorageFenceTests {
    static let rebuild = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FamilyEntitlements/Rebuild")

    /// The code of a file, its comments dropped line by line.
    static func code(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        }
    }

    /// The lines of `text` that reach past the fence: an unsafe pointer or buffer, or a 32-bit position.
    static func trespasses(in text: String) -> [String] {
        code(of: text).filter { $0.contains("Unsafe") || $0.contains(".pointee") || $0.contains(/\bU?Int32\b/) }
    }

    /// The files of the folder at `url`, by name.
    static func swiftFiles(at url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test("the scan finds what it looks for, and not in comments")
    func scanFindsTrespasses() {
        #expect(Self.trespasses(in: "let p: UnsafePointer<TransactionPayload>").count == 1)
        #expect(Self.trespasses(in: "x = transaction.pointee.id").count == 1)
        #expect(Self.trespasses(in: "private var position: Int32").count == 1)
        #expect(Self.trespasses(in: "buffer.withUnsafeBufferPointer { $0 }").count == 1)
        #expect(Self.trespasses(in: "/// read in place, not through an UnsafePointer").isEmpty)
        #expect(Self.trespasses(in: "let count: Int // not an Int32").isEmpty)
        #expect(Self.trespasses(in: "let view: PayloadView, index: Int").isEmpty)
    }

    @Test("no rule file of Rebuild/ names an unsafe pointer or a 32-bit position; Storage/ does")
    func rulesStayOutsideTheFence() throws {
        let rules = try Self.swiftFiles(at: Self.rebuild)
        #expect(rules.count >= 10, "\(rules)")
        for file in rules {
            let text = try String(contentsOf: Self.rebuild.appendingPathComponent(file), encoding: .utf8)
            #expect(Self.trespasses(in: text).isEmpty, "\(file): \(Self.trespasses(in: text))")
        }
        // The fence is where the scan says it is: the unsafe buffer lives inside it.
        let storage = Self.rebuild.appendingPathComponent("Storage")
        let fenced = try Self.swiftFiles(at: storage).map {
            try String(contentsOf: storage.appendingPathComponent($0), encoding: .utf8)
        }
        #expect(fenced.contains { !Self.trespasses(in: $0).isEmpty })
    }

    @Test("every file of Storage/ states its invariants")
    func storageStatesItsInvariants() throws {
        let storage = Self.rebuild.appendingPathComponent("Storage")
        let files = try Self.swiftFiles(at: storage)
        #expect(files.count >= 5, "\(files)")
        for file in files {
            let text = try String(contentsOf: storage.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("/// Invariants"), "\(file) states no invariants")
        }
    }

    /// The files of Rebuild/ that may name the cost counter: its own, validUntil's (whose budget is in the counter's
    /// units, its one reader inside the engine), and the rebuild's entry, which counts the work from what the
    /// evaluation says it read (`EntriesRead`). No stage takes the counter as a parameter.
    static let counters: Set<String> = ["RebuildCost.swift", "ValidUntil.swift", "RebuildEntitlements.swift"]

    @Test("no stage takes the cost counter: only its own file, validUntil and the rebuild's entry name it")
    func costIsDerivedNotThreaded() throws {
        let files = try Self.swiftFiles(at: Self.rebuild)
        #expect(Self.counters.isSubset(of: Set(files)), "\(Self.counters.subtracting(files).sorted())")
        for file in files {
            let code = Self.code(of: try String(contentsOf: Self.rebuild.appendingPathComponent(file), encoding: .utf8))
            let names = code.filter { $0.contains("RebuildCost") }
            #expect(Self.counters.contains(file) || names.isEmpty, "\(file): \(names)")
            let threaded = code.filter { $0.contains(/inout\s+RebuildCost/) }
            #expect(
                ["ValidUntil.swift", "RebuildCost.swift"].contains(file) || threaded.isEmpty, "\(file): \(threaded)")
        }
    }

    @Test("a payload store reads only its own positions, in place")
    func payloadStoreHoldsItsPositions() {
        let payloads = [Given.subscription("7001", from: 0, to: 30), Given.subscription("7002", from: 30, to: 60)]
        PayloadStore.reading(payloads) { store in
            #expect(store.count == 2 && store.indices == 0..<2)
            #expect(!store.holds(-1) && store.holds(0) && store.holds(1) && !store.holds(2) && !store.holds(.max))
            #expect(store[0].transactionId == "7001" && store[1].transactionId == "7002")
            #expect(store[1].copy == payloads[1])
        }
        PayloadStore.reading([]) { store in #expect(!store.holds(0) && store.indices.isEmpty) }
    }
}
