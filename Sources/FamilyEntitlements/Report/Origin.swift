/// Where the engine produced a diagnostic or a piece of evidence: its file and function, as `#fileID` and `#function`
/// name them.
///
/// Package-only: the decision table's "decided in" lines (docs/decision-table.md) are recorded from it, and a test
/// fails where a rule is decided somewhere the table does not say. It takes no part in equality, hashing or JSON.
package struct Origin: Sendable {
    let file: StaticString
    let function: StaticString

    /// The file's name, without its module: `OneTimePurchases.swift`.
    package var fileName: String {
        let text = "\(file)"
        return text.split(separator: "/").last.map(String.init) ?? text
    }

    /// The function's name with its argument labels: `evaluate(at:in:dates:type:facts:log:)`.
    package var functionName: String { "\(function)" }
}
