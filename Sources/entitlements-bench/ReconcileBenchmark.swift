import FamilyEntitlements
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `entitlements reconcile` measured as operators run it: the built tool in its own process, generated customers
/// piped into it, its output thrown away.
///
/// Throughput (customers and transactions per second) on one core (`--jobs 1`) and on all cores, in the same run,
/// so that the speed-up is their ratio; then the tool's peak resident memory (its VmHWM, read while it runs) against
/// the number of customers, which stays flat when the tool streams.
enum ReconcileBenchmark {
    /// Transactions in each generated customer's history, as in a fleet of long-lived family subscribers.
    static let transactionsPerCustomer = 30
    /// Distinct histories the generated customers cycle through.
    static let templateCount = 16

    struct Run {
        var seconds: Double
        var cpuSeconds: Double
        var peakBytes: Double
        /// Whether `peakBytes` was read from the tool's own /proc entry; if not, it is `wait4`'s, which also counts
        /// this process's resident size when it spawned the tool.
        var peakIsTheToolsOwn: Bool
        var status: Int32
    }

    static func run(_ settings: BenchmarkSettings, million: Bool) {
        guard let tool = toolPath() else {
            Report.line(
                "reconcile", "not measured",
                "(build the tool first: swift build -c release --product entitlements)")
            return
        }
        let templates = histories()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let throughputCount = settings.isQuick ? 2_000 : 20_000
        var perJobs: [Int: Double] = [:]
        for jobs in [1, cores] where perJobs[jobs] == nil {
            var runs: [Run] = []
            for _ in 0..<(settings.isQuick ? 1 : 3) {
                guard let run = launch(tool, jobs: jobs, customers: throughputCount, templates: templates),
                    run.status == 0
                else {
                    Report.line("reconcile --jobs \(jobs)", "failed")
                    return
                }
                runs.append(run)
            }
            let run = runs.sorted { $0.seconds < $1.seconds }[runs.count / 2]
            let rate = Double(throughputCount) / run.seconds
            perJobs[jobs] = rate
            Report.line(
                "reconcile, \(jobs == 1 ? "one core (--jobs 1, pinned)" : "all \(cores) cores"), "
                    + "\(Report.count(Double(throughputCount))) customers",
                "\(Report.count(rate)) customers/s",
                "\(Report.count(rate * Double(transactionsPerCustomer))) transactions/s; "
                    + "\(Report.count(Double(throughputCount) / run.cpuSeconds)) customers per CPU-second, "
                    + "\(Report.decimal(run.cpuSeconds / run.seconds)) cores busy")
        }
        if let one = perJobs[1], let all = perJobs[cores], cores > 1 {
            Report.line("reconcile speed-up, all \(cores) cores against one", Report.ratio(all / one))
        }
        var sizes = settings.isQuick ? [10_000] : [10_000, 100_000]
        if million { sizes.append(1_000_000) }
        for size in sizes {
            guard let run = launch(tool, jobs: cores, customers: size, templates: templates), run.status == 0 else {
                Report.line("reconcile peak memory, \(Report.count(Double(size))) customers", "failed")
                continue
            }
            Report.line(
                "reconcile peak memory, \(Report.count(Double(size))) customers",
                "\(Report.decimal(run.peakBytes / 1_048_576)) MiB peak RSS",
                "\(Report.decimal(run.seconds)) s, \(Report.count(Double(size) / run.seconds)) customers/s"
                    + (run.peakIsTheToolsOwn ? "" : " (wait4's peak, which counts this benchmark's own size too)"))
        }
    }

    /// The release (or debug) `entitlements` beside this executable.
    static func toolPath() -> String? {
        guard let folder = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            return nil
        }
        let path = folder.appendingPathComponent("entitlements").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Distinct family histories of `transactionsPerCustomer` transactions each, as history-object JSON.
    static func histories() -> [[UInt8]] {
        (0..<templateCount).map { index in
            let transactions = FamilyHistory.transactions(
                count: transactionsPerCustomer, seed: 2016 + UInt64(index))
            var json = Array(#"{"transactions":["#.utf8)
            for (position, transaction) in transactions.enumerated() {
                if position > 0 { json.append(UInt8(ascii: ",")) }
                json.append(contentsOf: AppleJSON.transaction(transaction))
            }
            json.append(contentsOf: Array("]}".utf8))
            return json
        }
    }

    /// Runs `entitlements reconcile --jobs N` on `customers` generated lines fed through a pipe, its output to
    /// /dev/null; its wall time, CPU time and peak resident memory.
    /// Linux's tool that runs a command on chosen processors.
    static let pinning = "/usr/bin/taskset"

    static func launch(_ tool: String, jobs: Int, customers: Int, templates: [[UInt8]]) -> Run? {
        signal(SIGPIPE, SIG_IGN)
        var input: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, input[1])
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        var arguments = [tool, "reconcile", "--as-of", "1767225600000", "--jobs", "\(jobs)"]
        // `--jobs 1` bounds the batches in flight, not the threads: the reader and the writer still run beside the
        // rebuild. The one-core figure pins the tool to one processor where Linux's taskset is at hand.
        if jobs == 1, FileManager.default.isExecutableFile(atPath: pinning) {
            arguments = [pinning, "--cpu-list", "0"] + arguments
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
        close(input[0])
        // The tool's own peak, read from /proc while it runs. `wait4`'s ru_maxrss would count the resident size of
        // this process when it spawned the tool (Linux records it at exec), which is larger than the tool's once the
        // benchmark has measured other figures. VmHWM only grows, so its last reading before exit is the peak but
        // for the last few milliseconds.
        var polledPeak = 0.0
        func readPeak() { polledPeak = max(polledPeak, MemoryBenchmark.status("VmHWM", of: "\(pid)") ?? 0) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for index in 0..<customers {
            buffer.append(contentsOf: Array(#"{"customer":"customer-\#(index)","history":"#.utf8))
            buffer.append(contentsOf: templates[index % templates.count])
            buffer.append(contentsOf: Array("}\n".utf8))
            if buffer.count >= 1 << 20 || index == customers - 1 {
                guard writeAll(buffer, to: input[1]) else { break }
                buffer.removeAll(keepingCapacity: true)
                readPeak()
            }
        }
        close(input[1])
        var status: Int32 = 0
        var usage = rusage()
        while true {
            readPeak()
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0, errno == EINTR { continue }
            guard waited == 0 else { return nil }
            usleep(2_000)
        }
        let seconds = Date().timeIntervalSince(start)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        // Without /proc (not Linux) only `wait4`'s figure is at hand, which the report line then names.
        #if os(Linux)
            let peak = polledPeak > 0 ? polledPeak : Double(usage.ru_maxrss) * 1024
        #else
            let peak = Double(usage.ru_maxrss)
        #endif
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Run(
            seconds: seconds, cpuSeconds: cpu, peakBytes: peak, peakIsTheToolsOwn: polledPeak > 0, status: exitStatus)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
