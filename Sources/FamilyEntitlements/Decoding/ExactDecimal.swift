#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An exact decimal that Apple writes as a JSON string, such as Advanced Commerce's `taxRate` (`"0.15"`): read digit
/// for digit into a `Decimal`, never through a `Double`, where 0.15 has no exact value.
///
/// The form read is plain decimal notation: an optional minus sign, digits, and optionally a point followed by digits
/// (`0.15`, `7`, `-0.5`), with at most 38 digits in all, leading zeros included: a bound under which `Decimal`
/// holds every value exactly and its exponent stays in range. Anything else (an exponent, a
/// percent sign, white space, a comma) is `invalid_value` at the field, since a rate read wrong is money computed
/// wrong. The value is kept, not its spelling: `0.150` is written back as `0.15`.
enum ExactDecimal {
    /// The most digits a value may have, leading zeros included; `Decimal`'s mantissa holds any 38 digits exactly.
    static let maximumDigits = 38

    /// The value of `text`, or nil where it is not a plain decimal of at most `maximumDigits` digits.
    static func value(of text: String) -> Decimal? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        let isNegative = index < utf8.endIndex && utf8[index] == UInt8(ascii: "-")
        if isNegative { index = utf8.index(after: index) }
        // The digits, up to 19 at a time in an integer: Decimal's own arithmetic costs more than the rest of the
        // decoding of an Advanced Commerce transaction.
        var significand = Decimal(0)
        var chunk: UInt64 = 0
        var chunkDigits = 0
        var digits = 0
        var fractionDigits = 0
        var integerDigits = 0
        var sawPoint = false
        while index < utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            if byte == UInt8(ascii: "."), !sawPoint, integerDigits > 0 {
                sawPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            digits += 1
            if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
            guard digits <= maximumDigits else { return nil }
            chunk = chunk * 10 + UInt64(byte - UInt8(ascii: "0"))
            chunkDigits += 1
            if chunkDigits == 19 {
                significand = significand * Decimal(sign: .plus, exponent: 19, significand: 1) + Decimal(chunk)
                (chunk, chunkDigits) = (0, 0)
            }
        }
        guard integerDigits > 0, !sawPoint || fractionDigits > 0 else { return nil }
        if digits < 19 {
            significand = Decimal(chunk)
        } else if chunkDigits > 0 {
            significand = significand * Decimal(sign: .plus, exponent: chunkDigits, significand: 1) + Decimal(chunk)
        }
        // A zero keeps no sign: Decimal's negative zero is its NaN.
        let sign: FloatingPointSign = isNegative && !significand.isZero ? .minus : .plus
        return Decimal(sign: sign, exponent: -fractionDigits, significand: significand)
    }

    /// The value in plain decimal notation, as `value(of:)` reads it back.
    static func text(of value: Decimal) -> String {
        value.description
    }

    /// The error for a string that is not an exact decimal.
    static func invalid(_ text: String) -> String {
        "\"\(text)\" is not an exact decimal in plain notation (such as \"0.15\") of at most \(maximumDigits) digits"
    }
}

extension KeyedDecodingContainer {
    /// An exact decimal written as a string (see `ExactDecimal`); `invalid_value` at the key where it is not one.
    func decodeDecimalStringIfPresent(forKey key: Key) throws -> Decimal? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let value = ExactDecimal.value(of: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(PayloadDecodingError.Code.invalidValue): \(ExactDecimal.invalid(text))")
        }
        return value
    }
}

extension KeyedEncodingContainer {
    /// Writes an exact decimal as the string `ExactDecimal` reads.
    mutating func encodeDecimalStringIfPresent(_ value: Decimal?, forKey key: Key) throws {
        guard let value else { return }
        try encode(ExactDecimal.text(of: value), forKey: key)
    }
}

extension FastJSONReader {
    /// An exact decimal written as a string, as `decodeDecimalStringIfPresent` reads it.
    mutating func readDecimalString() throws(PayloadDecodingError) -> Decimal? {
        guard let text = try readString() else { return nil }
        guard let value = ExactDecimal.value(of: text) else {
            throw PayloadDecodingError(code: .invalidValue, path: "", message: ExactDecimal.invalid(text))
        }
        return value
    }
}
