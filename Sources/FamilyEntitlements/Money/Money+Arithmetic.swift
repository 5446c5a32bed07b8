extension Money {
    /// The sum of two amounts in the same currency.
    ///
    /// Throws `.currencyMismatch` where the currencies differ (codes compare exactly, case included)
    /// and `.overflow` where the milliunits do not fit in `Int64`. Never traps.
    public func adding(_ other: Money) throws(MoneyError) -> Money {
        guard other.currency == currency else {
            throw MoneyError(
                code: .currencyMismatch,
                message:
                    "cannot add \(other.currency) to \(currency): \(other.label) and \(label) "
                    + "are in different currencies"
            )
        }
        let (result, overflow) = milliunits.addingReportingOverflow(other.milliunits)
        guard !overflow else {
            throw MoneyError(code: .overflow, message: "adding \(other.label) to \(label) overflows Int64 milliunits")
        }
        return Money(milliunits: result, currency: currency)
    }

    /// The difference of two amounts in the same currency: `self - other`.
    ///
    /// Throws `.currencyMismatch` where the currencies differ and `.overflow` where the milliunits do not
    /// fit in `Int64`. Never traps.
    public func subtracting(_ other: Money) throws(MoneyError) -> Money {
        guard other.currency == currency else {
            throw MoneyError(
                code: .currencyMismatch,
                message:
                    "cannot subtract \(other.currency) from \(currency): \(other.label) and \(label) "
                    + "are in different currencies"
            )
        }
        let (result, overflow) = milliunits.subtractingReportingOverflow(other.milliunits)
        guard !overflow else {
            throw MoneyError(
                code: .overflow,
                message: "subtracting \(other.label) from \(label) overflows Int64 milliunits"
            )
        }
        return Money(milliunits: result, currency: currency)
    }

    /// The amount multiplied by a whole factor, for instance a purchase quantity.
    ///
    /// Throws `.overflow` where the milliunits do not fit in `Int64`. Never traps.
    public func multiplied(by factor: Int64) throws(MoneyError) -> Money {
        let (result, overflow) = milliunits.multipliedReportingOverflow(by: factor)
        guard !overflow else {
            throw MoneyError(code: .overflow, message: "multiplying \(label) by \(factor) overflows Int64 milliunits")
        }
        return Money(milliunits: result, currency: currency)
    }

    /// The amount with its sign flipped.
    ///
    /// Throws `.overflow` for `Int64.min` milliunits, whose negation does not fit in `Int64`. Never traps.
    public func negated() throws(MoneyError) -> Money {
        let (result, overflow) = Int64(0).subtractingReportingOverflow(milliunits)
        guard !overflow else {
            throw MoneyError(code: .overflow, message: "negating \(label) overflows Int64 milliunits")
        }
        return Money(milliunits: result, currency: currency)
    }

    /// The total of a sequence of amounts in one currency, or `nil` for an empty sequence.
    ///
    /// Adds in sequence order and throws the first `.currencyMismatch` or `.overflow` met. An
    /// intermediate overflow is refused even where later values would bring the total back in range.
    public static func sum(_ values: some Sequence<Money>) throws(MoneyError) -> Money? {
        var total: Money?
        for value in values {
            if let running = total {
                total = try running.adding(value)
            } else {
                total = value
            }
        }
        return total
    }
}
