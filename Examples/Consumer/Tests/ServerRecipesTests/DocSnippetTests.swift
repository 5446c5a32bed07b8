import Foundation
import Testing

/// Every ```swift block of the README and of docs/ appears, character for character but for each line's indentation,
/// in a file of `Sources/ServerRecipes` (where it compiles against FamilyEntitlements and the stand-ins for Apple's
/// library) or of `Tests/MemberAccessTests` (where a test runs it).
///
/// A block is exempt only when the line before its fence says `<!-- not compiled: why -->` (StoreKit code, which runs on
/// Apple platforms only). Run from this repository: it reads the docs beside the package.
struct DocSnippetTests {
    struct Block: CustomStringConvertible {
        var text: String
        var line: Int
        var exempt: Bool

        var description: String { "the block at line \(line): \(text.split(separator: "\n").first ?? "")" }
    }

    static let consumer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let repository = consumer.deletingLastPathComponent().deletingLastPathComponent()

    /// The ```swift blocks of a Markdown page, each without the indentation of its fence.
    static func blocks(of page: String) -> [Block] {
        var blocks: [Block] = []
        var current: (lines: [String], indent: Int, line: Int, exempt: Bool)? = nil
        var previous = ""
        for (index, line) in page.components(separatedBy: "\n").enumerated() {
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if var block = current {
                if trimmed == "```" {
                    blocks.append(
                        Block(text: block.lines.joined(separator: "\n"), line: block.line, exempt: block.exempt))
                    current = nil
                } else {
                    block.lines.append(String(line.dropFirst(min(indent, block.indent))))
                    current = block
                }
            } else if trimmed == "```swift" {
                current = ([], indent, index + 1, previous.hasPrefix("<!-- not compiled:"))
            }
            if !trimmed.isEmpty { previous = String(trimmed) }
        }
        return blocks
    }

    static func compiledSources() throws -> [String] {
        try ["Sources/ServerRecipes", "Tests/MemberAccessTests"].flatMap { path in
            let folder = consumer.appendingPathComponent(path)
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "swift" }
                .map { unindented(try String(contentsOf: $0, encoding: .utf8)) }
        }
    }

    /// The text with each line's leading spaces removed, so that a block may stand inside a function or a test.
    static func unindented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.drop { $0 == " " } }
            .joined(separator: "\n")
    }

    struct PageCase: CustomTestStringConvertible, Sendable {
        var page: String
        /// How many blocks of the page are compiled; a block that loses its compiled copy fails the row.
        var compiled: Int
        var testDescription: String { "\(page): \(compiled) swift blocks, each compiled in this package" }
    }

    @Test(arguments: [
        PageCase(page: "README.md", compiled: 2),
        PageCase(page: "docs/integrating.md", compiled: 10),
        PageCase(page: "docs/operations.md", compiled: 2),
        PageCase(page: "docs/ledger.md", compiled: 1),
        PageCase(page: "docs/money.md", compiled: 1),
        PageCase(page: "docs/testing-your-code.md", compiled: 4),
    ])
    func everySwiftBlockIsCompiled(_ row: PageCase) throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent(row.page), encoding: .utf8)
        let sources = try Self.compiledSources()
        let blocks = Self.blocks(of: page).filter { !$0.exempt }
        #expect(blocks.count == row.compiled)
        for block in blocks {
            #expect(
                sources.contains { $0.contains(Self.unindented(block.text)) },
                "\(row.page): \(block) has no identical compiled copy")
        }
    }

    @Test
    func blocksAreFoundWithTheirIndentationRemoved() {
        let page =
            "text\n\n- item:\n\n  ```swift\n  let a = 1\n    let b = 2\n  ```\n<!-- not compiled: x -->\n```swift\nc\n```\n"
        let blocks = Self.blocks(of: page)
        #expect(blocks.map(\.text) == ["let a = 1\n  let b = 2", "c"])
        #expect(blocks.map(\.exempt) == [false, true])
    }
}
