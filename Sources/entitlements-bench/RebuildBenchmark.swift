import FamilyEntitlements
import Foundation

/// Rebuild figures: `rebuildEntitlements(history:)` over family histories of 10 to 100,000 transactions, with the
/// growth exponent between sizes (1 is linear; n log n shows as a little more than 1).
enum RebuildBenchmark {
    static let sizes = [10, 100, 1_000, 10_000, 100_000]
    static let quickSizes = [10, 100, 1_000, 10_000]

    static func run(_ settings: BenchmarkSettings) {
        measureRebuild(settings) { transactions in
            _ = rebuildEntitlements(history: History(transactions: transactions), asOf: FamilyHistory.tenYearsEnd)
        }
    }

    /// The family history of `count` transactions as a service holds it: written as Apple's JSON, in the history's
    /// order, and decoded by the library, so that each payload's strings are allocated in that order as they are
    /// after decoding (built in memory and then sorted, they would lie scattered).
    static func decodedHistory(count: Int) throws(PayloadDecodingError) -> [TransactionPayload] {
        var decoded: [TransactionPayload] = []
        decoded.reserveCapacity(count)
        for transaction in FamilyHistory.transactions(count: count) {
            decoded.append(try TransactionPayload(jsonData: AppleJSON.transaction(transaction)))
        }
        return decoded
    }

    /// The flag that runs `probe(size:calls:)`.
    static let probeFlag = "--rebuild-probe"

    /// The probe's flag that waits, once the history is decoded, for a line on standard input: a profiler started
    /// without instrumentation (callgrind's `--instr-atstart=no`) is switched on then, so that generating a large
    /// history is not simulated (`Scripts/profile-rebuild.sh`).
    static let waitFlag = "--wait"

    /// Rebuilds one history of `size` transactions `calls` times and nothing else, so that a profiler such as
    /// callgrind sees only the rebuild; prints the rate of that one run.
    static func probe(size: Int, calls: Int, waiting: Bool = false) -> Int32 {
        let transactions: [TransactionPayload]
        do {
            transactions = try decodedHistory(count: size)
        } catch {
            print("rebuild probe: the generated history does not decode: \(error)")
            return 1
        }
        if waiting {
            // Written at once, not buffered, so that a script sees it while the probe waits.
            FileHandle.standardOutput.write(Data("rebuild probe: history ready\n".utf8))
            _ = readLine()
        }
        let start = threadSeconds()
        for _ in 0..<calls {
            keep(rebuildEntitlements(history: History(transactions: transactions), asOf: FamilyHistory.tenYearsEnd))
        }
        let seconds = threadSeconds() - start
        print(
            "rebuild, \(Report.count(Double(size))) transactions, \(calls) calls: \(Report.count(Double(size * calls) / seconds)) transactions/s"
        )
        return 0
    }

    /// Measures `rebuild` at each size, or says that there is nothing to measure yet.
    static func measureRebuild(_ settings: BenchmarkSettings, rebuild: (([TransactionPayload]) -> Void)?) {
        guard let rebuild else {
            Report.line("rebuild", "not measured", "rebuildEntitlements(history:) is not in this build yet")
            return
        }
        var previous: (size: Int, seconds: Double)?
        for size in settings.isQuick ? quickSizes : sizes {
            let history: [TransactionPayload]
            do {
                history = try decodedHistory(count: size)
            } catch {
                Report.line("rebuild", "not measured", "the generated history does not decode: \(error)")
                return
            }
            let rate = measure(units: size, bytes: 0, settings) { rebuild(history) }
            let seconds = 1 / rate.unitsPerSecond * Double(size)
            var growth = ""
            if let previous {
                let exponent = log(seconds / previous.seconds) / log(Double(size) / Double(previous.size))
                growth =
                    "growth exponent \(Report.decimal(exponent, digits: 2)) from \(Report.count(Double(previous.size)))"
            }
            Report.line(
                "rebuild, \(Report.count(Double(size))) transactions",
                "\(Report.count(rate.unitsPerSecond)) transactions/s",
                growth)
            previous = (size, seconds)
        }
    }
}
