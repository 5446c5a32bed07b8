#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Field values, each read the way the payloads' `Codable` initialisers read it through `JSONDecoder`.
///
/// Every reader starts at the value (white space skipped) and returns nil for `null`, as `decodeIfPresent` does.
extension FastJSONReader {
    /// A string field.
    @inline(__always)
    mutating func readString() throws(PayloadDecodingError) -> String? {
        guard current == ASCII.quote else {
            if current == UInt8(ascii: "n") {
                try readNull()
                return nil
            }
            throw wrongType(expected: "a string")
        }
        return try readStringContents()
    }

    /// An Int64 field.
    @inline(__always)
    mutating func readInt64() throws(PayloadDecodingError) -> Int64? {
        guard isAtNumber else {
            try readNullOrFail(expected: "a number")
            return nil
        }
        return try int64(scanNumber())
    }

    /// An Int32 field.
    @inline(__always)
    mutating func readInt32() throws(PayloadDecodingError) -> Int32? {
        guard isAtNumber else {
            try readNullOrFail(expected: "a number")
            return nil
        }
        return try int32(scanNumber())
    }

    /// A Bool field: `true` or `false` only.
    @inline(__always)
    mutating func readBool() throws(PayloadDecodingError) -> Bool? {
        guard current == UInt8(ascii: "t") || current == UInt8(ascii: "f") else {
            try readNullOrFail(expected: "a boolean")
            return nil
        }
        return try readBooleanLiteral()
    }

    /// A date field: milliseconds since 1970 between the years 1 and 9999 (`MillisecondDate`).
    @inline(__always)
    mutating func readDate() throws(PayloadDecodingError) -> Date? {
        guard isAtNumber else {
            try readNullOrFail(expected: "a number")
            return nil
        }
        let milliseconds = try dateMilliseconds(scanNumber())
        guard MillisecondDate.isValid(milliseconds) else {
            throw PayloadDecodingError(
                code: .invalidDate, path: "",
                message: "\(milliseconds) is not a date in milliseconds between the years 1 and 9999")
        }
        return MillisecondDate.date(milliseconds: milliseconds)
    }

