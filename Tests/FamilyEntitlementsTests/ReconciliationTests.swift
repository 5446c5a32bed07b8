import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct DriftCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var apple: Set<Int>
    var service: Set<Int>
    var alertThreshold: Double = DriftReport<Int>.defaultAlertThreshold
    var missingInService: Set<Int>
    var missingAtApple: Set<Int>
    var percentage: Double
    var needsAlert: Bool
}

struct RateCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var rate: @Sendable (NotificationCounts) -> NotificationRate
    var expected: NotificationRate
}

/// A window of notifications: six about FAMILY_SHARED transactions, seven about PURCHASED ones, two with none.
private enum WindowSample {
    static let start = Date(timeIntervalSince1970: 1_760_000_000)
    static let window = start..<start.addingTimeInterval(86_400)

    static func notification(
        _ type: NotificationType, _ ownership: OwnershipType?, at offset: TimeInterval = 60
    ) -> NotificationPayload {
        NotificationPayload(
            notificationType: type, signedDate: start.addingTimeInterval(offset),
            data: NotificationData(
                environment: .production,
                transactionInfo: ownership.map { TransactionPayload(inAppOwnershipType: $0) }))
    }

    static let notifications: [NotificationPayload] =
        Array(repeating: notification(.subscribed, .familyShared), count: 4)
        + [notification(.revoke, .familyShared), notification(.didFailToRenew, .familyShared)]
        + Array(repeating: notification(.didRenew, .purchased), count: 5)
        + [notification(.didFailToRenew, .purchased), notification(.refund, .purchased)]
        + [notification(NotificationType(rawValue: "FAMILY_MEMBER_JOINED"), nil), notification(.test, nil)]
        + [notification(.revoke, .familyShared, at: -60), notification(.revoke, .familyShared, at: 86_400)]
        + [NotificationPayload(notificationType: .revoke)]

    static let counts = NotificationCounts(notifications, signedIn: window)
}

@Suite struct ReconciliationTests {
    static let drifts: [DriftCase] = [
        DriftCase(
            testDescription: "100 active on both sides -> no drift, no alert", apple: Set(1...100),
            service: Set(1...100), missingInService: [], missingAtApple: [], percentage: 0, needsAlert: false),
        DriftCase(
            testDescription: "1 of 100 paying without access -> 1 %, below the 2 % default", apple: Set(1...100),
            service: Set(2...100), missingInService: [1], missingAtApple: [], percentage: 1, needsAlert: false),
        DriftCase(
            testDescription: "2 expired rows left active among 100 -> 2 %, alert at the default threshold",
            apple: Set(1...98), service: Set(1...100), missingInService: [], missingAtApple: [99, 100],
            percentage: 2, needsAlert: true),
        DriftCase(
            testDescription: "drift on both sides: 2 missing each way among 100 -> 4 %, alert",
            apple: Set(1...98), service: Set(3...100), missingInService: [1, 2], missingAtApple: [99, 100],
            percentage: 4, needsAlert: true),
        DriftCase(
            testDescription: "threshold raised to 5 %: 4 % drift -> no alert", apple: Set(1...98),
            service: Set(3...100), alertThreshold: 5, missingInService: [1, 2], missingAtApple: [99, 100],
            percentage: 4, needsAlert: false),
        DriftCase(
            testDescription: "threshold lowered to 0.5 %: 1 % drift -> alert", apple: Set(1...100),
            service: Set(2...100), alertThreshold: 0.5, missingInService: [1], missingAtApple: [], percentage: 1,
            needsAlert: true),
        DriftCase(
            testDescription: "threshold 0 and no drift -> no alert", apple: Set(1...10), service: Set(1...10),
            alertThreshold: 0, missingInService: [], missingAtApple: [], percentage: 0, needsAlert: false),
        DriftCase(
            testDescription: "nobody active anywhere -> 0 %, no alert", apple: [], service: [], missingInService: [],
            missingAtApple: [], percentage: 0, needsAlert: false),
        DriftCase(
            testDescription: "Apple reports nobody, service grants 3 -> 100 %, alert", apple: [], service: [1, 2, 3],
            missingInService: [], missingAtApple: [1, 2, 3], percentage: 100, needsAlert: true),
    ]

