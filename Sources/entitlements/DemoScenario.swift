import FamilyEntitlements
import Foundation

/// The shipped scenario `rebuild` and `explain` run when given no FILE, read from the repository's `Fixtures/` folder
/// where one is at hand: in the current folder or one above it, or above the executable (`.build/debug/entitlements`
/// sits three folders below the repository). The tool has no resource bundle and links no test-support code, so a
/// copy of the binary runs anywhere; without `Fixtures/` it says how to pass a file.
struct DemoScenario {
    static let name = "purchaser-refunded-member"
    static let summary =
        "a family member after the purchaser was refunded: the shared subscription is revoked (cause inferred: "
        + "refund), the member's own purchase still grants"
    static let folder = "Fixtures/Scenarios/\(name)"

    var history: History
    var catalog: ProductCatalog?
    var asOf: Date
    /// The folder the scenario was read from, for the note on standard error.
    var location: String

    /// The scenario, or a usage error saying that no FILE was given and how to give one.
    static func load() throws -> DemoScenario {
        guard let folder = locate() else {
            throw UsageError(
                "no FILE given, and the shipped demo scenario (\(folder)/) is not here: pass a history file, "
                    + "such as entitlements rebuild history.json, or - to read standard input")
        }
        let historyData = try Input.read(folder + "/history.json", limit: Input.defaultLimit)
        let history = try History.decodeUnverified(historyData).history
        let catalog = try ProductCatalog(jsonData: try Input.read(folder + "/catalog.json", limit: Input.defaultLimit))
        let expected = try Input.read(folder + "/expected.json", limit: Input.defaultLimit)
        // Read by the library's strict reader, as every document is: a member named twice is refused.
        guard let milliseconds = (try? PayloadJSON.decode(ExpectedInstant.self, from: expected))?.asOf else {
            throw InputError("\(folder)/expected.json has no asOf in milliseconds")
        }
        return DemoScenario(
            history: history, catalog: catalog, asOf: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            location: folder)
    }

    /// The scenario's folder: below the current folder or one of its parents, or above the executable.
    static func locate() -> String? {
        let fileManager = FileManager.default
        var starts = [URL(fileURLWithPath: fileManager.currentDirectoryPath)]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            starts.append(executable.deletingLastPathComponent())
        }
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<5 {
                let candidate = folder.appendingPathComponent(Self.folder)
                if fileManager.fileExists(atPath: candidate.appendingPathComponent("history.json").path) {
                    return candidate.path
                }
                guard folder.path != "/" else { break }
                folder.deleteLastPathComponent()
            }
        }
        return nil
    }
}

/// The instant of a scenario's `expected.json`, in milliseconds since 1970; its other members are not read.
private struct ExpectedInstant: Decodable {
    var asOf: Int64?
}
