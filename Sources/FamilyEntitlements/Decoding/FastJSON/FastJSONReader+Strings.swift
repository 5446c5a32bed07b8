/// Strings: RFC 8259 section 7 escapes and strict UTF-8 (Unicode table 3-7), read or skipped in one pass.
extension FastJSONReader {
    /// The bytes of a string between its quotes, already checked.
    struct StringToken {
        var start: Int
        var end: Int
        /// Whether the string holds a backslash escape; if not, its bytes are its UTF-8 contents.
        var hasEscapes: Bool
    }

    /// Reads a string value; the reader is at its opening quote.
    ///
    /// A long string with no backslash before its closing quote (a signed JWS) is checked as it is copied into its
    /// `String`, once (`checkedString(_:)`); one that holds a control character or a byte beyond ASCII is read again
    /// from its start, as every other string is read.
    @inline(__always)
    mutating func readStringContents() throws(PayloadDecodingError) -> String {
        let start = position + 1
        let plain = endOfPlainText(from: start, leavingLongTextsToCaller: true)
        if plain.unchecked,
            let string = Self.checkedString(UnsafeRawBufferPointer(rebasing: raw[start..<plain.end]))
        {
            position = plain.end + 1
            return string
        }
        let token = try plain.unchecked ? scanString() : scanString(start: start, plainEnd: plain.end)
        guard token.hasEscapes else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
        }
        return String(decoding: try unescape(token), as: UTF8.self)
    }

    /// Moves past a string after checking it; the reader is at its opening quote.
    ///
    /// An escaped UTF-16 surrogate without its pair passes here (RFC 8259 section 8.2 allows it in the grammar, and
    /// `JSONDecoder` skips such strings in members it ignores); reading the string as a value rejects it.
    @inline(__always)
    mutating func scanString() throws(PayloadDecodingError) -> StringToken {
        let start = position + 1
        return try scanString(start: start, plainEnd: endOfPlainText(from: start))
    }

    /// Moves past a string that starts at `start` (after its opening quote) and whose plain text, with nothing to
    /// check further, runs to `index`.
    @inline(__always)
    private mutating func scanString(start: Int, plainEnd index: Int) throws(PayloadDecodingError) -> StringToken {
        if byte(at: index) == ASCII.quote {
            position = index + 1
            return StringToken(start: start, end: index, hasEscapes: false)
        }
        return try scanStringSlowly(start: start, from: index)
    }

    /// Scans the rest of a string that holds escapes, control characters or bytes beyond ASCII.
    private mutating func scanStringSlowly(start: Int, from index: Int) throws(PayloadDecodingError) -> StringToken {
        var index = index
        var hasEscapes = false
        while true {
            let byte = byte(at: index)
            switch byte {
            case ASCII.quote:
                position = index + 1
                return StringToken(start: start, end: index, hasEscapes: hasEscapes)
            case ASCII.backslash:
                hasEscapes = true
                index = try scanEscape(at: index)
            case 0..<0x20:
                guard index < bytes.count else { throw malformed("a string is not closed", at: index) }
                throw malformed("a control character must be escaped in a string", at: index)
            case 0x20..<0x80:
                index += 1
            default:
                index = try scanUTF8Sequence(at: index)
            }
        }
    }

    /// Checks the escape at `index` (a backslash) and returns the index after it.
    private func scanEscape(at index: Int) throws(PayloadDecodingError) -> Int {
        switch byte(at: index + 1) {
        case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            for offset in 2..<6 where Self.hexValue(byte(at: index + offset)) == nil {
                throw malformed("\\u must be followed by four hexadecimal digits", at: index + offset)
            }
            return index + 6
        default:
            throw malformed("unknown escape in a string", at: index + 1)
        }
    }

    /// Checks the UTF-8 sequence starting at `index` (a byte of 0x80 or more) and returns the index after it.
    private func scanUTF8Sequence(at index: Int) throws(PayloadDecodingError) -> Int {
        let lead = byte(at: index)
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw malformed("the text is not UTF-8 (RFC 8259 section 8.1)", at: index)
        }
        guard secondRange.contains(byte(at: index + 1)) else {
            throw malformed("the text is not UTF-8 (RFC 8259 section 8.1)", at: index + 1)
        }
        for offset in 2..<length where byte(at: index + offset) & 0xC0 != 0x80 {
            throw malformed("the text is not UTF-8 (RFC 8259 section 8.1)", at: index + offset)
        }
        return index + length
    }

    /// The UTF-8 contents of a checked string with escapes; an unpaired UTF-16 surrogate is an error.
    func unescape(_ token: StringToken) throws(PayloadDecodingError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(token.end - token.start)
        var index = token.start
        while index < token.end {
            let byte = bytes[index]
            guard byte == ASCII.backslash else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                let (scalar, next) = try unicodeEscape(at: index - 2, end: token.end)
                index = next
                Self.appendUTF8(scalar, to: &output)
            default: output.append(escape)
            }
        }
        return output
    }

    /// The scalar of the `\u` escape at `index`, joining a surrogate pair, and the index after it.
    private func unicodeEscape(at index: Int, end: Int) throws(PayloadDecodingError) -> (Unicode.Scalar, Int) {
        let unit = hexQuad(at: index + 2)
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 12 <= end, bytes[index + 6] == ASCII.backslash, bytes[index + 7] == UInt8(ascii: "u") else {
                throw unpairedSurrogate(at: index)
            }
            let low = hexQuad(at: index + 8)
            guard (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            else { throw unpairedSurrogate(at: index) }
            return (scalar, index + 12)
        case 0xDC00...0xDFFF:
            throw unpairedSurrogate(at: index)
        default:
            guard let scalar = Unicode.Scalar(unit) else { throw unpairedSurrogate(at: index) }
            return (scalar, index + 6)
        }
    }

    private func unpairedSurrogate(at index: Int) -> PayloadDecodingError {
        PayloadDecodingError(
            code: .invalidValue, path: "",
            message: "the \\u escape at byte offset \(index) is half of a UTF-16 surrogate pair without the other "
                + "half, which is no Unicode character (RFC 8259 section 8.2)")
    }

    /// The value of four checked hexadecimal digits at `index`.
    private func hexQuad(at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            value = value << 4 | UInt32(Self.hexValue(bytes[index + offset]) ?? 0)
        }
        return value
    }

    /// Appends the UTF-8 encoding of a scalar.
    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
