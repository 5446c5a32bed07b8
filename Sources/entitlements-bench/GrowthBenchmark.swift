import FamilyEntitlements
import Foundation

/// Costs that once grew as the square of their input, each measured at n and at 4n side by side, round by round: the
/// figure is the median of the rounds' ratios of the two times, near 4 (at most 5) for a cost that grows as n log n,
/// near 16 for a quadratic one. Both sizes are timed in every round, so that a change in the machine's state affects
/// them alike.
enum GrowthBenchmark {
    /// One cost: its name, the unit n counts, n (quick, full), and the work at a size.
    struct Row {
        var name: String
        var unit: String
        var quickSize: Int
        var fullSize: Int
        /// Builds the input of a size and returns the work to time on it.
        var prepare: (Int) -> () -> Void
        /// Other work on the input of 4n, timed in the same rounds for comparison, and its name.
        var comparison: (name: String, prepare: (Int) -> () -> Void)? = nil
    }

    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    static let month: TimeInterval = 30 * 86_400

    static var rows: [Row] {
        [
            Row(
                name: "changes(from:), two reports of n products", unit: "products", quickSize: 250,
                fullSize: 1_000
            ) { count in
                let (previous, current) = reports(count)
                return { keep(current.changes(from: previous)) }
            },
            Row(
                name: "ledger of n snapshots tied on transactionId and signedDate, rebuilt", unit: "snapshots",
                quickSize: 150, fullSize: 1_500,
                prepare: { count in
                    let ledger = CustomerLedger(History(transactions: tiedSnapshots(count)))
                    return { keep(ledger.rebuild(asOf: start.addingTimeInterval(month / 2))) }
                },
                comparison: (
                    "the same 4n as a history",
                    { count in
                        let history = History(transactions: tiedSnapshots(count))
                        return {
                            keep(rebuildEntitlements(history: history, asOf: start.addingTimeInterval(month / 2)))
                        }
                    }
                )),
        ]
    }

    /// The flag that runs `probe(row:size:calls:)`.
    static let probeFlag = "--growth-probe"

    /// Runs the row whose name starts with `prefix` at one size `calls` times and nothing else, so that a profiler
    /// such as callgrind counts only that work.
    static func probe(row prefix: String, size: Int, calls: Int) -> Int32 {
        guard let row = rows.first(where: { $0.name.hasPrefix(prefix) }) else {
            print("growth probe: no row named \(prefix); rows: \(rows.map(\.name).joined(separator: "; "))")
            return 2
        }
        let work = row.prepare(size)
        let start = threadSeconds()
        for _ in 0..<calls { work() }
        print(
            "\(row.name), \(Report.count(Double(size))) \(row.unit), \(calls) calls: "
                + "\(time((threadSeconds() - start) / Double(calls))) each")
        return 0
    }

    static func run(_ settings: BenchmarkSettings) {
        for row in rows {
            let size = settings.isQuick ? row.quickSize : row.fullSize
            var bodies = [row.prepare(size), row.prepare(4 * size)]
            if let comparison = row.comparison { bodies.append(comparison.prepare(4 * size)) }
            // The larger size is the baseline: each other body's ratio is the larger size's time over its own.
            let measured = measureSideBySide(units: 1, bytes: 0, settings, baseline: 1, bodies)
            var compared = ""
            if let comparison = row.comparison {
                compared = "; \(comparison.name): \(time(measured.rates[2].secondsPerUnit))"
            }
            Report.line(
                "growth: \(row.name)",
                "\(time(measured.rates[0].secondsPerUnit)) at \(Report.count(Double(size))), "
                    + "\(time(measured.rates[1].secondsPerUnit)) at \(Report.count(Double(4 * size)))",
                "4n takes \(Report.ratio(measured.ratios[0])) the time of n (\(row.unit), median of "
                    + "\(settings.runs) rounds)\(compared)")
        }
    }

    /// Two reports of n products each, sorted by product id as the rebuild sorts them, in chains of two products (an
    /// upgrade's pair): between them products lose access, gain it, are replaced within their chain, change state
    /// and willRenew; with one entitlement per product.
    static func reports(_ count: Int) -> (previous: EntitlementReport, current: EntitlementReport) {
        var before: [ProductDecision] = []
        var now: [ProductDecision] = []
        var entitlementsBefore: [EntitlementID: Bool] = [:]
        var entitlementsNow: [EntitlementID: Bool] = [:]
        for index in 0..<count {
            let id = ProductID(String(format: "com.example.growth.product%07d", index))
            let chain = OriginalTransactionID(String(7_000_000_000 + index / 2))
            // Four patterns over a chain's two products: replaced by the other product, unchanged, lost to billing
            // retry, active to grace period with willRenew turned off.
            let states: (AccessState, AccessState, Bool?, Bool?) =
                switch index % 8 {
                case 0: (.active, .upgraded, true, nil)
                case 1: (.expired, .active, nil, true)
                case 2, 3: (.active, .active, true, true)
                case 4, 5: (.active, .billingRetry, true, true)
                default: (.active, .gracePeriod, true, false)
                }
            func decision(_ state: AccessState, _ willRenew: Bool?) -> ProductDecision {
                ProductDecision(
                    productId: id, type: .autoRenewable, state: state, willRenew: willRenew,
                    transactionId: TransactionID(String(8_000_000_000 + index)), originalTransactionId: chain)
            }
            before.append(decision(states.0, states.2))
            now.append(decision(states.1, states.3))
            entitlementsBefore[EntitlementID(id.rawValue)] = states.0.grantsAccess
            entitlementsNow[EntitlementID(id.rawValue)] = states.1.grantsAccess
        }
        func report(_ products: [ProductDecision], _ entitlements: [EntitlementID: Bool]) -> EntitlementReport {
            EntitlementReport(
                asOf: start, environment: .production, customer: .active, products: products,
                entitlements: entitlements, diagnostics: [])
        }
        return (report(before, entitlementsBefore), report(now, entitlementsNow))
    }

    /// n snapshots of one transaction, all with one transactionId and one signedDate, each with other content (its
    /// price): a store that kept every conflicting copy it was sent. Every pair ties but for the JSON.
    static func tiedSnapshots(_ count: Int) -> [TransactionPayload] {
        (0..<count).map { index in
            TransactionPayload(
                originalTransactionId: "9000000000", transactionId: "9000000000",
                bundleId: FamilyHistory.bundleId, productId: "com.example.growth.monthly", purchaseDate: start,
                originalPurchaseDate: start, expiresDate: start.addingTimeInterval(month), quantity: 1,
                type: .autoRenewable, inAppOwnershipType: .purchased, signedDate: start.addingTimeInterval(2),
                environment: .production, transactionReason: .purchase, price: Int64(1_000 + index))
        }
    }

    private static func time(_ seconds: Double) -> String {
        seconds >= 1 ? "\(Report.decimal(seconds, digits: 2)) s" : "\(Report.decimal(seconds * 1000, digits: 2)) ms"
    }
}
