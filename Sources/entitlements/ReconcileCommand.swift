import FamilyEntitlements
import Foundation

/// `entitlements reconcile [FILE|-]`: rebuild every customer of a fleet from NDJSON, streaming, on every core.
///
/// Lines are read in batches; at most a window of batches (a few per job) is in flight at once, and results are
/// written in input order as soon as the oldest batch is done. Memory is that window, whatever the number of
/// customers; with `--stored` add the stored entitlements of the customers of this shard, and the drifted customers
/// for the summary.
enum ReconcileCommand {
    /// Everything a child task needs to turn a line into an output line: values only, shared by every task.
    struct Settings: Sendable {
        var asOf: Date
        var environment: Environment
        var catalog: ProductCatalog?
        var shard: Shard?
        var stored: StoredEntitlements?
    }

    /// What one input line became.
    struct Outcome: Sendable {
        enum Kind: Sendable {
            /// Another shard's customer, or a blank line.
            case skipped
            /// A report; with `--stored`, the entitlements each side grants and the stored entry's index, if any.
            case report(customer: String, atApple: [String], inService: [String]?, storedIndex: Int?)
            /// An error line; the stored entry of its customer, if any, so that the summary does not count a
            /// customer whose history could not be read as one the input never named.
            case error(storedIndex: Int?)
        }

        var kind: Kind
        var text: String
        var transactions = 0
    }

