/// A fixture that could not be found, read or decoded.
public struct FixtureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The fixture's path inside `Fixtures/`.
    public var path: String
    /// What went wrong.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "fixture \(path): \(message)" }
}
