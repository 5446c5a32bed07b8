/// The command-line conventions of swift-argument-parser, written out without the dependency: `--help` and `-h` on
/// every command, `--name value` and `--name=value`, `--` before a FILE that starts with a dash, typed option values,
/// and an unknown option answered with the nearest known one.

/// One option of a command: a flag, or a name that takes a value.
struct OptionSpec: Sendable {
    var name: String
    /// What the value is called in the help (`MS_OR_ISO8601`); nil for a flag.
    var valueName: String?
    var help: String

    init(_ name: String, _ valueName: String?, _ help: String) {
        self.name = name
        self.valueName = valueName
        self.help = help
    }
}

/// A command: its name, one-line summary, usage line, positional arguments and options, for parsing and for help.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    /// The positional arguments as they appear in the usage line, such as `[FILE|-]`.
    var positionalUsage: String
    /// Each positional argument's name and meaning, for the help.
    var positionals: [(name: String, help: String)]
    /// The most positional arguments the command takes.
    var maximumPositionals: Int
    var options: [OptionSpec]
    /// Paragraphs printed after the options.
    var discussion: String

    var usage: String {
        "entitlements \(name)" + (positionalUsage.isEmpty ? "" : " \(positionalUsage)")
            + (options.isEmpty ? "" : " [options]")
    }

    /// The full help of `entitlements COMMAND --help`.
    var help: String {
        var lines = ["OVERVIEW: \(summary)", "", "USAGE: \(usage)", ""]
        if !positionals.isEmpty {
            lines.append("ARGUMENTS:")
            for positional in positionals {
                lines.append(contentsOf: Self.item(positional.name, positional.help))
            }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in options + [OptionSpec("-h, --help", nil, "Show help information.")] {
            let label = option.name + (option.valueName.map { " <\($0)>" } ?? "")
            lines.append(contentsOf: Self.item(label, option.help))
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        lines.append("")
        lines.append(CommandLineTool.exitStatusHelp)
        return lines.joined(separator: "\n")
    }

    /// A label and its help, the help wrapped at 100 columns and indented under a 26-column label.
    static func item(_ label: String, _ help: String) -> [String] {
        let indent = String(repeating: " ", count: 26)
        var lines: [String] = []
        var current = "  " + label
        if current.count >= 25 {
            lines.append(current)
            current = indent
        } else {
            current = current.padding(toLength: 26, withPad: " ", startingAt: 0)
        }
        var lineHasWords = false
        for word in help.split(separator: " ") {
            if lineHasWords, current.count + 1 + word.count > 112 {
                lines.append(current)
                current = indent
                lineHasWords = false
            }
            current += (lineHasWords ? " " : "") + word
            lineHasWords = true
        }
        lines.append(current)
        return lines
    }
}

/// What the parser found: positional arguments and option values, each option at most once.
struct ParsedArguments {
    var command: CommandSpec
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// The value of `option` read as `T`, or nil when the option was not given.
    func value<T: ArgumentValue>(_ option: String, as _: T.Type = T.self) throws(UsageError) -> T? {
        guard let text = values[option] else { return nil }
        return try T(argument: text, option: option)
    }

    /// The value of `option` as it was typed, or nil.
    func string(_ option: String) -> String? { values[option] }
}

/// An option value with a type: parsing it either gives the value or a usage error that says what was expected.
protocol ArgumentValue {
    init(argument: String, option: String) throws(UsageError)
}

/// An enumeration of option values, such as `--format table|json`: the error lists the values.
protocol EnumerationArgument: ArgumentValue, CaseIterable, RawRepresentable<String> {}

extension EnumerationArgument {
    init(argument: String, option: String) throws(UsageError) {
        guard
            let value = Self(rawValue: argument)
                ?? Self.allCases.first(where: { $0.rawValue.lowercased() == argument.lowercased() })
        else {
            throw UsageError(
                "\(option) takes \(Self.choices), not \"\(TerminalText.escaped(argument))\"")
        }
        self = value
    }

    static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.count <= 1
            ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }
}

enum ArgumentParser {
    /// Why parsing stopped before the command ran: its help was asked for.
    struct HelpRequest: Error {
        var command: CommandSpec
    }

    /// Parses `arguments` against `command`: `--help`/`-h` anywhere before `--` asks for the help; an unknown option
    /// suggests the nearest known one; an option given twice, a missing value or too many FILEs is a usage error.
    static func parse(_ arguments: [String], for command: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments(command: command)
        var remaining = arguments[...]
        var optionsEnded = false
        if !arguments.prefix(while: { $0 != "--" }).allSatisfy({ $0 != "--help" && $0 != "-h" }) {
            throw HelpRequest(command: command)
        }
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard parsed.positionals.count < command.maximumPositionals else {
                    throw UsageError(
                        command.maximumPositionals == 0
                            ? "\(command.name) takes no FILE, not \"\(TerminalText.escaped(argument))\""
                            : "unexpected argument \"\(TerminalText.escaped(argument))\": \(command.name) takes "
                                + "one FILE")
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.options.first(where: { $0.name == name }) else {
                throw UsageError(unknownOption(name, of: command))
            }
            guard parsed.values[name] == nil, !parsed.flags.contains(name) else {
                throw UsageError("\(name) is given more than once")
            }
            if option.valueName == nil {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw UsageError("\(name) needs a value <\(option.valueName ?? "VALUE")>")
            }
            if inlineValue == nil, value.hasPrefix("--"), command.options.contains(where: { $0.name == value }) {
                throw UsageError("\(name) needs a value <\(option.valueName ?? "VALUE")>, not the option \(value)")
            }
            parsed.values[name] = value
        }
        return parsed
    }

    /// The message for an unknown option, with the nearest known option where one is close.
    static func unknownOption(_ name: String, of command: CommandSpec) -> String {
        let message = "unknown option \"\(TerminalText.escaped(name))\""
        let candidates = command.options.map(\.name) + ["--help"]
        guard let nearest = nearest(to: name, among: candidates) else {
            return message + " for \(command.name)"
        }
        return message + "; did you mean \"\(nearest)\"?"
    }

    /// The candidate nearest `word` by edit distance, if it is near enough to be a slip (at most a third of its
    /// letters, and at least one); a prefix of exactly one candidate counts as near.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let prefixed = candidates.filter { $0.hasPrefix(word) && word.count > 2 }
        if prefixed.count == 1 { return prefixed[0] }
        let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(1, word.count / 3) ? best.candidate : nil
    }

    /// The Levenshtein distance between two strings, by characters.
    static func editDistance(_ first: String, _ second: String) -> Int {
        let left = Array(first)
        let right = Array(second)
        var previous = Array(0...right.count)
        for (i, leftCharacter) in left.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: right.count)
            for (j, rightCharacter) in right.enumerated() {
                current[j + 1] = Swift.min(
                    previous[j + 1] + 1, current[j] + 1, previous[j] + (leftCharacter == rightCharacter ? 0 : 1))
            }
            previous = current
        }
        return previous[right.count]
    }
}
