import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import ReferenceStore
import ServerRecipes
import Testing

/// The customers of the stress test: each one subscription of the demo app, with its own story.
enum StressFixture {
    static let customers = 24
    /// Customers 0..<unlinked are linked by the app only while the writers run: their first notifications wait.
    static let unlinked = 4
    static let base = DemoApp.date("2026-01-05T09:00:00Z")
    /// The instant of every writer's decision, after every notification's signedDate.
    static let now = base.addingTimeInterval(280 * 86_400)
    /// The instant of the scheduled decisions that the test runs afterwards.
    static let later = now.addingTimeInterval(60 * 86_400)

    static func token(_ customer: Int) -> AppAccountToken {
        AppAccountToken(UUID(uuidString: String(format: "5b0e9c2e-0000-4000-8000-%012d", customer)) ?? UUID())
    }

    static func key(_ customer: Int) -> String { "customer:\(token(customer).uuid.uuidString.lowercased())" }

    static func first(_ customer: Int) -> TransactionPayload {
        TransactionBuilder.subscription(
            purchased: base.addingTimeInterval(Double(customer) * 86_400), appAccountToken: token(customer).uuid)
    }

    /// The customer's notifications, in the order Apple signed them: renewals, then by `customer % 4` nothing more
    /// (still active), auto-renew off then EXPIRED, a REFUND, or a failed renewal with a grace period.
    static func notifications(_ customer: Int) -> [NotificationPayload] {
        var transactions = [first(customer)]
        for _ in 0..<(customer % 4 == 0 ? 9 : 6) {
            if let last = transactions.last { transactions.append(TransactionBuilder.renewal(of: last)) }
        }
        var notifications =
            [NotificationBuilder.subscribed(transactions[0])]
            + transactions.dropFirst().map {
                NotificationBuilder.didRenew($0)
            }
        guard let last = transactions.last, let start = last.purchaseDate, let end = last.expiresDate else {
            return notifications
        }
        switch customer % 4 {
        case 1:
            notifications.append(
                NotificationBuilder.renewalStatusChanged(last, autoRenew: false, at: start.addingTimeInterval(86_400)))
            notifications.append(NotificationBuilder.expired(last, at: end))
        case 2:
            notifications.append(NotificationBuilder.refund(last, at: start.addingTimeInterval(3 * 86_400)))
        case 3:
            notifications.append(
                NotificationBuilder.didFailToRenew(last, at: end, gracePeriodEnds: end.addingTimeInterval(16 * 86_400)))
        default:
            break
        }
        return notifications
    }

    /// What one writer delivering everything in order decides.
    static func reference(_ customer: Int, asOf instant: Date) -> EntitlementReport {
        var ledger = CustomerLedger()
        for notification in notifications(customer) { ledger.absorb(notification) }
        return ledger.rebuild(asOf: instant, environment: .production, catalog: nil)
    }

    /// The fields of a report that a service acts on.
    static func decision(_ report: EntitlementReport?) -> [String] {
        guard let report else { return ["none"] }
        return [
            "customer \(report.customerStatus.rawValue) \(report.customerReason?.rawValue ?? "-")",
            "entitlements \(report.entitlements.filter(\.value).keys.map(\.rawValue).sorted())",
            "diagnostics \(report.diagnostics.map(\.code.rawValue).sorted())",
            "validUntil \(report.validUntil.map { "\($0)" } ?? "-")",
        ]
            + report.products.map { product in
                "\(product.productId) \(product.state.rawValue) cause \(product.revocationCause?.rawValue ?? "-") "
                    + "willRenew \(product.willRenew.map { "\($0)" } ?? "-") expires "
                    + "\(product.expiresDate.map { "\($0)" } ?? "-")"
            }
    }
}

/// The pushes the outbox worker sends.
actor Pushes {
    var sent: [OutboxAction] = []

    func append(_ customer: String, _ codes: [String]) { sent.append(OutboxAction(customer: customer, codes: codes)) }
}

/// A store whose `markDelivered` fails once in a while: the outbox worker dies between a push and its mark.
struct ForgetfulStore: EntitlementStore {
    let base: SQLiteStore
    let marks = Counter()

