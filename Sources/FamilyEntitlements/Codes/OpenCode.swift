/// The code of an error, rejection, warning or diagnostic: a snake_case name to branch on and to log.
///
/// Every `Code` of the library conforms (`PayloadDecodingError.Code`, `NotificationRejection.Code`, `MoneyError.Code`,
/// `Diagnostic.Code` and the others). Each is an open set: a later version may add codes, so compare with the static
/// members (`error.code == .wrongType`) and keep a default branch. Raw values are snake_case (`malformed_json`,
/// `currency_mismatch`) and never change once published; `description` is the raw value.
public protocol OpenCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    /// The code with this snake_case name, known to this version of the library or not.
    init(rawValue: String)
}

extension OpenCode {
    /// The raw value, as logs and JSON show it.
    public var description: String { rawValue }
}

/// An error, rejection, warning or conflict with a code to branch on and a message in words for logs.
public protocol CodedProblem: Hashable, Sendable, CustomStringConvertible {
    /// The kind of code this problem carries.
    associatedtype Code: OpenCode
    /// What kind of problem it is.
    var code: Code { get }
    /// What was wrong, in words, naming the values concerned.
    var message: String { get }
}

extension CodedProblem {
    /// The code and the message, for logs: `currency_mismatch: cannot add KWD to USD`.
    public var description: String { "\(code): \(message)" }
}

/// A coded problem with the place in a document that decided it: a decoding error or warning, or a rejection by the
/// notification intake.
///
/// `path` names the place, in the form `data.signedTransactionInfo` or `transactions[3].price`; it is empty when the
/// whole document (or a signature) is at fault.
public protocol LocatedProblem: CodedProblem {
    /// Where it is: a dotted JSON path with `[index]` for arrays, or empty for the whole document.
    var path: String { get set }
}

extension LocatedProblem {
    /// The code, the path where there is one, and the message: `wrong_type at transactions[3].price: ...`.
    public var description: String {
        path.isEmpty ? "\(code): \(message)" : "\(code) at \(path): \(message)"
    }

    /// The same problem, found inside a document nested at `prefix` (for example a JWS string inside a notification).
    public func nested(under prefix: String) -> Self {
        var copy = self
        copy.path = JSONPath.join(prefix, path)
        return copy
    }
}