    @Test(arguments: drifts)
    func reportsDrift(_ row: DriftCase) {
        let report = DriftReport(
            activeAtApple: row.apple, activeInService: row.service, alertThreshold: row.alertThreshold)
        #expect(report.missingInService == row.missingInService)
        #expect(report.missingAtApple == row.missingAtApple)
        #expect(report.activeAtApple == row.apple.count)
        #expect(report.activeInService == row.service.count)
        #expect(abs(report.driftPercentage - row.percentage) < 1e-9)
        #expect(report.needsAlert == row.needsAlert)
    }

    static let rates: [RateCase] = [
        RateCase(
            testDescription: "REVOKE among FAMILY_SHARED in the window -> 1 of 6",
            rate: { $0.familySharedRevokeRate }, expected: NotificationRate(count: 1, total: 6)),
        RateCase(
            testDescription: "DID_FAIL_TO_RENEW among renewal attempts (5 DID_RENEW + 2 failures) -> 2 of 7",
            rate: { $0.didFailToRenewRate }, expected: NotificationRate(count: 2, total: 7)),
        RateCase(
            testDescription: "REVOKE among PURCHASED -> 0 of 7", rate: { $0.rate(of: .revoke, among: .purchased) },
            expected: NotificationRate(count: 0, total: 7)),
        RateCase(
            testDescription: "SUBSCRIBED among all 15 in the window (outside and undated excluded) -> 4 of 15",
            rate: { $0.rate(of: .subscribed) }, expected: NotificationRate(count: 4, total: 15)),
        RateCase(
            testDescription: "DID_FAIL_TO_RENEW among FAMILY_SHARED -> 1 of 6",
            rate: { $0.rate(of: .didFailToRenew, among: .familyShared) },
            expected: NotificationRate(count: 1, total: 6)),
        RateCase(
            testDescription: "empty window: REVOKE among FAMILY_SHARED -> 0 of 0",
            rate: { _ in NotificationCounts([]).familySharedRevokeRate }, expected: NotificationRate(count: 0, total: 0)
        ),
    ]

    @Test(arguments: rates)
    func countsRates(_ row: RateCase) {
        #expect(row.rate(WindowSample.counts) == row.expected)
    }

    @Test func countsByTypeAndOwnership() {
        let counts = WindowSample.counts
        #expect(counts.total == 15)
        #expect(counts.count(of: .revoke) == 1)
        #expect(counts.count(of: .subscribed, ownership: .familyShared) == 4)
        #expect(counts.counts[NotificationCounts.Key(notificationType: .test, ownership: nil)] == 1)
        #expect(counts.unknownTypes == [NotificationType(rawValue: "FAMILY_MEMBER_JOINED"): 1])
        #expect(NotificationCounts(WindowSample.notifications).total == WindowSample.notifications.count)
        #expect(NotificationRate(count: 0, total: 0).fraction == nil)
        #expect(NotificationRate(count: 1, total: 4).fraction == 0.25)
    }

    /// A generated fleet: for each subscriber, the entitlements Apple grants and those the service grants, each a
    /// subset of three, so that every combination (equal, one side empty, disjoint, overlapping) occurs.
    static func fleet(seed: UInt64) -> [(subscriber: Int, apple: Set<String>, service: Set<String>)] {
        var random = SeededRandom(seed: seed)
        let names = ["basic", "pro", "family"]
        return (0..<Int.random(in: 0...60, using: &random)).map { subscriber in
            (
                subscriber, Set(names.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }),
                Set(names.filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
            )
        }
    }