    /// A UUID field, read as `UUID(uuidString:)` reads it.
    ///
    /// The canonical form (36 characters, hyphens after the 8th, 12th, 16th and 20th hexadecimal digit) is read
    /// here; anything else goes to `UUID(uuidString:)` itself, so that its edge cases stay its own.
    @inline(__always)
    mutating func readUUID() throws(PayloadDecodingError) -> UUID? {
        guard current == ASCII.quote else {
            try readNullOrFail(expected: "a string")
            return nil
        }
        let start = position + 1
        if let uuid = canonicalUUID(at: start), byte(at: start + 36) == ASCII.quote {
            position = start + 37
            return uuid
        }
        guard let text = try readString() else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw PayloadDecodingError(code: .invalidUUID, path: "", message: "\"\(text)\" is not a UUID")
        }
        return uuid
    }

    /// The UUID written in canonical form at `index`, if it is.
    @inline(__always)
    private func canonicalUUID(at index: Int) -> UUID? {
        guard index + 36 <= bytes.count, bytes[index + 8] == ASCII.minus, bytes[index + 13] == ASCII.minus,
            bytes[index + 18] == ASCII.minus, bytes[index + 23] == ASCII.minus,
            let first = hexNumber(at: index, digits: 8), let second = hexNumber(at: index + 9, digits: 4),
            let third = hexNumber(at: index + 14, digits: 4), let fourth = hexNumber(at: index + 19, digits: 4),
            let fifth = hexNumber(at: index + 24, digits: 12)
        else { return nil }
        let high = first << 32 | second << 16 | third
        let low = fourth << 48 | fifth
        func byte(_ word: UInt64, _ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4),
                byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }

    /// The value of `digits` hexadecimal digits at `index` (within the bytes), or nil if one is not a digit.
    @inline(__always)
    private func hexNumber(at index: Int, digits: Int) -> UInt64? {
        var value: UInt64 = 0
        for offset in 0..<digits {
            guard let digit = Self.hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// An open value of Apple's with a string raw value.
    ///
    /// A documented value is returned as its static member, whose raw value is a string constant: no string is built.
    @inline(__always)
    mutating func readValue<Value: AppleValue>(_: Value.Type) throws(PayloadDecodingError) -> Value?
    where Value.RawValue == String {
        guard current == ASCII.quote else {
            try readNullOrFail(expected: "a string")
            return nil
        }
        let start = position + 1
        let end = endOfPlainText(from: start)
        if byte(at: end) == ASCII.quote {
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            for value in Value.documentedValues where Self.utf8(of: value.rawValue, equals: text) {
                position = end + 1
                return value
            }
        }
        return Value(rawValue: try readStringContents())
    }

    /// Whether a string's UTF-8 is `bytes`.
    @inline(__always)
    private static func utf8(of string: String, equals bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let utf8 = string.utf8
        guard utf8.count == bytes.count else { return false }
        return utf8.withContiguousStorageIfAvailable { Self.bytesEqual($0, bytes) } ?? utf8.elementsEqual(bytes)
    }

    /// An open value of Apple's with an Int32 raw value.
    @inline(__always)
    mutating func readValue<Value: AppleValue>(_: Value.Type) throws(PayloadDecodingError) -> Value?
    where Value.RawValue == Int32 {
        try readInt32().map(Value.init(rawValue:))
    }

    /// A field holding any JSON, kept as sent; `null` is an absent field, as `decodeIfPresent(JSONValue.self)` reads it.
    mutating func readJSONValue() throws(PayloadDecodingError) -> JSONValue? {
        if current == UInt8(ascii: "n") {
            try readNull()
            return nil
        }
        return try readAnyValue()
    }

    /// A nested payload object.
    @inline(__always)
    mutating func readNested<Value: FastJSONDecodable>(_: Value.Type) throws(PayloadDecodingError) -> Value? {
        guard current == ASCII.openBrace else {
            try readNullOrFail(expected: "an object")
            return nil
        }
        var value = Value.empty
        try Value.decodeFastJSON(from: &self, into: &value)
        return value
    }

    /// An array of strings; `null` elements are errors, as `decodeIfPresent([String].self)` reads them.
    mutating func readStringArray() throws(PayloadDecodingError) -> [String]? {
        try readArray { (reader) throws(PayloadDecodingError) -> String in
            guard reader.current == ASCII.quote else {
                if reader.current == UInt8(ascii: "n") {
                    throw PayloadDecodingError(
                        code: .missingValue, path: "", message: "expected a string, found null or nothing")
                }
                throw reader.wrongType(expected: "a string")
            }
            return try reader.readStringContents()
        }
    }

    /// An array of nested payload objects; `null` elements are errors.
    mutating func readArray<Value: FastJSONDecodable>(of _: Value.Type) throws(PayloadDecodingError) -> [Value]? {
        try readArray { (reader) throws(PayloadDecodingError) -> Value in
            guard reader.current == ASCII.openBrace else {
                if reader.current == UInt8(ascii: "n") {
                    throw PayloadDecodingError(
                        code: .missingValue, path: "", message: "expected an object, found null or nothing")
                }
                throw reader.wrongType(expected: "an object")
            }
            var value = Value.empty
            try Value.decodeFastJSON(from: &reader, into: &value)
            return value
        }
    }

    /// An array field whose elements `element` reads; errors name the element's index.
    @inline(__always)
    mutating func readArray<Element>(
        _ element: (inout FastJSONReader) throws(PayloadDecodingError) -> Element
    ) throws(PayloadDecodingError) -> [Element]? {
        guard current == ASCII.openBracket else {
            try readNullOrFail(expected: "an array")
            return nil
        }
        try enterContainer()
        var elements: [Element] = []
        skipWhitespace()
        if current == ASCII.closeBracket {
            position += 1
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            do throws(PayloadDecodingError) {
                elements.append(try element(&self))
            } catch {
                throw error.inElement(elements.count)
            }
            guard try closeOrContinue(ASCII.closeBracket, "a trailing comma before ] (RFC 8259 section 5)") else {
                return elements
            }
        }
    }

    /// Reads `null`, or fails naming the JSON type the field takes.
    @inline(__always)
    mutating func readNullOrFail(expected: String) throws(PayloadDecodingError) {
        guard current == UInt8(ascii: "n") else { throw wrongType(expected: expected) }
        try readNull()
    }
}
