import Foundation
import Testing

/// Runs the examples of docs/cli.md: each ```sh block after a `<!-- cli-test: exit N -->` marker, one command per
/// line, from the repository's root with the built tool first on `PATH`; each must exit N. A ```text block right
/// after a tested block holds lines its standard output must contain.
@Suite(
    "docs/cli.md's examples", .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct CommandLineDocsTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var commands: [String]
        var status: Int32
        var expectedLines: [String]
        var testDescription: String { commands.first ?? "(empty)" }
    }

    static var examples: [Example] {
        let url = CommandLineStandaloneTests.root.appendingPathComponent("docs/cli.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            let marker = "<!-- cli-test: exit "
            guard line.hasPrefix(marker), let status = Int32(line.dropFirst(marker.count).prefix(while: \.isNumber))
            else { continue }
            guard index < lines.count, lines[index] == "```sh" else { continue }
            index += 1
            var commands: [String] = []
            while index < lines.count, lines[index] != "```" {
                if !lines[index].isEmpty, !lines[index].hasPrefix("#") { commands.append(lines[index]) }
                index += 1
            }
            index += 1
            while index < lines.count, lines[index].isEmpty { index += 1 }
            var expected: [String] = []
            if index < lines.count, lines[index] == "```text" {
                index += 1
                while index < lines.count, lines[index] != "```" {
                    if !lines[index].isEmpty { expected.append(lines[index]) }
                    index += 1
                }
            }
            examples.append(Example(commands: commands, status: status, expectedLines: expected))
        }
        return examples
    }

    @Test("docs/cli.md has tested examples of every command and exit status")
    func examplesCoverTheTool() {
        let examples = Self.examples
        let commands = examples.flatMap(\.commands).joined(separator: "\n")
        for command in ["help", "rebuild", "explain", "decode", "reconcile", "--format svg", "--shard", "--stored"] {
            #expect(commands.contains(command), "an example uses \(command)")
        }
        #expect(Set(examples.map(\.status)) == [0, 1, 2])
    }

    @Test(arguments: examples)
    func example(_ example: Example) throws {
        var output = ""
        for command in example.commands {
            let result = try EntitlementsTool.runShell(
                #"cd "$1" && PATH="$(dirname "$0"):$PATH" && export PATH && eval "$2""#,
                [CommandLineStandaloneTests.root.path, command])
            #expect(result.exitedNormally, "\(command)")
            #expect(result.status == example.status, "\(command): \(result.standardError)")
            #expect(!result.standardError.contains("Fatal error"), "\(command)")
            output += result.standardOutput
        }
        for line in example.expectedLines {
            #expect(output.contains(line), "output contains: \(line)")
        }
    }
}
