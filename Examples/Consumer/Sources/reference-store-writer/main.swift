// Delivers notifications through the recipes into a reference store, as one server process of several would.
//
//     reference-store-writer <database> <deliveries> <now-ms> <seed> <faults-per-mille>
//
// <deliveries> holds one delivery a line: an index, a space, and a request body as Apple posts it (signed by
// FamilyEntitlementsTestSupport's FakeJWSSigner, for the demo app). Each is answered as the notification URL answers
// it; the writer prints `ack <index>` for a 200 and `retry <index>` for anything else. With faults, each step of the
// write path (before and after the load, before and after the conditional write, and inside the write's transaction
// before COMMIT) fails or kills the process now and then: `fault fail` or `fault die`, then the failure. A process
// that dies sent no 200 for the delivery in hand, so Apple, here the stress test, delivers it again.

import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import ReferenceStore
import ServerRecipes

/// Decides where a step fails: never, with an error (a failing step: 503), or by the process dying.
final class Faults: @unchecked Sendable {
    struct Injected: Error {}

    private var random: SeededRandom
    private let perMille: UInt64
    private let lock = NSLock()

    init(seed: UInt64, perMille: UInt64) {
        random = SeededRandom(seed: seed)
        self.perMille = perMille
    }

    /// At a step: one fault in five kills the process, the others fail the step.
    func step() throws {
        let roll = lock.withLock { random.next() % 1000 }
        guard roll < perMille else { return }
        if roll % 5 == 0 {
            say("fault die")
            exit(75)
        }
        say("fault fail")
        throw Injected()
    }
}

/// The store with faults between the steps of the write path.
struct FaultyStore: EntitlementStore {
    let base: SQLiteStore
    let faults: Faults

    func load(_ key: String) async throws -> StoredLedger {
        try faults.step()
        let stored = try base.load(key)
        try faults.step()
        return stored
    }
    func write(_ decision: DecisionWrite, under key: String, ifVersion version: Int64) async throws -> Bool {
        try faults.step()
        let written = try base.write(decision, under: key, ifVersion: version)
        try faults.step()
        return written
    }
    func keysDue(at instant: Date) async throws -> [String] { try base.keysDue(at: instant) }
    func pendingActions(limit: Int) async throws -> [PendingAction] { try base.pendingActions(limit: limit) }
    func markDelivered(_ id: Int64) async throws { try base.markDelivered(id) }
    func accountLinks() async throws -> AccountLinks { try base.accountLinks() }
    func save(_ links: AccountLinks) async throws { try base.save(links) }
}

/// Writes a line to standard output at once, unbuffered, so that a process that dies next has said it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let nowMs = Int64(arguments[3]), let seed = UInt64(arguments[4]),
    let perMille = UInt64(arguments[5])
else {
    FileHandle.standardError.write(
        Data("usage: reference-store-writer <database> <deliveries> <now-ms> <seed> <faults-per-mille>\n".utf8))
    exit(64)
}
let faults = Faults(seed: seed, perMille: perMille)
let now = Date(timeIntervalSince1970: Double(nowMs) / 1000)
let store = try SQLiteStore(path: arguments[1], beforeCommit: { try faults.step() })
let service = try RecipeService(
    intake: NotificationIntake(
        policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId), verifier: FakeJWSVerifier()),
    bundleId: DemoApp.bundleId, store: FaultyStore(base: store, faults: faults), catalog: nil, clock: { now },
    push: { _, _ in })
for line in try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n") {
    guard let space = line.firstIndex(of: " ") else { continue }
    let index = line[..<space]
    let status = await service.receiveAppStoreNotification(body: Data(line[line.index(after: space)...].utf8))
    say(status == 200 ? "ack \(index)" : "retry \(index)")
}
