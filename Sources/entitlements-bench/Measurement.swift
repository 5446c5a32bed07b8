import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long and how often each figure is measured.
struct BenchmarkSettings {
    /// Timed runs per figure; the figure is their median.
    var runs: Int
    /// The least time one run lasts; the work is repeated within a run until it has.
    var minimumRunSeconds: Double
    var isQuick: Bool

    static let full = BenchmarkSettings(runs: 7, minimumRunSeconds: 0.25, isQuick: false)
    static let quick = BenchmarkSettings(runs: 3, minimumRunSeconds: 0.04, isQuick: true)
}

/// A measured rate: units of work per second (median of the runs) and the bytes those units read.
struct Throughput {
    var unitsPerSecond: Double
    var bytesPerUnit: Double

    var megabytesPerSecond: Double { unitsPerSecond * bytesPerUnit / 1_000_000 }
    var secondsPerUnit: Double { 1 / unitsPerSecond }
}

/// Keeps results alive so that the optimiser cannot drop the work that produced them.
@inline(never)
func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The CPU time this thread has used, in seconds.
///
/// Every figure is single-threaded work timed on this clock rather than the wall clock, so that other processes on
/// a shared machine do not inflate it while they hold the processor.
func threadSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Measures `body`, which does `units` units of work over `bytes` bytes per call.
///
/// One warm-up call, a calibration of how many calls fill `minimumRunSeconds`, then `runs` timed runs of that many
/// calls; the result is the median rate.
func measure(units: Int, bytes: Int, _ settings: BenchmarkSettings, _ body: () -> Void) -> Throughput {
    body()
    let calibrationStart = threadSeconds()
    body()
    let once = max(threadSeconds() - calibrationStart, 1e-7)
    let calls = max(1, Int(settings.minimumRunSeconds / once))
    var rates: [Double] = []
    for _ in 0..<settings.runs {
        let start = threadSeconds()
        for _ in 0..<calls { body() }
        let seconds = threadSeconds() - start
        rates.append(Double(units * calls) / seconds)
    }
    rates.sort()
    return Throughput(unitsPerSecond: rates[rates.count / 2], bytesPerUnit: Double(bytes) / Double(units))
}

/// Measures several ways of doing the same work side by side: each run times every one of them in turn, so that a
/// change in the machine's state during the measurement affects them alike.
///
/// Returns each body's median rate, and the median over the runs of each body's rate divided by `baseline`'s rate
/// in the same run.
func measureSideBySide(
    units: Int, bytes: Int, _ settings: BenchmarkSettings, baseline: Int, _ bodies: [() -> Void]
) -> (rates: [Throughput], ratios: [Double]) {
    let calls = bodies.map { body -> Int in
        body()
        let start = threadSeconds()
        body()
        return max(1, Int(settings.minimumRunSeconds / max(threadSeconds() - start, 1e-7)))
    }
    var rates = [[Double]](repeating: [], count: bodies.count)
    var ratios = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<settings.runs {
        var run: [Double] = []
        for (body, count) in zip(bodies, calls) {
            let start = threadSeconds()
            for _ in 0..<count { body() }
            run.append(Double(units * count) / (threadSeconds() - start))
        }
        for index in bodies.indices {
            rates[index].append(run[index])
            ratios[index].append(run[index] / run[baseline])
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return (
        rates.map { Throughput(unitsPerSecond: median($0), bytesPerUnit: Double(bytes) / Double(units)) },
        ratios.map(median)
    )
}

/// Formats figures for the report.
enum Report {
    static func line(_ figure: String, _ value: String, _ comparison: String = "") {
        let padded = figure.padding(toLength: max(figure.count, 58), withPad: " ", startingAt: 0)
        print("\(padded) \(value.leftPadded(to: 34))  \(comparison)")
    }

    static func count(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: value.rounded())) ?? String(Int(value))
    }

    static func decimal(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }

    static func ratio(_ value: Double) -> String {
        value >= 10 ? String(format: "%.1fx", value) : String(format: "%.2fx", value)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
