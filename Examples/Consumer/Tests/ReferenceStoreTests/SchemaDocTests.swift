import Foundation
import ReferenceStore
import Testing

/// The SQL that docs/integrating.md shows is the SQL the reference store runs.
struct SchemaDocTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/integrating.md")

    /// The ```sql blocks of the page, in order.
    static func sqlBlocks() throws -> [String] {
        let text = try String(contentsOf: page, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```sql" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Each statement without its indentation, as the page writes it.
    static func unindented(_ sql: String) -> String {
        sql.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
    }

    @Test func schemaAndWritesAreTheStoresOwn() throws {
        let blocks = try Self.sqlBlocks()
        try #require(blocks.count == 2, "the schema and the write")
        #expect(Self.unindented(blocks[0]) == Self.unindented(SQLiteStore.schema))
        let write = Self.unindented(blocks[1])
        #expect(write.contains(Self.unindented(SQLiteStore.update)))
        // The insert is shown commented out, as the alternative to the update for a new row.
        let insert = Self.unindented(SQLiteStore.insert).split(separator: "\n").map { "-- " + $0 }.joined(
            separator: "\n")
        #expect(write.contains(insert), "\(insert)")
    }
}