    final class Counter: @unchecked Sendable {
        private var count = 0
        private let lock = NSLock()

        func next() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
    }

    struct Forgot: Error {}

    func load(_ key: String) async throws -> StoredLedger { try base.load(key) }
    func write(_ decision: DecisionWrite, under key: String, ifVersion version: Int64) async throws -> Bool {
        try base.write(decision, under: key, ifVersion: version)
    }
    func keysDue(at instant: Date) async throws -> [String] { try base.keysDue(at: instant) }
    func pendingActions(limit: Int) async throws -> [PendingAction] { try base.pendingActions(limit: limit) }
    func markDelivered(_ id: Int64) async throws {
        if marks.next() % 7 == 0 { throw Forgot() }
        try base.markDelivered(id)
    }
    func accountLinks() async throws -> AccountLinks { try base.accountLinks() }
    func save(_ links: AccountLinks) async throws { try base.save(links) }
}

struct StressTests {
    static let writers = 4

    /// The writer executable, built beside this test bundle (this test target depends on it).
    static func writerExecutable() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let candidates = [
            bundle, bundle.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        .map { $0.appendingPathComponent("reference-store-writer") }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
    }

    static func service(_ store: any EntitlementStore, at instant: Date, pushes: Pushes? = nil) throws
        -> RecipeService<FakeJWSVerifier>
    {
        try RecipeService(
            intake: NotificationIntake(
                policy: .production(bundleId: DemoApp.bundleId, appAppleId: DemoApp.appAppleId),
                verifier: FakeJWSVerifier()),
            bundleId: DemoApp.bundleId, store: store, catalog: nil, clock: { instant },
            push: { customer, codes in await pushes?.append(customer, codes) })
    }

