import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Latency as a service owner reads it: the time of one call to rebuild each shipped scenario (`Fixtures/Scenarios/`)
/// at its own instant, environment and catalog, with `validUntil`, as the median (p50), the 90th percentile (p90, which
/// a comparison of two builds gates on: steadier than the p99, and still a tail) and the 99th percentile (p99) of many
/// calls timed one by one.
///
/// Two figures a scenario: the rebuild alone, from the decoded history, and the whole path from the bytes of
/// `history.json` (`History.decodeUnverified`, then the rebuild), which is what a service pays when it reads a stored
/// history and decides. Each call is timed on the monotonic wall clock, so that a call the system interrupted shows in
/// the p99 as a service would see it; the machine's other work lands there too.
enum LatencyBenchmark {
    struct Case {
        var scenario: Scenario
        var bytes: Data
        var history: History
        var catalog: ProductCatalog?
        var expected: EntitlementReport

        init(_ scenario: Scenario) throws(FixtureError) {
            self.scenario = scenario
            bytes = try scenario.historyData()
            history = try scenario.history()
            catalog = try scenario.catalog()
            expected = try scenario.expectedReport()
        }
    }

    static func run(_ settings: BenchmarkSettings) {
        let calls = settings.isQuick ? 200 : 5_000
        let cases: [Case]
        do {
            cases = try Scenario.allCases.map(Case.init)
        } catch {
            Report.line("latency", "not measured", "a shipped scenario does not load: \(error)")
            return
        }
        print(
            "latency of one call per shipped scenario, with validUntil: p50 / p90 / p99 of \(Report.count(Double(calls))) "
                + "calls each, monotonic wall clock")
        var rebuildMedians: [Double] = []
        var rebuildNinetieths: [Double] = []
        var rebuildTails: [Double] = []
        for item in cases {
            // A figure of wrong answers would mean nothing: both ways must decide as expected.json, validUntil
            // included.
            let decidesAsExpected = { (report: EntitlementReport?) in
                report.map { $0.decidesTheSame(as: item.expected) && $0.validUntil == item.expected.validUntil }
                    ?? false
            }
            guard decidesAsExpected(rebuildOnce(item)), decidesAsExpected(decodeAndRebuild(item)) else {
                Report.line(
                    "latency, \(item.scenario.rawValue)", "not measured",
                    "the rebuild, or the rebuild from history.json's bytes, differs from expected.json")
                continue
            }
            let alone = percentiles(calls: calls) { keep(rebuildOnce(item)) }
            let whole = percentiles(calls: calls) { keep(decodeAndRebuild(item)) }
            rebuildMedians.append(alone.p50)
            rebuildNinetieths.append(alone.p90)
            rebuildTails.append(alone.p99)
            let entries = item.history.count == 1 ? "1 entry" : "\(item.history.count) entries"
            Report.line(
                "latency, \(item.scenario.rawValue) (\(entries), \(item.bytes.count) B)",
                "\(microseconds(alone.p50)) / \(microseconds(alone.p90)) / \(microseconds(alone.p99)) us",
                "rebuild p50 / p90 / p99; from history.json's bytes "
                    + "\(microseconds(whole.p50)) / \(microseconds(whole.p90)) / \(microseconds(whole.p99)) us")
        }
        Report.line(
            "latency, every scenario: the slowest p50 / p90 / p99",
            "\(microseconds(rebuildMedians.max() ?? 0)) / \(microseconds(rebuildNinetieths.max() ?? 0)) / "
                + "\(microseconds(rebuildTails.max() ?? 0)) us", "rebuild alone")
    }

    /// The flag that runs `probe(scenario:calls:)`.
    static let probeFlag = "--latency-probe"

    /// Rebuilds one shipped scenario `calls` times and nothing else, so that a profiler such as callgrind sees only
    /// that rebuild.
    static func probe(scenario name: String, calls: Int) -> Int32 {
        guard let scenario = Scenario(rawValue: name) else {
            print("latency probe: SCENARIO is one of \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))")
            return 2
        }
        let item: Case
        do {
            item = try Case(scenario)
        } catch {
            print("latency probe: the scenario does not load: \(error)")
            return 1
        }
        let start = threadSeconds()
        for _ in 0..<calls { keep(rebuildOnce(item)) }
        print(
            "latency probe, \(name), \(calls) calls: \(microseconds((threadSeconds() - start) / Double(calls))) us a call"
        )
        return 0
    }

    @inline(__always)
    static func rebuildOnce(_ item: Case) -> EntitlementReport {
        rebuildEntitlements(
            history: item.history, asOf: item.expected.asOf, environment: item.expected.environment,
            catalog: item.catalog)
    }

    @inline(__always)
    static func decodeAndRebuild(_ item: Case) -> EntitlementReport? {
        guard let decoded = try? History.decodeUnverified(item.bytes) else { return nil }
        return rebuildEntitlements(
            history: decoded.history, asOf: item.expected.asOf, environment: item.expected.environment,
            catalog: item.catalog, decodingWarnings: decoded.warnings)
    }

    /// The 50th, 90th and 99th percentiles, in seconds, of `calls` calls of `body` timed one by one after a warm-up.
    static func percentiles(calls: Int, _ body: () -> Void) -> (p50: Double, p90: Double, p99: Double) {
        for _ in 0..<max(calls / 10, 10) { body() }
        var times: [Double] = []
        times.reserveCapacity(calls)
        for _ in 0..<calls {
            let start = wallSeconds()
            body()
            times.append(wallSeconds() - start)
        }
        times.sort()
        // Nearest rank: the p-th percentile of n sorted values is the value of rank ceil(p * n), from 1.
        func percentile(_ p: Int) -> Double { times[max(0, (p * times.count + 99) / 100 - 1)] }
        return (percentile(50), percentile(90), percentile(99))
    }

    static func wallSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func microseconds(_ seconds: Double) -> String {
        Report.decimal(seconds * 1e6, digits: seconds < 1e-4 ? 1 : 0)
    }
}
