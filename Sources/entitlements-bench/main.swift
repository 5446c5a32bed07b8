import Foundation

/// `entitlements-bench [--quick] [--hostile | --growth | --decode | --latency | --reconcile] [--million]`:
/// FamilyEntitlements' decode, rebuild, latency, hostile-shape, growth, memory and reconcile figures, each against its
/// baseline measured in the same run. `--quick` measures a reduced set, for CI to keep the benchmark working (never to
/// judge speed); `--hostile` measures only the hostile shapes, `--growth` only the costs timed at n and 4n,
/// `--decode` only decoding, `--latency` only the p50, p90 and p99 of rebuilding each shipped scenario, `--reconcile` only
/// `entitlements reconcile`; `--million` adds the peak memory of reconciling a million customers (minutes).
enum FamilyEntitlementsBench {
    static func main(_ arguments: [String]) -> Int32 {
        if arguments.first == MemoryBenchmark.probeFlag, arguments.count == 3, let count = Int(arguments[2]) {
            return MemoryBenchmark.probe(decoder: arguments[1], count: count)
        }
        if arguments.first == RebuildBenchmark.probeFlag, arguments.count == 3 || arguments.count == 4,
            let size = Int(arguments[1]), let calls = Int(arguments[2]),
            arguments.count == 3 || arguments[3] == RebuildBenchmark.waitFlag
        {
            return RebuildBenchmark.probe(size: size, calls: calls, waiting: arguments.count == 4)
        }
        if arguments.first == HostileBenchmark.probeFlag, arguments.count == 4, let size = Int(arguments[2]),
            let calls = Int(arguments[3])
        {
            return HostileBenchmark.probe(shape: arguments[1], size: size, calls: calls)
        }
        if arguments.first == GrowthBenchmark.probeFlag, arguments.count == 4, let size = Int(arguments[2]),
            let calls = Int(arguments[3])
        {
            return GrowthBenchmark.probe(row: arguments[1], size: size, calls: calls)
        }
        if arguments.first == LatencyBenchmark.probeFlag, arguments.count == 3, let calls = Int(arguments[2]) {
            return LatencyBenchmark.probe(scenario: arguments[1], calls: calls)
        }
        if arguments.first == DecodeProbe.flag, arguments.count == 3, let calls = Int(arguments[2]) {
            return DecodeProbe.run(kind: arguments[1], calls: calls)
        }
        let flags: Set<String> = [
            "--quick", "--hostile", "--growth", "--decode", "--latency", "--reconcile", "--million",
        ]
        guard arguments.allSatisfy({ flags.contains($0) }) else {
            print(
                "usage: entitlements-bench [--quick] [--hostile | --growth | --decode | --latency | --reconcile] "
                    + "[--million]")
            print(
                "       entitlements-bench \(RebuildBenchmark.probeFlag) SIZE CALLS [\(RebuildBenchmark.waitFlag)]  (one "
                    + "rebuild size, for a profiler; waiting for a line on standard input once the history is ready)")
            print(
                "       entitlements-bench \(HostileBenchmark.probeFlag) SHAPE SIZE CALLS  (one hostile shape, for a "
                    + "profiler)")
            print(
                "       entitlements-bench \(GrowthBenchmark.probeFlag) ROW SIZE CALLS  (one growth row at one size, for "
                    + "a profiler)")
            print(
                "       entitlements-bench \(LatencyBenchmark.probeFlag) SCENARIO CALLS  (one shipped scenario, for a "
                    + "profiler)")
            print(
                "       entitlements-bench \(DecodeProbe.flag) KIND CALLS  (one decoder, for a profiler; KIND: "
                    + "\(DecodeProbe.kinds.joined(separator: ", ")))")
            return 2
        }
        let settings = arguments.contains("--quick") ? BenchmarkSettings.quick : .full
        let onlyHostile = arguments.contains("--hostile")
        let onlyGrowth = arguments.contains("--growth")
        let onlyDecode = arguments.contains("--decode")
        let onlyReconcile = arguments.contains("--reconcile")
        let onlyLatency = arguments.contains("--latency")
        let million = arguments.contains("--million")
        #if DEBUG
            print("entitlements-bench: this is a debug build; measure with: swift run -c release entitlements-bench")
        #endif
        print(
            "entitlements-bench\(settings.isQuick ? " --quick" : "")\(onlyHostile ? " --hostile" : "")"
                + "\(onlyGrowth ? " --growth" : "")"
                + "\(onlyDecode ? " --decode" : "")\(onlyLatency ? " --latency" : "")"
                + "\(onlyReconcile ? " --reconcile" : "")\(million ? " --million" : ""): "
                + machine())
        print(
            "each figure: the median of \(settings.runs) runs of at least \(Int(settings.minimumRunSeconds * 1000)) ms "
                + "after a warm-up; baselines measured in the same run\n")
        if onlyHostile {
            HostileBenchmark.run(settings)
            return 0
        }
        if onlyGrowth {
            GrowthBenchmark.run(settings)
            return 0
        }
        if onlyLatency {
            LatencyBenchmark.run(settings)
            return 0
        }
        if onlyReconcile {
            ReconcileBenchmark.run(settings, million: million)
            return 0
        }
        if onlyDecode {
            _ = DecodeBenchmark.run(settings)
            return 0
        }
        let summaries = DecodeBenchmark.run(settings)
        print("")
        RebuildBenchmark.run(settings)
        print("")
        LatencyBenchmark.run(settings)
        print("")
        HostileBenchmark.run(settings)
        print("")
        GrowthBenchmark.run(settings)
        print("")
        MemoryBenchmark.run(settings)
        print("")
        ReconcileBenchmark.run(settings, million: million)
        print("")
        for summary in summaries {
            Report.line(
                "summary: decode \(summary.name)", "\(Report.ratio(summary.ratio)) JSONDecoder",
                "\(Report.count(summary.megabytesPerSecond)) MB/s")
        }
        return 0
    }

    /// The processor count and model, from /proc/cpuinfo where there is one.
    static func machine() -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var model = "unknown CPU"
        if let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return "\(cores) cores, \(model)"
    }
}

exit(FamilyEntitlementsBench.main(Array(CommandLine.arguments.dropFirst())))