    static let batchSize = 32

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let limit = try arguments.value("--max-line-bytes", as: ByteLimit.self)?.bytes ?? Input.defaultLimit
        let jobs =
            try arguments.value("--jobs", as: JobCount.self)?.count ?? ProcessInfo.processInfo.activeProcessorCount
        let shard = try arguments.value("--shard", as: Shard.self)
        let summaryPath = arguments.string("--summary")
        if summaryPath != nil, arguments.string("--stored") == nil {
            throw UsageError("--summary writes the drift summary of --stored; give --stored FILE as well")
        }
        if let summaryPath {
            var inputs = [(name: "the input FILE", path: arguments.positionals.first ?? "-")]
            for option in ["--stored", "--catalog"] {
                if let path = arguments.string(option) { inputs.append(("the \(option) FILE", path)) }
            }
            try refuseOverwriting(summaryPath, inputs: inputs)
        }
        let decision = try RebuildCommand.Decision(arguments, limit: Input.defaultLimit)
        let stored = try arguments.string("--stored").map { path throws in
            try StoredEntitlements(path: path, shard: shard, lineLimit: limit)
        }
        let settings = Settings(
            asOf: decision.asOf ?? Date(), environment: decision.environment, catalog: decision.catalog, shard: shard,
            stored: stored)
        let path = arguments.positionals.first ?? "-"
        let descriptor = try Input.open(path)
        defer { if path != "-" { close(descriptor) } }
        var reader = LineReader(descriptor: descriptor, limit: limit, name: Input.displayName(path))
        var writer = OrderedWriter(stored: stored)
        var progress = Progress()
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            progress.totalBytes = Int(status.st_size)
        }
        let window = jobs * 4
        try await withThrowingTaskGroup(of: (Int, [Outcome]).self) { group in
            var nextBatch = 0
            var inFlight = 0
            var endOfInput = false
            while true {
                while !endOfInput, inFlight < window {
                    var batch: [(Int, LineReader.Line)] = []
                    while batch.count < batchSize, let line = try reader.next() {
                        batch.append((reader.lineNumber, line))
                    }
                    if batch.count < batchSize { endOfInput = true }
                    guard !batch.isEmpty else { break }
                    let index = nextBatch
                    let lines = batch
                    group.addTask { (index, lines.map { process($0.1, number: $0.0, settings: settings) }) }
                    nextBatch += 1
                    inFlight += 1
                }
                guard let (index, outcomes) = try await group.next() else { break }
                inFlight -= 1
                try writer.add(batch: index, outcomes)
                progress.update(customers: writer.customers, bytesRead: reader.bytesRead)
            }
        }
        try writer.flush()
        progress.finish(customers: writer.customers)
        if let stored {
            let summary = writer.summary(storedOnly: stored.unmatched(writer.matched))
            if let summaryPath {
                try writeSummary(summary, failedLines: writer.failed, to: summaryPath)
            }
        }
        if writer.failed > 0 {
            Output.error(
                "entitlements: \(writer.failed) line(s) could not be read; each is an error line on standard output")
            return 1
        }
        return 0
    }

    /// Turns one input line into its output line: the report, with drift where the stored entitlements disagree, or
    /// an error line naming the line and the JSON path.
    static func process(_ line: LineReader.Line, number: Int, settings: Settings) -> Outcome {
        var customer: String?
        do {
            let bytes: [UInt8]
            switch line {
            case .tooLong(let count):
                if let shard = settings.shard, shard.index != 0 { return Outcome(kind: .skipped, text: "") }
                throw PayloadDecodingError(
                    code: .invalidValue, path: "",
                    message: "the line has \(count) bytes, more than the limit; pass --max-line-bytes N")
            case .text(let text):
                bytes = text
            }
            if bytes.allSatisfy(Input.isJSONWhitespace) { return Outcome(kind: .skipped, text: "") }
            let object: TopLevelObject
            let id: String
            do {
                object = try TopLevelObject(bytes)
                id = try object.string("customer", in: bytes)
                customer = id
            } catch {
                if let shard = settings.shard, shard.index != 0 { return Outcome(kind: .skipped, text: "") }
                throw error
            }
            let customer = id
            if let shard = settings.shard, !shard.contains(customer) { return Outcome(kind: .skipped, text: "") }
            try object.refuseUnknown(known: ["customer", "history"], of: "a reconcile line")
            let historyBytes = try object.value("history", in: bytes)
            guard historyBytes.first == UInt8(ascii: "{") else {
                throw PayloadDecodingError(
                    code: .wrongType, path: "history",
                    message: "\"history\" must be an object {\"transactions\", \"renewalInfos\", \"notifications\"}")
            }
            let decoded: History.UnverifiedDecoding
            do {
                // `{}` is the history of a customer with nothing yet, which the document recogniser cannot name.
                let isEmpty = historyBytes.dropFirst().first { !Input.isJSONWhitespace($0) } == UInt8(ascii: "}")
                decoded =
                    isEmpty
                    ? History.UnverifiedDecoding(history: History(), unverifiedJWSCount: 0)
                    : try History.decodeUnverified(historyBytes)
            } catch {
                throw error.nested(under: "history")
            }
            let history = decoded.history
            // What reading the line noticed is in its report, with the path in the line.
            let report = rebuildEntitlements(
                history: history, asOf: settings.asOf, environment: settings.environment, catalog: settings.catalog,
                decodingWarnings: decoded.warnings.map { $0.nested(under: "history") })
            let json = try ReportView.contractJSON(report)
            let granted = ReportView.granted(report)
            var text = "{\"customer\":\(JSONText.string(customer)),\"report\":\(json)"
            let inService = settings.stored.map { $0.entitlements(of: customer) }
            if let inService {
                let missingInService = granted.filter { !inService.contains($0) }
                let missingAtApple = inService.filter { !granted.contains($0) }
                if !missingInService.isEmpty || !missingAtApple.isEmpty {
                    text +=
                        ",\"drift\":{\"missingInService\":\(JSONText.array(missingInService)),"
                        + "\"missingAtApple\":\(JSONText.array(missingAtApple))}"
                }
            }
            return Outcome(
                kind: .report(
                    customer: customer, atApple: granted, inService: inService,
                    storedIndex: settings.stored?.index(of: customer)),
                text: text + "}\n",
                transactions: history.transactions.count)
        } catch {
            let failure =
                (error as? PayloadDecodingError)
                ?? PayloadDecodingError(code: .invalidValue, path: "", message: "\(error)")
            let text =
                "{\"customer\":\(customer.map(JSONText.string) ?? "null"),\"line\":\(number),\"error\":{"
                + "\"code\":\(JSONText.string(failure.code.rawValue)),\"path\":\(JSONText.string(failure.path)),"
                + "\"message\":\(JSONText.string(failure.message))}}\n"
            return Outcome(kind: .error(storedIndex: customer.flatMap { settings.stored?.index(of: $0) }), text: text)
        }
    }

    /// Refuses a `--summary` path that names the same regular file as one of the command's inputs (the input FILE,
    /// `--stored`, `--catalog`; standard input for `-` where it is a regular file), before anything is written, so
    /// that the summary never overwrites what the run reads.
    ///
    /// Files are compared by device and inode, as `stat(2)` gives them after following links, never by the text of
    /// their paths: `./x` and `x`, a symbolic link and a hard link to the same file are all caught. `--summary -`
    /// (standard output) and a summary path that does not exist yet name no input; neither do devices and FIFOs
    /// (`--stored /dev/null --summary /dev/null` writes nothing anyone reads back).
    static func refuseOverwriting(_ summaryPath: String, inputs: [(name: String, path: String)]) throws(UsageError) {
        guard summaryPath != "-", let summary = regularFile(at: summaryPath) else { return }
        for input in inputs {
            let file = input.path == "-" ? regularFile(descriptor: STDIN_FILENO) : regularFile(at: input.path)
            guard let file, file == summary else { continue }
            let named =
                input.path == "-"
                ? "standard input, which \(input.name) is read from"
                : "\(input.name) \(Input.displayName(input.path))"
            throw UsageError(
                "--summary \(Input.displayName(summaryPath)) names the same file as \(named); writing the summary "
                    + "would overwrite it. Name another file, or - for standard output")
        }
    }

    /// The device and inode of the regular file at `path`, following links, or nil.
    private static func regularFile(at path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// The device and inode of the regular file open as `descriptor`, or nil.
    private static func regularFile(descriptor: Int32) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// A regular file as the system knows it: its device and inode.
    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(_ status: stat) {
            guard status.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(truncatingIfNeeded: status.st_dev)
            inode = UInt64(truncatingIfNeeded: status.st_ino)
        }
    }

    static func writeSummary(_ summary: DriftReport<String>, failedLines: Int, to path: String) throws {
        let text =
            "{\"subscribers\":\(summary.subscribers),"
            + "\"activeAtApple\":\(summary.activeAtApple),\"activeInService\":\(summary.activeInService),"
            + "\"missingInService\":\(JSONText.array(summary.missingInService.sorted())),"
            + "\"missingAtApple\":\(JSONText.array(summary.missingAtApple.sorted())),"
            + "\"driftPercentage\":\(percentage(summary.driftPercentage)),"
            + "\"needsAlert\":\(summary.needsAlert),\"alertThreshold\":\(percentage(summary.alertThreshold)),"
            + "\"failedLines\":\(failedLines)}\n"
        if path == "-" {
            try Output.standardOutput(text)
            return
        }
        try Output.write(text, toPath: path, what: "the summary")
    }

    /// A percentage as JSON, to at most four decimals.
    static func percentage(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded()
        let whole = Int(scaled) / 10_000
        var fraction = String(Int(scaled) % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}

/// Writes the outcomes of batches in input order, holding those that finish early until the ones before them are
/// done, and counts what the summary needs.
struct OrderedWriter {
    private var pending: [Int: [ReconcileCommand.Outcome]] = [:]
    private var next = 0
    private var buffer: [UInt8] = []
    private var drift = DriftReport<String>.Accumulator()
    private let stored: StoredEntitlements?
    /// Customers written (report or error lines).
    private(set) var customers = 0
    private(set) var transactions = 0
    private(set) var failed = 0
    /// Which stored entries the input named, by index: the others are counted in the summary.
    private(set) var matched: [Bool] = []

    init(stored: StoredEntitlements?) {
        self.stored = stored
        matched = Array(repeating: false, count: stored?.count ?? 0)
    }

    mutating func add(batch index: Int, _ outcomes: [ReconcileCommand.Outcome]) throws(OutputError) {
        pending[index] = outcomes
        while let ready = pending.removeValue(forKey: next) {
            next += 1
            for outcome in ready {
                switch outcome.kind {
                case .skipped:
                    continue
                case .error(let storedIndex):
                    failed += 1
                    if let storedIndex { matched[storedIndex] = true }
                case .report(let customer, let atApple, let inService, let storedIndex):
                    transactions += outcome.transactions
                    if let storedIndex { matched[storedIndex] = true }
                    if let inService {
                        drift.add(
                            customer, entitlementsAtApple: Set(atApple), entitlementsInService: Set(inService))
                    }
                }
                customers += 1
                buffer.append(contentsOf: outcome.text.utf8)
            }
            if buffer.count >= 1 << 16 { try flush() }
        }
    }

    mutating func flush() throws(OutputError) {
        guard !buffer.isEmpty else { return }
        try Output.standardOutput(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The drift summary, counting the stored customers the input never named as missing at Apple: the service
    /// grants them access that no history supports.
    func summary(storedOnly: [(String, [String])]) -> DriftReport<String> {
        var drift = drift
        for (customer, entitlements) in storedOnly {
            drift.add(customer, entitlementsAtApple: Set<String>(), entitlementsInService: Set(entitlements))
        }
        return drift.report
    }
}