    @Test("the accumulator by activity gives the report of the two sets, over generated fleets", arguments: 1...100)
    func accumulatorByActivity(seed: UInt64) {
        let fleet = Self.fleet(seed: seed)
        let apple = Set(fleet.filter { !$0.apple.isEmpty }.map(\.subscriber))
        let service = Set(fleet.filter { !$0.service.isEmpty }.map(\.subscriber))
        var accumulator = DriftReport<Int>.Accumulator(alertThreshold: 10)
        for member in fleet {
            accumulator.add(
                member.subscriber, activeAtApple: apple.contains(member.subscriber),
                activeInService: service.contains(member.subscriber))
        }
        #expect(accumulator.report == DriftReport(activeAtApple: apple, activeInService: service, alertThreshold: 10))
    }

    /// By entitlements a subscriber active on both sides drifts where the sides differ, and one granted different
    /// entitlements on each side is missing on both and counts once.
    @Test("the accumulator by entitlements, over generated fleets, against the definition", arguments: 1...100)
    func accumulatorByEntitlements(seed: UInt64) {
        let fleet = Self.fleet(seed: seed)
        var accumulator = DriftReport<Int>.Accumulator(alertThreshold: 25)
        for member in fleet {
            accumulator.add(member.subscriber, entitlementsAtApple: member.apple, entitlementsInService: member.service)
        }
        let report = accumulator.report
        let missingInService = Set(fleet.filter { !$0.apple.isSubset(of: $0.service) }.map(\.subscriber))
        let missingAtApple = Set(fleet.filter { !$0.service.isSubset(of: $0.apple) }.map(\.subscriber))
        let active = fleet.filter { !$0.apple.isEmpty || !$0.service.isEmpty }
        #expect(report.missingInService == missingInService)
        #expect(report.missingAtApple == missingAtApple)
        #expect(report.drifted == missingInService.union(missingAtApple).count)
        #expect(report.activeAtApple == fleet.filter { !$0.apple.isEmpty }.count)
        #expect(report.activeInService == fleet.filter { !$0.service.isEmpty }.count)
        #expect(report.subscribers == active.count)
        #expect(report.needsAlert == (report.drifted > 0 && report.driftPercentage >= 25))
    }

    @Test("by entitlements, one subscriber granted pro at Apple and basic in the service drifts once, both ways")
    func missingOnBothSides() {
        var accumulator = DriftReport<String>.Accumulator()
        accumulator.add("both", entitlementsAtApple: ["pro"], entitlementsInService: ["basic"])
        accumulator.add("agrees", entitlementsAtApple: ["pro"], entitlementsInService: ["pro"])
        accumulator.add("inactive", entitlementsAtApple: Set<String>(), entitlementsInService: Set<String>())
        let report = accumulator.report
        #expect(report.missingInService == ["both"])
        #expect(report.missingAtApple == ["both"])
        #expect(report.drifted == 1)
        #expect(report.subscribers == 2)
        #expect(report.driftPercentage == 50)
        #expect(report.needsAlert)
    }
}

extension ReconciliationTests {
    /// A negative or non-finite alert threshold is a programmer's mistake, refused at once rather than read as "alert
    /// at every drift" or "never alert".
    @Test("a negative or non-finite alert threshold stops the program, in both ways of building a report")
    func alertThresholdIsAPercentage() async {
        await #expect(processExitsWith: .failure) {
            _ = DriftReport<Int>(activeAtApple: [], activeInService: [], alertThreshold: -1)
        }
        await #expect(processExitsWith: .failure) {
            _ = DriftReport<Int>.Accumulator(alertThreshold: -0.5)
        }
        await #expect(processExitsWith: .failure) {
            _ = DriftReport<Int>.Accumulator(alertThreshold: .infinity)
        }
        #expect(DriftReport<Int>(activeAtApple: [1], activeInService: [], alertThreshold: 0).needsAlert)
    }
}
