extension Money {
    /// The amount as a plain decimal string with exactly the currency's ISO 4217 decimals.
    ///
    /// USD 1990 milliunits is "1.99", JPY 500000 is "500", KWD 2990 is "2.990", CLF 1234 is "1.2340",
    /// USD -1990 is "-1.99". No grouping separators, no symbol, no locale: a value for ledgers and logs.
    /// Throws `.unknownCurrency` where the currency has no exponent and `.notWholeMinorUnits` where the
    /// amount is finer than the currency's minor unit (USD 1995 milliunits). Never traps, even for
    /// `Int64.min` and `Int64.max`.
    public func formattedAmount() throws(MoneyError) -> String {
        let exponent = try requireExponent(for: "formatted with its currency's decimals")
        guard let text = Self.render(milliunits, fractionDigits: exponent) else {
            throw notWholeMinorUnitsError(exponent: exponent)
        }
        return text
    }

    /// The amount as a plain decimal string with the given number of fraction digits, whatever the currency.
    ///
    /// Meant for currencies without an ISO 4217 exponent: milliunits carry at most 3 decimals, so 3 always
    /// succeeds ("1.990" for 1990 milliunits) and more digits are padded with zeros. Throws
    /// `.notWholeMinorUnits` where the amount needs more digits than asked for (1995 milliunits with 2).
    /// A negative `fractionDigits` is a programmer error.
    public func formattedAmount(fractionDigits: Int) throws(MoneyError) -> String {
        precondition(fractionDigits >= 0, "fractionDigits must not be negative")
        guard let text = Self.render(milliunits, fractionDigits: fractionDigits) else {
            throw MoneyError(
                code: .notWholeMinorUnits,
                message: "\(label) is \(plainAmount) \(currency), which needs more than \(fractionDigits) "
                    + "fraction digits"
            )
        }
        return text
    }
}

extension Money {
    /// The amount in major units with trailing fraction zeros removed ("300.5"), for error messages.
    var plainAmount: String {
        var text = Self.render(milliunits, fractionDigits: 3) ?? label
        while text.hasSuffix("0"), text.contains(".") {
            text.removeLast()
        }
        if text.hasSuffix(".") {
            text.removeLast()
        }
        return text
    }

    /// Renders milliunits with `fractionDigits` decimals, or `nil` where that would drop non-zero digits.
    ///
    /// Works on the magnitude as `UInt64`, so `Int64.min` needs no negation.
    static func render(_ milliunits: Int64, fractionDigits: Int) -> String? {
        let magnitude = milliunits.magnitude
        let whole = String(magnitude / 1000)
        let thousandths = magnitude % 1000
        let sign = milliunits < 0 ? "-" : ""
        if fractionDigits >= 3 {
            let fraction = zeroPadded(thousandths, width: 3) + String(repeating: "0", count: fractionDigits - 3)
            return "\(sign)\(whole).\(fraction)"
        }
        var step: UInt64 = 1
        for _ in fractionDigits..<3 {
            step *= 10
        }
        guard thousandths % step == 0 else {
            return nil
        }
        guard fractionDigits > 0 else {
            return "\(sign)\(whole)"
        }
        return "\(sign)\(whole).\(zeroPadded(thousandths / step, width: fractionDigits))"
    }

    /// The decimal digits of `value`, left-padded with zeros to `width`.
    private static func zeroPadded(_ value: UInt64, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
