import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation

/// Hostile-shape figures: inputs built to make a cost grow faster than the input, each at two sizes with the growth
/// exponent between them (1 is linear; n log n shows as a little more than 1; 2 is quadratic).
///
/// None of these shapes occurs in a real history; each is a way an attacker, or a corrupted store, could make one
/// rebuild or one decode take minutes.
enum HostileBenchmark {
    /// One hostile shape: its name, the unit its size counts, its two sizes (quick, full) and the work at a size.
    struct Shape {
        var name: String
        var unit: String
        var quickSizes: (Int, Int)
        var fullSizes: (Int, Int)
        /// Builds the input of a size and returns the work to time on it.
        var prepare: (Int) -> () -> Void
        /// The rebuild's work at a size, in entries (`RebuildCost`), for the shapes that rebuild with validUntil.
        var counted: ((Int) -> (entries: Int, size: Int))? = nil
    }

    /// The shapes that made finding validUntil cost more than linear work, and the ledger filling up: each rebuilt
    /// with validUntil (the rebuild's own budget), with the counter beside the time.
    static var validUntilShapes: [Shape] {
        HostileHistories.Shape.allCases.map { kind in
            Shape(
                name: "validUntil: \(kind.rawValue)", unit: "entries", quickSizes: (250, 1_000),
                fullSizes: (2_000, 8_000),
                prepare: { size in
                    let (history, asOf) = HostileHistories.history(kind, size: size)
                    return { keep(rebuildEntitlements(history: history, asOf: asOf)) }
                },
                counted: { size in
                    let (history, asOf) = HostileHistories.history(kind, size: size)
                    return (rebuildEntitlementsCountingCost(history: history, asOf: asOf).cost.total, history.count)
                })
        } + [
            Shape(
                name: "ledger: n notifications absorbed one by one", unit: "notifications", quickSizes: (1_000, 4_000),
                fullSizes: (10_000, 40_000)
            ) { size in
                let notifications = ledgerNotifications(size)
                return {
                    var ledger = CustomerLedger()
                    for notification in notifications { ledger.absorb(notification) }
                    keep(ledger.count)
                }
            }
        ]
    }

    /// `count` DID_RENEW notifications of one chain, each with its own UUID and renewal.
    static func ledgerNotifications(_ count: Int) -> [NotificationPayload] {
        (0..<count).map { index in
            let purchase = start.addingTimeInterval(Double(index) * month)
            let renewal = transaction(
                id: String(6_000_000_000 + index), original: "6000000000", productId: "com.example.hostile.monthly",
                purchase: purchase, expires: purchase.addingTimeInterval(month), shared: false)
            return NotificationPayload(
                notificationType: .didRenew,
                notificationUUID: String(format: "00000000-0000-4000-8000-%012d", index), version: "2.0",
                signedDate: purchase,
                data: NotificationData(
                    environment: .production, bundleId: FamilyHistory.bundleId, transactionInfo: renewal))
        }
    }

    static let start = Date(timeIntervalSince1970: 1_451_606_400)  // 2016-01-01
    static let month: TimeInterval = 30 * 86_400

