/// A value that could not be written as JSON, with where and why: a payload, a document or a report.
///
/// Every value the library decodes also encodes, so this is rare; it names the place in the value that failed (`path`,
/// in the form of `PayloadDecodingError.path`, empty for the whole value) rather than passing as a decoding error.
public struct PayloadEncodingError: Error, LocatedProblem {
    /// What kind of problem the value has; an open set, so later versions may add codes.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A value JSON cannot represent, such as a date or amount out of range.
        public static let unencodableValue = Code(rawValue: "unencodable_value")
    }

    /// What kind of problem the value has.
    public var code: Code
    /// Where the problem is: a dotted JSON path with `[index]` for arrays, or empty for the whole value.
    public var path: String
    /// What was wrong, in words.
    public var message: String

    public init(code: Code, path: String, message: String) {
        (self.code, self.path, self.message) = (code, path, message)
    }

    /// Translates an error from an `Encoder` into the library's error, keeping the path where it has one.
    init(_ error: any Error, encoding subject: String) {
        if let error = error as? PayloadEncodingError {
            self = error
        } else if case .invalidValue(_, let context) = error as? EncodingError {
            self.init(
                code: .unencodableValue, path: JSONPath.render(context.codingPath),
                message: "cannot encode \(subject): \(context.debugDescription)")
        } else {
            self.init(code: .unencodableValue, path: "", message: "cannot encode \(subject): \(error)")
        }
    }
}
