#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An exact decimal that Apple writes as a JSON string, such as Advanced Commerce's `taxRate` (`"0.15"`): read digit
/// for digit into a `Decimal`, never through a `Double`, where 0.15 has no exact value.
///
/// The form read is plain decimal notation: an optional minus sign, digits, and optionally a point followed by digits
/// (`0.15`, `7`, `-0.5`), with at most 38 digits in all, which `Decimal` holds exactly. Anything else (an exponent, a
/// percent sign, white space, a comma) is `invalid_value` at the field, since a rate read wrong is money computed
/// wrong. The value is kept, not its spelling: `0.150` is written back as `0.15`.
enum ExactDecimal {
    /// The most digits a value may have: what `Decimal`'s mantissa holds exactly.
    static let maximumDigits = 38

    /// The value of `text`, or nil where it is not a plain decimal of at most `maximumDigits` digits.
    static func value(of text: String) -> Decimal? {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let isNegative = bytes.first == UInt8(ascii: "-")
        let start = isNegative ? 1 : 0
        let point = bytes[start...].firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        let integer = bytes[start..<point]
        let fraction = point < bytes.endIndex ? bytes[(point + 1)...] : []
        guard !integer.isEmpty, integer.allSatisfy(isDigit), point == bytes.endIndex || !fraction.isEmpty,
            fraction.allSatisfy(isDigit), integer.count + fraction.count <= maximumDigits
        else { return nil }
        var significand = Decimal(0)
        for digit in integer + fraction { significand = significand * 10 + Decimal(Int(digit - UInt8(ascii: "0"))) }
        // A zero keeps no sign: Decimal's negative zero is its NaN.
        let sign: FloatingPointSign = isNegative && !significand.isZero ? .minus : .plus
        return Decimal(sign: sign, exponent: -fraction.count, significand: significand)
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
