import Foundation
import Testing

/// deploy/reconcile-fleet.yaml, the fleet reconciliation as a Kubernetes Indexed Job: it is read here, and its command
/// is run for every index on this machine with the environment the kubelet would give the container, to check that
/// the indexes together report every customer of a fleet exactly once.
@Suite("The fleet's Indexed Job")
struct FleetJobTests {
    static let manifestURL = CommandLineStandaloneTests.root.appendingPathComponent("deploy/reconcile-fleet.yaml")
    static let indexAnnotation = "metadata.annotations['batch.kubernetes.io/job-completion-index']"

    /// What the tests need of the manifest, each part checked as it is read.
    struct Job {
        var spec: ManifestNode
        var container: ManifestNode
        /// `command` then `args`, as written (before expansion).
        var argv: [String]
        var environment: [ManifestNode]
        /// The N of `--shard $(JOB_COMPLETION_INDEX)/N`.
        var shardCount: Int
    }

    static func job() throws -> Job {
        let text = try String(contentsOf: manifestURL, encoding: .utf8)
        let manifest = try ManifestParser.parse(text)
        #expect(manifest["apiVersion"]?.text == "batch/v1")
        #expect(manifest["kind"]?.text == "Job")
        let spec = try #require(manifest["spec"])
        let containers = try #require(spec["template"]?["spec"]?["containers"]?.items)
        #expect(containers.count == 1, "one container, whose exit status is the index's")
        let container = try #require(containers.first)
        let command = try #require(container["command"]?.items).map { try #require($0.text) }
        let args = try #require(container["args"]?.items).map { try #require($0.text) }
        let shard = try #require(option("--shard", in: args), "the args pass --shard")
        let prefix = "$(JOB_COMPLETION_INDEX)/"
        #expect(shard.hasPrefix(prefix), "the shard's index is the Job's completion index")
        let shardCount = try #require(Int(shard.dropFirst(prefix.count)), "--shard \(shard) ends with a whole N")
        return Job(
            spec: spec, container: container, argv: command + args,
            environment: try #require(container["env"]?.items), shardCount: shardCount)
    }

    /// The value after `name` in `arguments`, or after `name=`.
    static func option(_ name: String, in arguments: [String]) -> String? {
        for (offset, argument) in arguments.enumerated() {
            if argument == name, offset + 1 < arguments.count { return arguments[offset + 1] }
            if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// The container's variables for `index`, from its `env` in order, as the kubelet makes them: a `value` is
    /// expanded with the variables above it, and JOB_COMPLETION_INDEX comes from the pod's index annotation.
    static func environment(_ job: Job, index: Int) throws -> [String: String] {
        var variables: [String: String] = [:]
        for entry in job.environment {
            let name = try #require(entry["name"]?.text)
            if let value = entry["value"]?.text {
                variables[name] = KubernetesExpansion.expand(value, variables)
            } else {
                let fieldPath = try #require(entry["valueFrom"]?["fieldRef"]?["fieldPath"]?.text, "\(name)'s source")
                try #require(fieldPath == indexAnnotation, "\(name) reads the index annotation, the field known here")
                variables[name] = String(index)
            }
        }
        return variables
    }

    @Test("the manifest is an Indexed Job whose completions equal the N of --shard, one pod per try, never restarted")
    func manifest() throws {
        let job = try Self.job()
        #expect(job.spec["completionMode"]?.text == "Indexed")
        #expect(job.spec["completions"]?.integer == job.shardCount, "one index per shard")
        let parallelism = try #require(job.spec["parallelism"]?.integer)
        #expect((1...job.shardCount).contains(parallelism))
        #expect(job.spec["template"]?["spec"]?["restartPolicy"]?.text == "Never")
        #expect((job.spec["backoffLimitPerIndex"]?.integer ?? -1) >= 0, "retries are counted per index")

        let index = job.environment.first { $0["name"]?.text == "JOB_COMPLETION_INDEX" }
        #expect(index?["valueFrom"]?["fieldRef"]?["fieldPath"]?.text == Self.indexAnnotation)
        #expect(try Self.environment(job, index: 3)["JOB_COMPLETION_INDEX"] == "3")

        // The documented exit statuses of `reconcile` (docs/cli.md): 1, unreadable lines, fails that index without
        // a retry that would fail alike; 2, a usage error, fails the whole Job.
        var actions: [String: String] = [:]
        for rule in try #require(job.spec["podFailurePolicy"]?["rules"]?.items) {
            guard let codes = rule["onExitCodes"] else { continue }
            #expect(codes["containerName"]?.text == job.container["name"]?.text)
            #expect(codes["operator"]?.text == "In")
            for code in codes["values"]?.items ?? [] {
                actions[code.text ?? ""] = rule["action"]?.text
            }
        }
        #expect(actions == ["1": "FailIndex", "2": "FailJob"])

        let jobs = Self.option("--jobs", in: job.argv)
        #expect(jobs != nil && jobs == job.container["resources"]?["limits"]?["cpu"]?.text, "one batch per core")
        #expect(URL(fileURLWithPath: job.argv.first ?? "").lastPathComponent == "entitlements")
        #expect(job.argv.dropFirst().first == "reconcile")
    }

    @Test(
        "every index of the manifest's command, run here, reports its shard; together they cover the fleet once",
        .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
    func everyIndexCoversTheFleet() throws {
        let job = try Self.job()
        let count = job.shardCount
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-job-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        // Each volume of the pod is a folder here, at the path its mount names.
        var mounts: [(path: String, local: URL, readOnly: Bool)] = []
        for mount in try #require(job.container["volumeMounts"]?.items) {
            let name = try #require(mount["name"]?.text)
            let local = folder.appendingPathComponent("volume-\(name)")
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            let path = try #require(mount["mountPath"]?.text)
            mounts.append((path, local, mount["readOnly"]?.text == "true"))
        }
        func local(_ argument: String) -> String {
            for mount in mounts where argument == mount.path || argument.hasPrefix(mount.path + "/") {
                return mount.local.path + argument.dropFirst(mount.path.count)
            }
            return argument
        }
        func readOnly(_ path: String) -> Bool {
            mounts.contains { $0.readOnly && path.hasPrefix($0.path + "/") }
        }

        // The export: the input at the manifest's FILE, and what the service stores at its --stored, both on the
        // read-only volume. Every fifth customer is stored with premium, and one stored customer has no line.
        let arguments = Array(job.argv.dropFirst(2))
        let input = try #require(Self.positional(arguments), "reconcile is given the export's FILE")
        let stored = try #require(Self.option("--stored", in: arguments))
        #expect(readOnly(input) && readOnly(stored), "the export is mounted read-only")
        let fleet = try ReconcileCommandTests.fleet()
        try Data(fleet.input.utf8).write(to: URL(fileURLWithPath: local(input)))
        var storedLines = stride(from: 0, to: 300, by: 5).map {
            #"{"customer":"customer-\#($0)","entitlements":{"premium":true}}"#
        }
        storedLines.append(#"{"customer":"stored-only","entitlements":{"basic":true}}"#)
        try Data((storedLines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: local(stored)))

        var lines: [String] = []
        var customers: [String] = []
        var unreadable = 0
        var summaries: [[String: Any]] = []
        var instants: Set<String> = []
        var summaryPaths: Set<String> = []
        for index in 0..<count {
            let environment = try Self.environment(job, index: index)
            let argv = job.argv.map { local(KubernetesExpansion.expand($0, environment)) }
            #expect(!argv.contains { $0.contains("$(") }, "every variable of the command is defined: \(argv)")
            #expect(Self.option("--shard", in: argv) == "\(index)/\(count)")
            instants.insert(Self.option("--as-of", in: argv) ?? "")
            let result = try Self.runContainer(argv, environment: environment)
            #expect(result.exitedNormally && !result.standardError.contains("Fatal error"))
            let objects = try ReconcileCommandTests.objects(result.standardOutput)
            let failed = objects.contains { $0["error"] != nil }
            #expect(result.status == (failed ? 1 : 0), "index \(index): \(result.standardError)")
            for object in objects {
                guard let customer = object["customer"] as? String else {
                    unreadable += 1
                    #expect(index == 0, "a line with no readable id is reported by index 0 only")
                    continue
                }
                #expect(ReconcileCommandTests.fnv1a(customer) % UInt64(count) == UInt64(index), "\(customer)")
                customers.append(customer)
            }
            lines += result.standardOutput.split(separator: "\n").map(String.init)
            let summary = try #require(Self.option("--summary", in: argv))
            summaryPaths.insert(summary)
            summaries.append(try Self.summary(at: summary))
        }
        #expect(instants.count == 1 && !instants.contains(""), "every index decides at the same instant")
        #expect(summaryPaths.count == count, "each index writes a summary of its own on the shared volume")
        #expect(customers.sorted() == fleet.customers.compactMap { $0 }.sorted(), "every customer once")
        #expect(unreadable == fleet.customers.filter { $0 == nil }.count)
        #expect(Set(customers).count > count, "the fleet is more than one customer a shard")

        // The same command without --shard, on one machine: the indexes' lines together are its lines, and their
        // summaries add up to its summary.
        let environment = try Self.environment(job, index: 0)
        var whole = job.argv.map { local(KubernetesExpansion.expand($0, environment)) }
        let shard = try #require(whole.firstIndex(of: "--shard"))
        whole.removeSubrange(shard...(shard + 1))
        let summary = try #require(whole.firstIndex(of: "--summary"))
        whole[summary + 1] = folder.appendingPathComponent("whole-summary.json").path
        let reference = try Self.runContainer(whole, environment: environment)
        #expect(reference.status == 1, "the fleet has unreadable lines")
        #expect(lines.sorted() == reference.standardOutput.split(separator: "\n").map(String.init).sorted())
        let expected = try Self.summary(at: whole[summary + 1])
        for key in ["subscribers", "activeAtApple", "activeInService", "failedLines"] {
            #expect(summaries.map { $0[key] as? Int ?? -1 }.reduce(0, +) == expected[key] as? Int, "\(key) adds up")
        }
        for key in ["missingInService", "missingAtApple"] {
            let joined = summaries.flatMap { $0[key] as? [String] ?? [] }.sorted()
            #expect(joined == expected[key] as? [String], "\(key) joins up")
        }
        #expect((expected["missingAtApple"] as? [String])?.contains("stored-only") == true)
        #expect((expected["subscribers"] as? Int ?? 0) > 0)
    }

    /// The first argument that is not an option or an option's value (every option of `reconcile` takes one).
    static func positional(_ arguments: [String]) -> String? {
        var offset = 0
        while offset < arguments.count {
            let argument = arguments[offset]
            if !argument.hasPrefix("-") { return argument }
            offset += argument.contains("=") ? 1 : 2
        }
        return nil
    }

    static func summary(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is an object")
    }

    /// Runs the built tool as the container's command, with exactly the container's variables as its environment.
    static func runContainer(_ argv: [String], environment: [String: String]) throws -> EntitlementsTool.Result {
        let process = Process()
        guard let executable = EntitlementsTool.executable else { throw CocoaError(.fileNoSuchFile) }
        process.executableURL = executable
        process.arguments = Array(argv.dropFirst())
        process.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-job-\(UUID().uuidString)")
        try Data().write(to: output)
        defer { try? FileManager.default.removeItem(at: output) }
        let outputHandle = try FileHandle(forWritingTo: output)
        let error = Pipe()
        process.standardOutput = outputHandle
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try outputHandle.close()
        return EntitlementsTool.Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            exitedNormally: process.terminationReason == .exit)
    }

    @Test(
        "$(NAME) expands as the kubelet expands it",
        arguments: [
            ("$(A)/4", "7/4"), ("x$(A)y$(A)", "x7y7"), ("$(MISSING)", "$(MISSING)"), ("$$(A)", "$(A)"),
            ("$$$(A)", "$7"), ("$$", "$"), ("a$", "a$"), ("$x", "$x"), ("$(A", "$(A"), ("$()", "$()"),
            ("$(B)", "$(A)"), ("é$(A)é", "é7é"),
        ])
    func expansion(input: String, expanded: String) {
        #expect(KubernetesExpansion.expand(input, ["A": "7", "B": "$(A)"]) == expanded)
    }

    @Test("the manifest reader reads block YAML and refuses what it does not read")
    func reader() throws {
        let node = try ManifestParser.parse(
            """
            # a comment
            a: 1
            b:
              - x
              - c: "quoted # not a comment"
                d: 'it''s'
              -
                - nested
            e:
            - same indent
            f: plain # comment
            """)
        #expect(node["a"]?.integer == 1)
        #expect(node["b"]?.items?.first?.text == "x")
        #expect(node["b"]?.items?[1]["c"]?.text == "quoted # not a comment")
        #expect(node["b"]?.items?[1]["c"]?.integer == nil)
        #expect(node["b"]?.items?[1]["d"]?.text == "it's")
        #expect(node["b"]?.items?[2].items?.first?.text == "nested")
        #expect(node["e"]?.items?.first?.text == "same indent")
        #expect(node["f"]?.text == "plain")
        for refused in [
            "a: 1\na: 2", "a: [1, 2]", "a: {b: 1}", "a: &x 1", "a: *x", "a: |\n  text", "a:\n\tb: 1", "a:",
            "a: 1\n   b: 2", "---\na: 1", "a: \"open", "a: !!str 1", "- a\nb: 1",
        ] {
            #expect(throws: ManifestError.self, "\(refused)") { try ManifestParser.parse(refused) }
        }
    }
}

/// Kubernetes's expansion of `$(NAME)` in a container's `command`, `args` and `env` values, byte for byte as its
/// third_party/forked/golang/expansion does it: `$(NAME)` is NAME's value where NAME is defined and stays as written
/// where not; `$$` is one `$`, so `$$(NAME)` is the literal `$(NAME)`; a `$` before anything else stays.
enum KubernetesExpansion {
    static func expand(_ input: String, _ variables: [String: String]) -> String {
        let bytes = Array(input.utf8)
        let dollar = UInt8(ascii: "$")
        var output: [UInt8] = []
        var cursor = 0
        while cursor < bytes.count {
            guard bytes[cursor] == dollar, cursor + 1 < bytes.count else {
                output.append(bytes[cursor])
                cursor += 1
                continue
            }
            let next = bytes[cursor + 1]
            if next == dollar {
                output.append(dollar)
                cursor += 2
            } else if next == UInt8(ascii: "("),
                let close = bytes[(cursor + 2)...].firstIndex(of: UInt8(ascii: ")"))
            {
                let name = String(decoding: bytes[(cursor + 2)..<close], as: UTF8.self)
                if let value = variables[name] {
                    output += Array(value.utf8)
                } else {
                    output += bytes[cursor...close]
                }
                cursor = close + 1
            } else {
                output += [dollar, next]
                cursor += 2
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A YAML node of the subset deploy/*.yaml is written in.
indirect enum ManifestNode: Sendable {
    case scalar(String, plain: Bool)
    case mapping([String: ManifestNode])
    case sequence([ManifestNode])

    subscript(key: String) -> ManifestNode? {
        if case .mapping(let entries) = self { entries[key] } else { nil }
    }

    var items: [ManifestNode]? {
        if case .sequence(let items) = self { items } else { nil }
    }

    var text: String? {
        if case .scalar(let text, _) = self { text } else { nil }
    }

    /// A plain scalar of digits: YAML's integer, where a quoted "4" is a string.
    var integer: Int? {
        if case .scalar(let text, plain: true) = self { Int(text) } else { nil }
    }
}

struct ManifestError: Error, CustomStringConvertible {
    var line: Int
    var message: String
    var description: String { "line \(line): \(message)" }
}

/// Reads one YAML document of block mappings, block sequences and scalars (plain, 'single' and "double" quoted), with
/// comments. Everything else is refused rather than guessed at: flow collections, anchors, aliases, tags, block
/// scalars, tabs in indentation, duplicate keys, empty values, document markers and directives.
struct ManifestParser {
    struct Line {
        var number: Int
        var indent: Int
        var text: String
    }

    var lines: [Line]
    var index = 0

    static func parse(_ text: String) throws(ManifestError) -> ManifestNode {
        var lines: [Line] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let leading = raw.prefix { $0 == " " || $0 == "\t" }
            let body = raw.dropFirst(leading.count)
            if body.isEmpty || body.hasPrefix("#") { continue }
            if leading.contains("\t") || body.contains("\r") {
                throw ManifestError(line: offset + 1, message: "indentation is spaces, lines end with \\n")
            }
            if body.hasPrefix("---") || body.hasPrefix("...") || body.hasPrefix("%") {
                throw ManifestError(line: offset + 1, message: "one document, with no markers or directives")
            }
            lines.append(Line(number: offset + 1, indent: leading.count, text: String(body)))
        }
        guard let first = lines.first, first.indent == 0 else {
            throw ManifestError(line: lines.first?.number ?? 1, message: "a document starts at column 1")
        }
        var parser = ManifestParser(lines: lines)
        let node = try parser.block(indent: 0)
        if parser.index < lines.count {
            throw ManifestError(line: lines[parser.index].number, message: "unexpected indentation")
        }
        return node
    }

    static func isItem(_ text: some StringProtocol) -> Bool { text == "-" || text.hasPrefix("- ") }

    mutating func block(indent: Int) throws(ManifestError) -> ManifestNode {
        try Self.isItem(lines[index].text) ? sequence(indent: indent) : mapping(indent: indent)
    }

    mutating func sequence(indent: Int) throws(ManifestError) -> ManifestNode {
        var items: [ManifestNode] = []
        while index < lines.count, lines[index].indent == indent, Self.isItem(lines[index].text) {
            let line = lines[index]
            let rest = line.text.dropFirst()
            let content = rest.drop { $0 == " " }
            if content.isEmpty || content.hasPrefix("#") {
                index += 1
                guard index < lines.count, lines[index].indent > indent else {
                    throw ManifestError(line: line.number, message: "an empty item")
                }
                items.append(try block(indent: lines[index].indent))
            } else if Self.isItem(content) || Self.entry(content) != nil {
                // "- key: value" opens a mapping whose keys line up with `key`.
                let column = indent + line.text.count - content.count
                lines[index] = Line(number: line.number, indent: column, text: String(content))
                items.append(try block(indent: column))
            } else {
                items.append(try Self.scalar(content, line: line.number))
                index += 1
            }
        }
        return .sequence(items)
    }

    mutating func mapping(indent: Int) throws(ManifestError) -> ManifestNode {
        var entries: [String: ManifestNode] = [:]
        while index < lines.count, lines[index].indent == indent {
            let line = lines[index]
            guard let entry = Self.entry(line.text) else {
                throw ManifestError(line: line.number, message: "expected key: value")
            }
            let (key, value) = entry
            guard entries[key] == nil else { throw ManifestError(line: line.number, message: "\(key) given twice") }
            index += 1
            let content = value.drop { $0 == " " }
            if !content.isEmpty, !content.hasPrefix("#") {
                entries[key] = try Self.scalar(content, line: line.number)
            } else if index < lines.count, lines[index].indent > indent {
                entries[key] = try block(indent: lines[index].indent)
            } else if index < lines.count, lines[index].indent == indent, Self.isItem(lines[index].text) {
                entries[key] = try sequence(indent: indent)
            } else {
                throw ManifestError(line: line.number, message: "\(key) has no value")
            }
        }
        return .mapping(entries)
    }

    /// A plain key and what follows its colon, where `text` is `key: value` or `key:`.
    static func entry(_ text: some StringProtocol) -> (String, Substring)? {
        let text = Substring(text)
        let key: Substring
        let value: Substring
        if let colon = text.range(of: ": ") {
            key = text[..<colon.lowerBound]
            value = text[colon.upperBound...]
        } else if text.hasSuffix(":") {
            key = text.dropLast()
            value = ""
        } else {
            return nil
        }
        guard let first = key.first, !"[]{}&*!|>%@`\"'?,#- ".contains(first), !key.contains(" #"),
            key.last != " "
        else { return nil }
        return (String(key), value)
    }

    static func scalar(_ text: some StringProtocol, line: Int) throws(ManifestError) -> ManifestNode {
        let text = Substring(text)
        guard let first = text.first else { throw ManifestError(line: line, message: "an empty value") }
        if first == "\"" || first == "'" {
            var value = ""
            var rest = text.dropFirst()
            var closed = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == first {
                    if first == "'", rest.first == "'" {
                        value.append("'")
                        rest = rest.dropFirst()
                        continue
                    }
                    closed = true
                    break
                }
                if first == "\"", character == "\\" {
                    guard let escaped = rest.first, escaped == "\"" || escaped == "\\" else {
                        throw ManifestError(line: line, message: "only \\\" and \\\\ are read in a quoted value")
                    }
                    value.append(escaped)
                    rest = rest.dropFirst()
                    continue
                }
                value.append(character)
            }
            let after = rest.drop { $0 == " " }
            guard closed, after.isEmpty || (after.hasPrefix("#") && rest.first == " ") else {
                throw ManifestError(line: line, message: "a quoted value must close, with only a comment after it")
            }
            return .scalar(value, plain: false)
        }
        guard !"[]{}&*!|>%@`,?#".contains(first) else {
            throw ManifestError(line: line, message: "\(first) starts YAML this reader does not read")
        }
        var value = text
        if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
        while value.last == " " { value = value.dropLast() }
        return .scalar(String(value), plain: true)
    }
}
