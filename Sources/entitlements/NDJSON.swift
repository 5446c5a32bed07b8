import FamilyEntitlements
import Foundation

/// Lines read from a descriptor in chunks, never more than a limit each: memory stays that of one chunk and the
/// longest line, however long the stream.
struct LineReader {
    enum Line {
        case text([UInt8])
        /// A line longer than the limit, skipped to its end.
        case tooLong(Int)
    }

    let descriptor: Int32
    let limit: Int
    let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    /// The 1-based number of the line last returned.
    private(set) var lineNumber = 0
    /// Bytes read so far.
    private(set) var bytesRead = 0

    init(descriptor: Int32, limit: Int, name: String) {
        self.descriptor = descriptor
        self.limit = limit
        self.name = name
    }

    /// The next line without its line feed (and carriage return), or nil at the end of the stream.
    mutating func next() throws(InputError) -> Line? {
        var skipped = 0
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                lineNumber += 1
                if skipped > 0 || line.count > limit { return .tooLong(skipped + line.count) }
                return .text(line.last == 0x0D ? Array(line.dropLast()) : line)
            }
            if ended {
                guard start < buffer.count || skipped > 0 else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                lineNumber += 1
                if skipped > 0 || line.count > limit { return .tooLong(skipped + line.count) }
                return .text(line.last == 0x0D ? Array(line.dropLast()) : line)
            }
            if buffer.count - start > limit {
                skipped += buffer.count - start
                buffer.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 0 {
                buffer.removeSubrange(..<start)
                start = 0
            }
            try fill()
        }
    }

    private mutating func fill() throws(InputError) {
        let chunk = 1 << 20
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let count = buffer.withUnsafeMutableBytes {
                Input.systemRead(descriptor, $0.baseAddress.map { $0 + old }, chunk)
            }
            if count < 0 {
                if errno == EINTR { continue }
                buffer.removeSubrange(old...)
                throw InputError("cannot read \(name): \(Output.describe(errno: errno))")
            }
            buffer.removeSubrange((old + count)...)
            bytesRead += count
            if count == 0 { ended = true }
            return
        }
    }
}

/// The members of one NDJSON line's top-level object, found without decoding their values: where `customer`,
/// `history` and `entitlements` are, for the decoder that reads them.
struct TopLevelObject {
    /// Each member's name and the byte range of its value.
    var members: [String: Range<Int>] = [:]

    init(_ bytes: [UInt8]) throws(PayloadDecodingError) {
        var index = Self.skipSpace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw PayloadDecodingError(
                code: .malformedJSON, path: "", message: "a line must hold one JSON object {\"customer\": ...}")
        }
        index = Self.skipSpace(bytes, index + 1)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw Self.malformed(at: index, "expected a member name")
                }
                let nameEnd = try Self.endOfString(bytes, index)
                let name = try Self.string(bytes, index..<nameEnd, path: "")
                index = Self.skipSpace(bytes, nameEnd)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw Self.malformed(at: index, "expected ':'")
                }
                index = Self.skipSpace(bytes, index + 1)
                let valueEnd = try Self.endOfValue(bytes, index)
                guard valueEnd > index else { throw Self.malformed(at: index, "expected a value") }
                if members[name] != nil {
                    throw PayloadDecodingError(
                        code: .duplicateMember, path: name, message: "the member \"\(name)\" appears twice")
                }
                members[name] = index..<valueEnd
                index = Self.skipSpace(bytes, valueEnd)
                guard index < bytes.count else { throw Self.malformed(at: index, "the object is not closed") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    break
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw Self.malformed(at: index, "expected ',' or '}'") }
                index = Self.skipSpace(bytes, index + 1)
            }
        }
        guard Self.skipSpace(bytes, index) == bytes.count else {
            throw Self.malformed(at: index, "text after the object")
        }
    }

    /// Throws `unknown_key` naming the first member, in sorted order, that is not among `known`: a line is the tool's
    /// own document, so a misspelt member is refused rather than read as absent.
    func refuseUnknown(known: Set<String>, of what: String) throws(PayloadDecodingError) {
        try UnknownKeys.refuse(members.keys, known: known, of: what)
    }

    /// A member that must be a string, such as `customer`.
    func string(_ name: String, in bytes: [UInt8]) throws(PayloadDecodingError) -> String {
        guard let range = members[name] else {
            throw PayloadDecodingError(code: .missingValue, path: name, message: "the line has no \"\(name)\"")
        }
        guard bytes[range.lowerBound] == UInt8(ascii: "\"") else {
            throw PayloadDecodingError(code: .wrongType, path: name, message: "\"\(name)\" must be a string")
        }
        return try Self.string(bytes, range, path: name)
    }

    /// The bytes of a member's value.
    func value(_ name: String, in bytes: [UInt8]) throws(PayloadDecodingError) -> ArraySlice<UInt8> {
        guard let range = members[name] else {
            throw PayloadDecodingError(code: .missingValue, path: name, message: "the line has no \"\(name)\"")
        }
        return bytes[range]
    }

    private static func malformed(at offset: Int, _ message: String) -> PayloadDecodingError {
        PayloadDecodingError(code: .malformedJSON, path: "", message: "\(message) at byte \(offset)")
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: Int) -> Int {
        var index = index
        while index < bytes.count, Input.isJSONWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// The index after the closing quote of the string starting at `index`.
    private static func endOfString(_ bytes: [UInt8], _ index: Int) throws(PayloadDecodingError) -> Int {
        var index = index + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            case 0..<0x20: throw malformed(at: index, "a control character in a string")
            default: index += 1
            }
        }
        throw malformed(at: index, "the string is not closed")
    }

    /// The index after the value starting at `index`: a string, or anything up to its matching bracket or the next
    /// delimiter. The value itself is checked by whatever decodes it.
    private static func endOfValue(_ bytes: [UInt8], _ index: Int) throws(PayloadDecodingError) -> Int {
        guard index < bytes.count else { return index }
        if bytes[index] == UInt8(ascii: "\"") { return try endOfString(bytes, index) }
        var depth = 0
        var position = index
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position = try endOfString(bytes, position)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return position }
                depth -= 1
                if depth == 0 { return position + 1 }
            case UInt8(ascii: ","):
                if depth == 0 { return position }
            case 0x20, 0x0A, 0x0D, 0x09:
                if depth == 0 { return position }
            default:
                break
            }
            position += 1
        }
        guard depth == 0 else { throw malformed(at: position, "an object or array is not closed") }
        return position
    }

    /// The contents of the JSON string at `range`, escapes decoded, UTF-8 checked.
    private static func string(
        _ bytes: [UInt8], _ range: Range<Int>, path: String
    ) throws(PayloadDecodingError) -> String {
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inner.contains(UInt8(ascii: "\\")) {
            guard let text = String(validating: inner, as: UTF8.self) else {
                throw PayloadDecodingError(code: .malformedJSON, path: path, message: "the string is not UTF-8")
            }
            return text
        }
        guard
            let text = try? JSONSerialization.jsonObject(with: Data(bytes[range]), options: .fragmentsAllowed)
                as? String
        else {
            throw PayloadDecodingError(code: .malformedJSON, path: path, message: "the string has a bad escape")
        }
        return text
    }
}

/// JSON text written by hand for the lines `reconcile` prints, with the same escapes as the report's JSON.
enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, and the characters a
    /// terminal would act on written as `\uXXXX`, as `TerminalText.escapedJSON` writes them.
    static func string(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where TerminalText.isSpoofing(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func array(_ strings: [String]) -> String {
        "[" + strings.map(string).joined(separator: ",") + "]"
    }
}