    /// One round of deliveries, split among the writer processes, each on its own connection: the indices they
    /// answered 200, and the faults they reported.
    static func deliver(
        _ deliveries: [(index: Int, body: String)], database: URL, folder: URL, round: Int, faultsPerMille: Int,
        whileRunning: () async throws -> Void
    ) async throws -> (acked: Set<Int>, faults: [String]) {
        let writer = try writerExecutable()
        var processes: [(Process, Pipe)] = []
        for slot in 0..<writers {
            let queue = folder.appendingPathComponent("round\(round)-writer\(slot).txt")
            let lines = deliveries.enumerated().filter { $0.offset % writers == slot }.map {
                "\($0.element.index) \($0.element.body)\n"
            }
            try Data(lines.joined().utf8).write(to: queue)
            let process = Process()
            process.executableURL = writer
            process.arguments = [
                database.path, queue.path, "\(SQLiteStore.milliseconds(StressFixture.now))",
                "\(round * 100 + slot + 1)",
                "\(faultsPerMille)",
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            processes.append((process, pipe))
        }
        try await whileRunning()
        var acked: Set<Int> = []
        var faults: [String] = []
        for (process, pipe) in processes {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            for line in output.split(separator: "\n") {
                if line.hasPrefix("ack "), let index = Int(line.dropFirst(4)) { acked.insert(index) }
                if line.hasPrefix("fault ") { faults.append(String(line.dropFirst(6))) }
            }
            #expect([0, 75].contains(process.terminationStatus), "a writer exits or dies at an injected fault")
        }
        return (acked, faults)
    }

    @Test(.timeLimit(.minutes(3)))
    func concurrentFailingWritersKeepEveryNotificationAndDecideAsOneWriter() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reference-store-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("store.sqlite")
        let store = try SQLiteStore(path: database.path)
        // The customers that linked their purchase before: their notifications go straight to their ledgers.
        var links = AccountLinks()
        for customer in StressFixture.unlinked..<StressFixture.customers {
            let request = try AccountLinkRequest(
                transaction: StressFixture.first(customer), user: StressFixture.token(customer))
            _ = links.link(request)
        }
        try store.save(links)

        // Every notification once, one in four twice more (Apple's retries), in a shuffled order.
        var random = SeededRandom(seed: 20_260_105)
        var deliveries: [(index: Int, body: String)] = []
        var customerOf: [String: Int] = [:]
        for customer in 0..<StressFixture.customers {
            for notification in StressFixture.notifications(customer) {
                customerOf[notification.notificationUUID ?? ""] = customer
                let body = String(decoding: try FakeJWSSigner().requestBody(for: notification), as: UTF8.self)
                for _ in 0..<(random.next() % 4 == 0 ? 3 : 1) { deliveries.append((deliveries.count, body)) }
            }
        }
        #expect(customerOf.count >= 200)
        #expect(deliveries.count > customerOf.count)
        deliveries.shuffle(using: &random)

        // Apple delivers again what got no 200, round after round; faults in the first three rounds.
        var pending = deliveries
        var faults: [String] = []
        var round = 0
        while !pending.isEmpty, round < 10 {
            let result = try await Self.deliver(
                pending, database: database, folder: folder, round: round, faultsPerMille: round < 3 ? 25 : 0
            ) {
                guard round == 1 else { return }
                // While the writers run, the unlinked customers' apps link their purchases: what waited joins them.
                let waiting = try store.keys().filter { $0.hasPrefix("transaction:") }
                #expect(!waiting.isEmpty, "round 0 left notifications waiting for a link")
                let app = try Self.service(store, at: StressFixture.now)
                for customer in 0..<StressFixture.unlinked {
                    let signed = try FakeJWSSigner().sign(StressFixture.first(customer))
                    #expect(try await app.link(signedTransaction: signed, user: StressFixture.token(customer)))
                }
            }
            pending.removeAll { result.acked.contains($0.index) }
            faults += result.faults
            round += 1
        }
        #expect(pending.isEmpty, "every delivery answered 200 in the end")
        #expect(faults.contains("die") && faults.contains("fail"), "faults were injected: \(faults.count)")

        // The outbox worker, dying now and then between a push and its mark, is run until nothing is pending.
        let pushes = Pushes()
        let worker = try Self.service(ForgetfulStore(base: store), at: StressFixture.now, pushes: pushes)
        for _ in 0..<100 where !(try store.pendingActions(limit: 1).isEmpty) {
            try? await worker.deliverOutbox()
        }
        let outbox = try store.outbox()
        #expect(!outbox.isEmpty && outbox.allSatisfy(\.delivered))
        var sent = await pushes.sent
        for row in outbox {
            guard let index = sent.firstIndex(of: row.action) else {
                Issue.record("outbox action \(row.id) never delivered: \(row.action)")
                continue
            }
            sent.remove(at: index)
        }

        // Every customer's ledger holds every notification, and decides as one writer delivering them all in order.
        for customer in 0..<StressFixture.customers {
            let key = StressFixture.key(customer)
            let stored = try store.load(key)
            let expected = Set(StressFixture.notifications(customer).compactMap(\.notificationUUID))
            #expect(Set(stored.ledger.notifications.compactMap(\.notificationUUID)) == expected, "\(key)")
            #expect(
                StressFixture.decision(stored.report)
                    == StressFixture.decision(StressFixture.reference(customer, asOf: StressFixture.now)), "\(key)")
            if stored.report?.products.contains(where: \.hasAccess) == true {
                #expect(
                    await pushes.sent.contains { $0.customer == key && $0.codes.contains("access_granted") },
                    "\(key): a customer with access was told of it")
            }
        }

        // The scheduled decision: the customers whose validUntil has passed, decided again by the same write path.
        let due = try store.keysDue(at: StressFixture.later).filter { $0.hasPrefix("customer:") }
        #expect(due.count >= StressFixture.customers / 4)
        try await Self.service(store, at: StressFixture.later).decideDue()
        for customer in 0..<StressFixture.customers where due.contains(StressFixture.key(customer)) {
            #expect(
                StressFixture.decision(try store.load(StressFixture.key(customer)).report)
                    == StressFixture.decision(StressFixture.reference(customer, asOf: StressFixture.later)))
        }
        #expect(try store.keysDue(at: StressFixture.later).isEmpty)
    }
}
