#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PayloadDecodingError {
    /// Translates an error from a `Decoder` into the library's error, keeping the path.
    init(_ error: any Error) {
        if let error = error as? PayloadDecodingError {
            self = error
            return
        }
        guard let error = error as? DecodingError else {
            self.init(code: .malformedJSON, path: "", message: "\(error)")
            return
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(
                code: .wrongType, path: JSONPath.render(context.codingPath),
                message: "expected \(Self.jsonTypeName(type)); \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            self.init(
                code: .missingValue, path: JSONPath.render(context.codingPath),
                message: "expected \(Self.jsonTypeName(type)), found null or nothing")
        case .keyNotFound(let key, let context):
            self.init(
                code: .missingValue, path: JSONPath.join(JSONPath.render(context.codingPath), key.stringValue),
                message: "required key \"\(key.stringValue)\" is missing")
        case .dataCorrupted(let context):
            let path = JSONPath.render(context.codingPath)
            let (code, message) = Self.classify(context.debugDescription, atRoot: context.codingPath.isEmpty)
            self.init(code: code, path: path, message: message)
        @unknown default:
            self.init(code: .malformedJSON, path: "", message: "\(error)")
        }
    }

    /// Splits a `code: message` description written by this library's decoders, or classifies Foundation's own.
    private static func classify(_ description: String, atRoot: Bool) -> (Code, String) {
        if let colon = description.firstIndex(of: ":") {
            let prefix = String(description[..<colon])
            let known: [Code] = [
                .invalidDate, .invalidUUID, .invalidValue, .numberOutOfRange, .wrongType, .unknownKey,
                .unsupportedVersion,
            ]
            if let code = known.first(where: { $0.rawValue == prefix }) {
                let rest = description[description.index(after: colon)...].drop(while: { $0 == " " })
                return (code, String(rest))
            }
        }
        if description.contains("does not fit") || description.contains("out of range") {
            return (.numberOutOfRange, description)
        }
        return (atRoot ? .malformedJSON : .invalidValue, description)
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Double.Type, is Int64.Type, is Int32.Type, is Int.Type: "a number"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }
}
