import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The rebuild's work, counted in entries (`RebuildCost`), stays within `perEntry · n + fixed` for a history of n
/// entries, `validUntil` included: on every hostile shape, on mixes of them and on random histories.
@Suite("The rebuild's cost")
struct RebuildCostTests {
    /// c and d of the bound c · n + d.
    static let perEntry = 6
    static let fixed = 1_200
    static let sizes = [64, 256, 1_024, 4_096]

    static func bound(_ history: History) -> Int { perEntry * history.count + fixed }

    /// The work of a rebuild, checked against the bound, and, for a history small enough to find it, its validUntil
    /// against the exact one: never later, and nothing else changed.
    static func check(_ history: History, asOf: Date, _ context: String) {
        let (report, cost) = rebuildEntitlementsCountingCost(history: history, asOf: asOf)
        #expect(cost.total <= bound(history), "\(context): \(cost.total) > \(bound(history)) (\(cost))")
        // Each piece of work counted once: the dates planned once, every entry admitted once per rebuild.
        #expect(cost.planned == history.count, "\(context): \(cost)")
        #expect(cost.admitted == history.count * (1 + cost.wholeRebuilds), "\(context): \(cost)")
        guard history.count <= 600 else { return }
        let exact = rebuildEntitlementsCountingCost(history: history, asOf: asOf, validUntilBudget: .unlimited)
        var plain = exact.report
        plain.validUntil = report.validUntil
        #expect(report == plain, "\(context): the budget changed more than validUntil")
        if let found = report.validUntil {
            #expect(exact.report.validUntil.map { found <= $0 } ?? true, "\(context): validUntil later than exact")
            #expect(found > report.asOf, "\(context)")
        } else {
            #expect(exact.report.validUntil == nil, "\(context): validUntil nil where the decision changes")
        }
    }

    @Test(arguments: HostileHistories.Shape.allCases)
    func eachShape(_ shape: HostileHistories.Shape) {
        for size in Self.sizes {
            let (history, asOf) = HostileHistories.history(shape, size: size)
            Self.check(history, asOf: asOf, "\(shape.rawValue), n \(history.count)")
        }
    }

    @Test(arguments: HostileHistories.Shape.allCases)
    func mixes(_ first: HostileHistories.Shape) {
        for second in HostileHistories.Shape.allCases {
            let (history, asOf) = HostileHistories.mix(first, second, size: first == second ? 512 : 1_536)
            Self.check(history, asOf: asOf, "\(first.rawValue) with \(second.rawValue)")
        }
    }

    /// Without the budget, the counter sees the work grow faster than the history on every shape but one: what the
    /// property above would catch if the budget were lost. Statuses all signed at one instant are one boundary, which
    /// re-evaluates one chain once: linear without the budget too.
    @Test(arguments: HostileHistories.Shape.allCases)
    func withoutTheBudget(_ shape: HostileHistories.Shape) {
        let (history, asOf) = HostileHistories.history(shape, size: 512)
        let cost = rebuildEntitlementsCountingCost(history: history, asOf: asOf, validUntilBudget: .unlimited).cost
        if shape == .statusesSignedAfter {
            #expect(cost.total <= Self.bound(history), "\(shape.rawValue): \(cost.total) entries without the budget")
        } else {
            #expect(cost.total > Self.bound(history), "\(shape.rawValue): \(cost.total) entries without the budget")
        }
    }

    /// The counter's units, on histories small enough to count by hand: a chain's evaluation reads its transactions
    /// and Apple's statuses of it, once at the instant and once at each date `validUntil` visits.
    @Test func countsByHand() {
        // One chain of one transaction expiring after asOf: evaluated at asOf and at its expiry, where the decision
        // changes.
        let one = HostileHistories.history(.chainsExpiringOneByOne, size: 1)
        let chain = rebuildEntitlementsCountingCost(history: one.history, asOf: one.asOf, validUntilBudget: .unlimited)
        #expect(chain.cost.chainEntries == 2, "\(chain.cost)")
        #expect(chain.cost.purchaseEntries == 0 && chain.cost.wholeRebuilds == 0, "\(chain.cost)")
        // With a lifetime purchase beside it: the purchase names no later date, so it is evaluated once, at asOf, and
        // only the chain again at its expiry.
        var lifetime = one.history.transactions[0]
        (lifetime.transactionId, lifetime.originalTransactionId) = ("lifetime-1", "lifetime-1")
        (lifetime.productId, lifetime.type, lifetime.expiresDate) = ("com.example.lifetime", .nonConsumable, nil)
        (lifetime.subscriptionGroupIdentifier, lifetime.webOrderLineItemId) = (nil, nil)
        let beside = rebuildEntitlementsCountingCost(
            history: History(transactions: one.history.transactions + [lifetime]), asOf: one.asOf,
            validUntilBudget: .unlimited)
        #expect(beside.report.decision(for: "com.example.lifetime")?.hasAccess == true, "\(beside.report)")
        #expect(beside.cost.chainEntries == 2 && beside.cost.purchaseEntries == 1, "\(beside.cost)")
        // The same chain with two statuses signed after asOf: three entries an evaluation, at asOf, at each status and
        // at the expiry; at the expiry the cross-check reads the chain's one transaction again, evaluated at the
        // instant Apple signed the latest status (at each status's own instant, that evaluation is the one made).
        let statuses = HostileHistories.history(.statusesAtDistinctInstants, size: 2)
        let read = rebuildEntitlementsCountingCost(
            history: statuses.history, asOf: statuses.asOf, validUntilBudget: .unlimited)
        #expect(read.cost.chainEntries == 4 * 3 + 1, "\(read.cost)")
        // The report is summarised at asOf and again only where an evaluation changed: at the expiry, not at the
        // statuses, which agree with the chain.
        #expect(read.cost.summarised == 2, "\(read.cost)")
    }

