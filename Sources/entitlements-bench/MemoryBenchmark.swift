import FamilyEntitlements
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Peak memory per decoded transaction, measured in a fresh process per decoder.
///
/// Each probe generates its inputs first, then (on Linux) resets the kernel's record of its peak resident size
/// (`/proc/self/clear_refs`), notes its resident size (`VmRSS`), decodes every input into one array it keeps, and notes
/// the peak (`VmHWM`) and the resident size again. The peak's growth divided by the number of transactions is the
/// peak memory per decoded transaction: what the values hold plus whatever the decoder allocated on the way; the
/// resident size's growth is what the values hold. Elsewhere the peak comes from `getrusage` without the reset.
enum MemoryBenchmark {
    static let probeFlag = "--memory-probe"

    static func run(_ settings: BenchmarkSettings) {
        let count = settings.isQuick ? 20_000 : 100_000
        for decoder in ["fast", "jsondecoder"] {
            let name = decoder == "fast" ? "fast path" : "JSONDecoder into Codable structs"
            let figure = "memory per decoded transaction, \(Report.count(Double(count))) typical: \(name)"
            guard let result = launchProbe(decoder: decoder, count: count) else {
                Report.line(figure, "not measured", "(the probe did not run)")
                continue
            }
            Report.line(
                figure, "\(Report.count(result.peak)) B peak", "\(Report.count(result.retained)) B held by the values")
        }
    }

    /// Runs this executable again as a probe and reads its two figures.
    private static func launchProbe(decoder: String, count: Int) -> (peak: Double, retained: Double)? {
        let process = Process()
        #if os(Linux)
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        #else
            process.executableURL = Bundle.main.executableURL
        #endif
        process.arguments = [probeFlag, decoder, String(count)]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return nil
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, numbers.count == 2 else { return nil }
        return (numbers[0], numbers[1])
    }

    /// The probe itself: prints the peak and the retained bytes per transaction.
    static func probe(decoder: String, count: Int) -> Int32 {
        let inputs = FamilyHistory.transactions(count: count).map { AppleJSON.transaction($0) }
        let jsonDecoder = Baseline.decoder()
        resetPeak()
        let before = status("VmRSS") ?? 0
        // After the reset the peak starts at the current size; without /proc, from the peak so far.
        let peakBefore = status("VmHWM") == nil ? peakFromRusage() : before
        let held: Int
        if decoder == "fast" {
            let values = inputs.compactMap { try? TransactionPayload(jsonData: $0) }
            held = values.count
            report(before: before, peakBefore: peakBefore, count: count)
            keep(values)
        } else {
            let values = inputs.compactMap { try? jsonDecoder.decode(BaselineTransaction.self, from: $0) }
            held = values.count
            report(before: before, peakBefore: peakBefore, count: count)
            keep(values)
        }
        return held == count ? 0 : 1
    }

    private static func report(before: Double, peakBefore: Double, count: Int) {
        let after = status("VmRSS") ?? 0
        let peak = status("VmHWM") ?? peakFromRusage()
        let perTransaction = { (bytes: Double) in String(format: "%.1f", bytes / Double(count)) }
        print(perTransaction(peak - peakBefore), perTransaction(after - before))
    }

    /// Resets the peak resident size the kernel records (Linux 4.0 and later); elsewhere does nothing.
    private static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    /// A size in bytes from /proc/self/status, such as `VmRSS` or `VmHWM`, where there is one.
    /// A size field of a process's `/proc/<process>/status` (`VmRSS`, `VmHWM`), in bytes; nil where there is none.
    static func status(_ field: String, of process: String = "self") -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes * 1024
    }

    private static func peakFromRusage() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            return Double(usage.ru_maxrss) * 1024
        #else
            getrusage(RUSAGE_SELF, &usage)
            return Double(usage.ru_maxrss)
        #endif
    }
}