    static var shapes: [Shape] {
        [
            Shape(
                name: "REVOKEs x renewals, one chain", unit: "renewals, as many REVOKEs", quickSizes: (200, 1_000),
                fullSizes: (2_000, 20_000)
            ) { count in
                let history = revokesTimesRenewals(count)
                let asOf = start.addingTimeInterval(Double(count + 1) * month)
                return { keep(rebuildEntitlements(history: history, asOf: asOf)) }
            },
            Shape(
                name: "distinct products, one chain", unit: "transactions", quickSizes: (2_000, 20_000),
                fullSizes: (10_000, 100_000)
            ) { count in
                let history = distinctProducts(count)
                let asOf = start.addingTimeInterval(Double(count) * 3_600 + month / 2)
                return { keep(rebuildEntitlements(history: history, asOf: asOf)) }
            },
            Shape(
                name: "snapshots of one transaction", unit: "snapshots", quickSizes: (1_000, 10_000),
                fullSizes: (10_000, 100_000)
            ) { count in
                let history = snapshotsOfOneTransaction(count)
                let asOf = start.addingTimeInterval(month / 2)
                return { keep(rebuildEntitlements(history: history, asOf: asOf)) }
            },
            Shape(
                name: "non-ASCII look-alike JWS, decodeUnverifiedJWS", unit: "bytes", quickSizes: (16_000, 64_000),
                fullSizes: (250_000, 1_000_000)
            ) { count in
                let text = lookAlikeJWS(count)
                return { keep(try? decodeUnverifiedJWS(text, as: TransactionPayload.self)) }
            },
            Shape(
                name: "non-ASCII look-alike JWS, AppStoreDocument(data:)", unit: "bytes", quickSizes: (16_000, 64_000),
                fullSizes: (250_000, 1_000_000)
            ) { count in
                let data = Data(lookAlikeJWS(count).utf8)
                return { keep(try? AppStoreDocument(data: data)) }
            },
        ] + validUntilShapes
    }

    /// The flag that runs `probe(shape:size:calls:)`.
    static let probeFlag = "--hostile-probe"

    /// Runs the shape whose name starts with `prefix` at one size `calls` times and nothing else, so that a profiler
    /// such as callgrind counts only that work.
    static func probe(shape prefix: String, size: Int, calls: Int) -> Int32 {
        guard let shape = shapes.first(where: { $0.name.hasPrefix(prefix) }) else {
            print("hostile probe: no shape named \(prefix); shapes: \(shapes.map(\.name).joined(separator: "; "))")
            return 2
        }
        let work = shape.prepare(size)
        let start = threadSeconds()
        for _ in 0..<calls { work() }
        print(
            "\(shape.name), \(Report.count(Double(size))) \(shape.unit), \(calls) calls: \(time((threadSeconds() - start) / Double(calls))) each"
        )
        return 0
    }

    static func run(_ settings: BenchmarkSettings) {
        for shape in shapes {
            let (small, large) = settings.isQuick ? shape.quickSizes : shape.fullSizes
            var seconds: [Double] = []
            for size in [small, large] {
                let work = shape.prepare(size)
                seconds.append(measure(units: 1, bytes: 0, settings, work).secondsPerUnit)
            }
            let exponent = log(seconds[1] / seconds[0]) / log(Double(large) / Double(small))
            var counted = ""
            if let count = shape.counted {
                let (one, other) = (count(small), count(large))
                counted =
                    "; counter \(Report.decimal(Double(one.entries) / Double(one.size), digits: 2)) and "
                    + "\(Report.decimal(Double(other.entries) / Double(other.size), digits: 2)) per entry"
            }
            Report.line(
                "hostile: \(shape.name)",
                "\(time(seconds[0])) at \(Report.count(Double(small))), \(time(seconds[1])) at "
                    + "\(Report.count(Double(large)))",
                "growth exponent \(Report.decimal(exponent, digits: 2)) (\(shape.unit))\(counted)")
        }
        familyExactness(settings)
    }

    /// Whether the budget leaves `validUntil` exact on the benchmark's family histories, and the work it took: the
    /// budget must never make it earlier there.
    static func familyExactness(_ settings: BenchmarkSettings) {
        for count in settings.isQuick ? [10, 100, 1_000] : [10, 100, 1_000, 10_000] {
            let history = History(transactions: FamilyHistory.transactions(count: count))
            let asOf = FamilyHistory.tenYearsEnd
            let budgeted = rebuildEntitlementsCountingCost(history: history, asOf: asOf)
            let exact = rebuildEntitlementsCountingCost(history: history, asOf: asOf, validUntilBudget: .unlimited)
            Report.line(
                "validUntil, family history of \(Report.count(Double(count)))",
                budgeted.report.validUntil == exact.report.validUntil ? "exact" : "EARLIER than exact",
                "counter \(Report.decimal(Double(budgeted.cost.total) / Double(count), digits: 2)) per transaction "
                    + "(\(Report.decimal(Double(exact.cost.total) / Double(count), digits: 2)) without the budget)")
        }
    }