    /// Every shipped scenario, at its instant and at every date its history names: validUntil with the budget is the
    /// exact one.
    @Test(arguments: Scenario.allCases)
    func exactOnShippedScenarios(_ scenario: Scenario) throws {
        let expected = try scenario.expectedReport()
        let (history, catalog) = (try scenario.history(), try scenario.catalog())
        for instant in [expected.asOf] + LedgerHistoryMutator.edges(of: history, from: .distantPast)
        where instant < .distantFuture {
            let budgeted = rebuildEntitlementsCountingCost(
                history: history, asOf: instant, environment: expected.environment, catalog: catalog)
            let exact = rebuildEntitlementsCountingCost(
                history: history, asOf: instant, environment: expected.environment, catalog: catalog,
                validUntilBudget: .unlimited)
            #expect(budgeted.report == exact.report, "\(scenario.rawValue) at \(instant)")
        }
    }

    /// validUntil spends at most its budget, for every budget from none to what the exact instant takes: each step is
    /// paid before it is taken, but for the chain the cross-check reads again at the instant of Apple's status, which
    /// is paid as soon as it is read, so that the last step may overspend by one such chain (`reread`). Whole rebuilds
    /// settle after the fact, and are left out. The last history has Apple's status of every chain signed before
    /// asOf, so that every step reads its chain again.
    @Test(arguments: [
        ("statuses at distinct instants, n 3", 3, 1), ("statuses at distinct instants, n 6", 6, 1),
        ("statuses signed after, n 4", 4, 1), ("chains expiring one by one, n 5", 5, 0),
        ("one chain of n products, n 4", 4, 0), ("chains expiring one by one with statuses before asOf, n 6", 6, 1),
    ])
    func budgetIsSpentAsCounted(_ name: String, size: Int, reread: Int) {
        let (history, asOf) = Self.budgetHistory(name, size: size)
        func cost(_ budget: Staleness.Budget) -> RebuildCost {
            rebuildEntitlementsCountingCost(history: history, asOf: asOf, validUntilBudget: budget).cost
        }
        let none = cost(.entries(0)).total
        let exact = cost(.unlimited)
        #expect(exact.total > none, "\(name): finding validUntil takes work")
        for budget in 0...(exact.total - none) {
            let spent = cost(.entries(budget))
            guard spent.wholeRebuilds == 0 else { continue }
            #expect(spent.total - none <= budget + reread, "\(name): budget \(budget), \(spent)")
        }
    }

    static func budgetHistory(_ name: String, size: Int) -> (History, Date) {
        let shapes: [(String, HostileHistories.Shape)] = [
            ("statuses at distinct instants", .statusesAtDistinctInstants),
            ("statuses signed after", .statusesSignedAfter),
            ("chains expiring one by one", .chainsExpiringOneByOne), ("one chain of n products", .productsOfOneChain),
        ]
        let shape = shapes.first { name.hasPrefix($0.0) }?.1 ?? .chainsExpiringOneByOne
        var (history, asOf) = HostileHistories.history(shape, size: size)
        if name.contains("with statuses before asOf") {
            history.subscriptionStatuses = history.transactions.map { transaction in
                SubscriptionStatusSnapshot(
                    originalTransactionId: transaction.originalTransactionId, status: .active,
                    signedDate: transaction.signedDate, environment: transaction.environment,
                    bundleId: transaction.bundleId, subscriptionGroupIdentifier: "g")
            }
        }
        return (history, asOf)
    }

    @Test(arguments: 0..<24)
    func randomHistories(seed: Int) {
        let size = [50, 200, 800, 3_000][seed % 4]
        let (history, asOf) = HostileHistories.random(size: size, seed: UInt64(seed) + 41)
        Self.check(history, asOf: asOf, "random history \(seed), n \(history.count)")
    }
}
