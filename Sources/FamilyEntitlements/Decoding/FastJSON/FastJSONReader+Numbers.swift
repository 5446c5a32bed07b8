/// Numbers: the RFC 8259 section 6 grammar, read with the same results as Foundation's `JSONDecoder`.
///
/// `JSONDecoder` reads an integer field from digits alone, or else through the correctly rounded `Double` of the text,
/// which must be a whole number (`1.0` and `1e3` are accepted, `1.5` is not); past 2^53 it rereads the text through
/// `Decimal`, and the fast path defers those documents to it. A `Double` field must be finite, and may not round to
/// zero unless `JSONDecoder` takes the text for a true zero (see `isZeroAsFoundationReadsIt`).
extension FastJSONReader {
    /// A number checked against the grammar, with what the fast conversions need.
    struct NumberToken {
        var start: Int
        var end: Int
        var isNegative: Bool
        /// Whether the number has neither a fraction nor an exponent.
        var isInteger: Bool
        /// The decimal digits of the integer and fraction parts as one integer; exact when `digitCount` is 19 or less.
        var significand: UInt64
        /// How many digits `significand` holds, a leading lone `0` not counted.
        var digitCount: Int
        /// The power of ten to apply to `significand`: the written exponent less the number of fraction digits.
        var exponent: Int
    }

    /// Whether the byte at `position` starts a number.
    @inline(__always)
    var isAtNumber: Bool { current == ASCII.minus || current.isDigit }