    private static func time(_ seconds: Double) -> String {
        seconds >= 1 ? "\(Report.decimal(seconds, digits: 2)) s" : "\(Report.decimal(seconds * 1000, digits: 2)) ms"
    }

    /// One family-shared monthly chain of `count` renewals, and a REVOKE without revocationDate in each period: every
    /// transaction asks for the first REVOKE at or after its purchase.
    static func revokesTimesRenewals(_ count: Int) -> History {
        var transactions: [TransactionPayload] = []
        var notifications: [NotificationPayload] = []
        for index in 0..<count {
            let purchase = start.addingTimeInterval(Double(index) * month)
            let renewal = transaction(
                id: String(3_000_000_000 + index), original: "3000000000", productId: "com.example.hostile.monthly",
                purchase: purchase, expires: purchase.addingTimeInterval(month), shared: true)
            transactions.append(renewal)
            var revoked = renewal
            revoked.signedDate = purchase.addingTimeInterval(month / 2)
            notifications.append(
                NotificationPayload(
                    notificationType: .revoke, notificationUUID: "revoke-\(index)", version: "2.0",
                    signedDate: revoked.signedDate,
                    data: NotificationData(environment: .production, transactionInfo: revoked)))
        }
        return History(transactions: transactions, notifications: notifications)
    }

    /// One chain whose every transaction names a product of its own, an hour apart.
    static func distinctProducts(_ count: Int) -> History {
        History(
            transactions: (0..<count).map { index in
                let purchase = start.addingTimeInterval(Double(index) * 3_600)
                return transaction(
                    id: String(4_000_000_000 + index), original: "4000000000",
                    productId: "com.example.hostile.product\(index)", purchase: purchase,
                    expires: purchase.addingTimeInterval(month), shared: false)
            })
    }

    /// `count` snapshots of one transaction, signed a second apart and given in a shuffled order.
    static func snapshotsOfOneTransaction(_ count: Int) -> History {
        let original = transaction(
            id: "5000000000", original: "5000000000", productId: "com.example.hostile.monthly", purchase: start,
            expires: start.addingTimeInterval(month), shared: false)
        var random = SeededRandom(seed: 5)
        let snapshots = (0..<count).map { index in
            var snapshot = original
            snapshot.signedDate = start.addingTimeInterval(Double(index))
            return snapshot
        }
        return History(transactions: snapshots.shuffled(using: &random))
    }

    /// Text of about `count` bytes shaped like a compact JWS, all base64url but for one non-ASCII character at the
    /// very end, so that a decoder reads all of it before it can refuse it.
    static func lookAlikeJWS(_ count: Int) -> String {
        let header = "eyJhbGciOiJFUzI1NiIsIng1YyI6W119"
        let payload = String(repeating: "eyJ0cmFuc2FjdGlvbklkIjoiMSJ9", count: max(1, count / 28))
        return "\(header).\(payload).c2lnbmF0dXJl\u{E9}"
    }

    private static func transaction(
        id: String, original: String, productId: String, purchase: Date, expires: Date, shared: Bool
    ) -> TransactionPayload {
        TransactionPayload(
            originalTransactionId: original, transactionId: id, bundleId: FamilyHistory.bundleId,
            productId: productId, purchaseDate: purchase, originalPurchaseDate: start, expiresDate: expires,
            quantity: 1, type: .autoRenewable, inAppOwnershipType: shared ? .familyShared : .purchased,
            signedDate: purchase.addingTimeInterval(2), environment: .production, transactionReason: .renewal)
    }
}
