#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Money {
    /// Creates an amount from a whole number of the currency's minor units (cents for USD, yen for JPY).
    ///
    /// Exact: milliunits = minorUnits x 1000 / 10^exponent. Throws `.unknownCurrency` where the currency
    /// has no ISO 4217 exponent, `.overflow` where the milliunits do not fit in `Int64`, and
    /// `.notWholeMilliunits` where a 4-decimal amount (CLF, UYW) is finer than one milliunit.
    public init(minorUnits: Int64, currency: CurrencyCode) throws(MoneyError) {
        let label = "\(currency) \(minorUnits) minor units"
        guard let exponent = currency.minorUnitExponent else {
            throw Self.unknownCurrencyError(currency, subject: label, action: "converted to milliunits")
        }
        if exponent <= 3 {
            guard let factor = Self.powerOfTen(3 - exponent) else {
                throw MoneyError(code: .overflow, message: "\(label) cannot be converted to milliunits")
            }
            let (milliunits, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
            guard !overflow else {
                throw MoneyError(
                    code: .overflow,
                    message: "\(label) is more than Int64 milliunits can hold (\(factor) milliunits per minor unit)"
                )
            }
            self.init(milliunits: milliunits, currency: currency)
        } else {
            guard let divisor = Self.powerOfTen(exponent - 3) else {
                throw MoneyError(code: .overflow, message: "\(label) cannot be converted to milliunits")
            }
            guard minorUnits % divisor == 0 else {
                throw MoneyError(
                    code: .notWholeMilliunits,
                    message: "\(label) is finer than one milliunit (\(currency) has \(exponent) decimals, milliunits 3)"
                )
            }
            self.init(milliunits: minorUnits / divisor, currency: currency)
        }
    }

    /// The amount in whole minor units of the currency: 199 for USD 1990 milliunits, 300 for JPY 300000.
    ///
    /// Exact: milliunits x 10^exponent / 1000 with the ISO 4217 exponent, never through floating point.
    /// Throws `.unknownCurrency` where the currency has no exponent, `.notWholeMinorUnits` where the
    /// division is not exact (JPY 300500 milliunits is 300.5 yen), and `.overflow` where a 4-decimal
    /// amount does not fit in `Int64`.
    public func minorUnits() throws(MoneyError) -> Int64 {
        let exponent = try requireExponent(for: "converted to minor units")
        if exponent <= 3 {
            guard let divisor = Self.powerOfTen(3 - exponent) else {
                throw MoneyError(code: .overflow, message: "\(label) cannot be converted to minor units")
            }
            guard milliunits % divisor == 0 else {
                throw notWholeMinorUnitsError(exponent: exponent)
            }
            return milliunits / divisor
        }
        guard let factor = Self.powerOfTen(exponent - 3) else {
            throw MoneyError(code: .overflow, message: "\(label) cannot be converted to minor units")
        }
        let (minorUnits, overflow) = milliunits.multipliedReportingOverflow(by: factor)
        guard !overflow else {
            throw MoneyError(
                code: .overflow,
                message: "\(label) is more than Int64 can hold in minor units (\(currency) has \(exponent) decimals)"
            )
        }
        return minorUnits
    }

    /// The amount in whole minor units, or `nil` where `minorUnits()` throws.
    public var exactMinorUnits: Int64? {
        try? minorUnits()
    }

    /// The amount in major units as an exact `Decimal`: 1.99 for USD 1990 milliunits.
    ///
    /// Built from the integer milliunits with exponent -3, never through `Double`; every `Int64`
    /// (including `Int64.min`) is represented exactly. Independent of the currency's exponent.
    public var decimalAmount: Decimal {
        Decimal(
            sign: milliunits < 0 ? .minus : .plus,
            exponent: -3,
            significand: Decimal(milliunits.magnitude)
        )
    }
}

extension Money {
    /// "USD 1990 milliunits", for error messages.
    var label: String {
        "\(currency) \(milliunits) milliunits"
    }

    /// The currency's ISO 4217 exponent, or an `.unknownCurrency` error saying what could not be done.
    func requireExponent(for action: String) throws(MoneyError) -> Int {
        guard let exponent = currency.minorUnitExponent else {
            throw Self.unknownCurrencyError(currency, subject: label, action: action)
        }
        return exponent
    }

    /// The error for a currency without an ISO 4217 exponent, naming the amount and the refused action.
    static func unknownCurrencyError(_ currency: CurrencyCode, subject: String, action: String) -> MoneyError {
        let reason =
            currency.isKnown
            ? "\(currency) has no minor unit in ISO 4217 (\"N.A.\")"
            : "\"\(currency)\" is not an active ISO 4217 code in the library's table"
        return MoneyError(code: .unknownCurrency, message: "\(reason), so \(subject) cannot be \(action)")
    }

    /// The error for an amount finer than the currency's minor unit.
    func notWholeMinorUnitsError(exponent: Int) -> MoneyError {
        MoneyError(
            code: .notWholeMinorUnits,
            message: "\(label) is \(plainAmount) \(currency), not a whole number of minor units "
                + "(\(currency) has \(exponent) decimals)"
        )
    }

    /// 10^exponent, or `nil` where it is negative or does not fit in `Int64`.
    static func powerOfTen(_ exponent: Int) -> Int64? {
        guard exponent >= 0 else {
            return nil
        }
        var result: Int64 = 1
        for _ in 0..<exponent {
            let (next, overflow) = result.multipliedReportingOverflow(by: 10)
            if overflow {
                return nil
            }
            result = next
        }
        return result
    }
}