    /// Scans a number at `position`, checking the grammar `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    @inline(__always)
    mutating func scanNumber() throws(PayloadDecodingError) -> NumberToken {
        let start = position
        var index = position
        let isNegative = byte(at: index) == ASCII.minus
        if isNegative { index += 1 }
        var significand: UInt64 = 0
        var digitCount = 0
        let first = byte(at: index)
        if first == ASCII.zero {
            index += 1
            guard !byte(at: index).isDigit else { throw malformed("a number may not have a leading zero", at: index) }
        } else if first.isDigit {
            while true {
                let digit = byte(at: index) &- ASCII.zero
                guard digit < 10 else { break }
                significand = significand &* 10 &+ UInt64(digit)
                digitCount += 1
                index += 1
            }
        } else {
            throw malformed("a number must start with a digit or a minus sign and a digit", at: index)
        }
        var isInteger = true
        var exponent = 0
        if byte(at: index) == ASCII.dot {
            isInteger = false
            index += 1
            guard byte(at: index).isDigit else { throw malformed("a fraction must have a digit", at: index) }
            while true {
                let digit = byte(at: index) &- ASCII.zero
                guard digit < 10 else { break }
                significand = significand &* 10 &+ UInt64(digit)
                digitCount += 1
                exponent -= 1
                index += 1
            }
        }
        if byte(at: index) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentIsNegative = false
            if byte(at: index) == ASCII.plus {
                index += 1
            } else if byte(at: index) == ASCII.minus {
                exponentIsNegative = true
                index += 1
            }
            guard byte(at: index).isDigit else { throw malformed("an exponent must have a digit", at: index) }
            var written = 0
            while true {
                let digit = byte(at: index) &- ASCII.zero
                guard digit < 10 else { break }
                if written < 1_000_000 { written = written * 10 + Int(digit) }
                index += 1
            }
            exponent += exponentIsNegative ? -written : written
        }
        position = index
        return NumberToken(
            start: start, end: index, isNegative: isNegative, isInteger: isInteger, significand: significand,
            digitCount: digitCount, exponent: exponent)
    }

    /// The text of a number, for messages and the slow conversion.
    func text(of token: NumberToken) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// The integer of a number written with digits alone, if it fits in Int64.
    @inline(__always)
    func plainInt64(_ token: NumberToken) -> Int64? {
        guard token.isInteger, token.digitCount <= 19 else { return nil }
        if token.isNegative {
            return token.significand <= UInt64(1) << 63 ? Int64(bitPattern: 0 &- token.significand) : nil
        }
        return token.significand <= UInt64(Int64.max) ? Int64(token.significand) : nil
    }

    /// The correctly rounded `Double` of a number: exact arithmetic where the digits and the power of ten are exact
    /// doubles (Clinger's fast path), the C library's `strtod` through `Double(_:)` otherwise. It may be infinite.
    func double(_ token: NumberToken) throws(PayloadDecodingError) -> Double {
        if token.digitCount <= 19, token.significand <= UInt64(1) << 53 {
            var value = Double(token.significand)
            if token.significand == 0 {
                return token.isNegative ? -0.0 : 0.0
            } else if token.exponent == 0 {
                // The significand is the value.
            } else if token.exponent < 0, token.exponent >= -22 {
                value /= Self.powersOfTen[-token.exponent]
            } else if token.exponent > 0, token.exponent <= 22 {
                value *= Self.powersOfTen[token.exponent]
            } else {
                return try slowDouble(token)
            }
            return token.isNegative ? -value : value
        }
        return try slowDouble(token)
    }

    private func slowDouble(_ token: NumberToken) throws(PayloadDecodingError) -> Double {
        guard let value = Double(text(of: token)) else {
            throw malformed("a number that does not convert", at: token.start)
        }
        return value
    }

    /// 10^0 to 10^22, each exactly a `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The number as an Int64 field reads it (`JSONDecoder.decode(Int64.self)`).
    @inline(__always)
    func int64(_ token: NumberToken) throws(PayloadDecodingError) -> Int64 {
        if let value = plainInt64(token) { return value }
        if token.isInteger { throw notAnInteger(token, Int64.self) }
        let value = try double(token)
        guard let integer = Int64(exactly: value) else { throw notAnInteger(token, Int64.self) }
        guard value.magnitude < 0x1p53 else { throw PayloadDecodingError.deferredToReference }
        return integer
    }

    /// The number as an Int32 field reads it (`JSONDecoder.decode(Int32.self)`).
    @inline(__always)
    func int32(_ token: NumberToken) throws(PayloadDecodingError) -> Int32 {
        if let value = plainInt64(token) {
            guard let narrow = Int32(exactly: value) else { throw notAnInteger(token, Int32.self) }
            return narrow
        }
        if token.isInteger { throw notAnInteger(token, Int32.self) }
        let value = try double(token)
        guard let integer = Int32(exactly: value) else { throw notAnInteger(token, Int32.self) }
        return integer
    }

    /// The number as a date field reads it (`JSONDecoder.decode(Double.self)`): finite, and not rounded to zero.
    ///
    /// What `JSONDecoder` cannot read as a Double is an `invalidDate` error, as the reference path reports it.
    @inline(__always)
    func dateMilliseconds(_ token: NumberToken) throws(PayloadDecodingError) -> Double {
        if let value = plainInt64(token), value.magnitude <= UInt64(1) << 53 {
            return value == 0 && token.isNegative ? -0.0 : Double(value)
        }
        let value = try double(token)
        guard value.isFinite, value != 0 || isZeroAsFoundationReadsIt(token) else {
            throw PayloadDecodingError(
                code: .invalidDate, path: "", message: "\(text(of: token)) is beyond the range of a date")
        }
        return value
    }

    /// Whether `JSONDecoder` takes a number that converts to zero for a true zero rather than an underflow.
    ///
    /// It looks for a digit 1 to 9 (an underflow) or an exponent mark (a true zero), whichever comes first, four
    /// bytes at a time from the start, but the last one to three bytes from the end backwards: so `0e3`, `0e1` and
    /// `0e9` read as underflows and are rejected, while `0e0`, `0e10` and `-0e3` are zeros. The fast path follows it.
    func isZeroAsFoundationReadsIt(_ token: NumberToken) -> Bool {
        func verdict(_ byte: UInt8) -> Bool? {
            if byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") { return false }
            if byte | 0x20 == UInt8(ascii: "e") { return true }
            return nil
        }
        var index = token.start
        while token.end - index >= 4 {
            for offset in 0..<4 {
                if let result = verdict(bytes[index + offset]) { return result }
            }
            index += 4
        }
        for offset in stride(from: token.end - index - 1, through: 0, by: -1) {
            if let result = verdict(bytes[index + offset]) { return result }
        }
        return true
    }

    /// The number as an arbitrary JSON value reads it (`JSONValue`): an integer where Int64 reads it, else a number.
    func jsonNumber(_ token: NumberToken) throws(PayloadDecodingError) -> JSONValue {
        if let value = plainInt64(token) { return .integer(value) }
        let value = try double(token)
        if !token.isInteger, let integer = Int64(exactly: value) {
            guard value.magnitude < 0x1p53 else { throw PayloadDecodingError.deferredToReference }
            return .integer(integer)
        }
        guard value.isFinite else {
            throw PayloadDecodingError(
                code: .wrongType, path: "",
                message: "\(text(of: token)) is beyond the range of Double and is no JSON value this library keeps")
        }
        return .number(value)
    }

    private func notAnInteger<T: FixedWidthInteger>(_ token: NumberToken, _ type: T.Type) -> PayloadDecodingError {
        PayloadDecodingError(
            code: .numberOutOfRange, path: "",
            message: "\(text(of: token)) is not an integer from \(T.min) to \(T.max)")
    }
}
