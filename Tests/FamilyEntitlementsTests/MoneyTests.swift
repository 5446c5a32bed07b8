import FamilyEntitlements
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Exact App Store money: milliunits, ISO 4217 exponents, formatting and refusals, as decision tables.
struct MoneyTests {
    /// What one money operation gave: a value, or the code it was refused with.
    enum Outcome<Value: Equatable & Sendable>: Equatable, Sendable {
        case value(Value)
        case refused(MoneyError.Code)
    }

    /// Runs a throwing money operation and captures its value or its refusal code.
    static func outcome<Value>(_ body: () throws(MoneyError) -> Value) -> Outcome<Value> {
        do {
            return .value(try body())
        } catch {
            return .refused(error.code)
        }
    }

    // MARK: - Apple's examples

    struct AppleExampleCase: CustomTestStringConvertible, Sendable {
        var money: Money
        var minorUnits: Int64
        var formatted: String
        var testDescription: String

        static let all: [AppleExampleCase] = [
            .init(
                money: Money(milliunits: 1990, currency: "USD"),
                minorUnits: 199,
                formatted: "1.99",
                testDescription: "Apple: USD 1990 milliunits -> 1.99 dollars, 199 cents"
            ),
            .init(
                money: Money(milliunits: 3_300_000, currency: "KRW"),
                minorUnits: 3300,
                formatted: "3300",
                testDescription: "Apple: KRW 3300000 milliunits -> 3300 won (0-decimal)"
            ),
            .init(
                money: Money(milliunits: 300_000, currency: "JPY"),
                minorUnits: 300,
                formatted: "300",
                testDescription: "Apple: JPY 300000 milliunits -> 300 yen (0-decimal)"
            ),
        ]
    }

    @Test(arguments: AppleExampleCase.all)
    func appleExamplesHold(_ row: AppleExampleCase) throws {
        #expect(try row.money.minorUnits() == row.minorUnits)
        #expect(try row.money.formattedAmount() == row.formatted)
        #expect(row.money.decimalAmount == Decimal(string: row.formatted))
        #expect(try Money(minorUnits: row.minorUnits, currency: row.money.currency) == row.money)
    }

    // MARK: - Conversions by exponent

    struct ConversionCase: CustomTestStringConvertible, Sendable {
        var money: Money
        var minorUnits: Outcome<Int64>
        var formatted: Outcome<String>
        /// The exact major-unit amount, as decimal text.
        var decimal: String
        var testDescription: String

        init(
            _ testDescription: String,
            _ currency: CurrencyCode,
            _ milliunits: Int64,
            minorUnits: Outcome<Int64>,
            formatted: Outcome<String>,
            decimal: String
        ) {
            self.money = Money(milliunits: milliunits, currency: currency)
            self.minorUnits = minorUnits
            self.formatted = formatted
            self.decimal = decimal
            self.testDescription = testDescription
        }

        static let all: [ConversionCase] = [
            // 0-decimal
            .init(
                "JPY 500000 milliunits -> 500 (0-decimal)", "JPY", 500_000,
                minorUnits: .value(500), formatted: .value("500"), decimal: "500"
            ),
            .init(
                "ISK 1000 milliunits -> 1 (0-decimal)", "ISK", 1000,
                minorUnits: .value(1), formatted: .value("1"), decimal: "1"
            ),
            // 2-decimal
            .init(
                "USD 1990 milliunits -> 1.99 (2-decimal)", "USD", 1990,
                minorUnits: .value(199), formatted: .value("1.99"), decimal: "1.99"
            ),
            .init(
                "HUF 1000 milliunits -> 1.00 (2-decimal in ISO)", "HUF", 1000,
                minorUnits: .value(100), formatted: .value("1.00"), decimal: "1"
            ),
            .init(
                "USD 10 milliunits -> 0.01 (one cent)", "USD", 10,
                minorUnits: .value(1), formatted: .value("0.01"), decimal: "0.01"
            ),
            .init(
                "USD 0 milliunits -> 0.00", "USD", 0,
                minorUnits: .value(0), formatted: .value("0.00"), decimal: "0"
            ),
            // 3-decimal
            .init(
                "KWD 2990 milliunits -> 2.990 (3-decimal)", "KWD", 2990,
                minorUnits: .value(2990), formatted: .value("2.990"), decimal: "2.99"
            ),
            .init(
                "BHD 5 milliunits -> 0.005 (3-decimal, one fils)", "BHD", 5,
                minorUnits: .value(5), formatted: .value("0.005"), decimal: "0.005"
            ),
            // 4-decimal
            .init(
                "CLF 1234 milliunits -> 1.2340 (4-decimal)", "CLF", 1234,
                minorUnits: .value(12340), formatted: .value("1.2340"), decimal: "1.234"
            ),
            .init(
                "UYW 1 milliunit -> 0.0010 (4-decimal)", "UYW", 1,
                minorUnits: .value(10), formatted: .value("0.0010"), decimal: "0.001"
            ),
            // negative
            .init(
                "USD -1990 milliunits -> -1.99 (negative)", "USD", -1990,
                minorUnits: .value(-199), formatted: .value("-1.99"), decimal: "-1.99"
            ),
            .init(
                "USD -10 milliunits -> -0.01 (negative below one unit keeps its sign)", "USD", -10,
                minorUnits: .value(-1), formatted: .value("-0.01"), decimal: "-0.01"
            ),
            .init(
                "JPY -300000 milliunits -> -300 (negative, 0-decimal)", "JPY", -300_000,
                minorUnits: .value(-300), formatted: .value("-300"), decimal: "-300"
            ),
            .init(
                "KWD -5 milliunits -> -0.005 (negative, 3-decimal)", "KWD", -5,
                minorUnits: .value(-5), formatted: .value("-0.005"), decimal: "-0.005"
            ),
            .init(
                "CLF -1 milliunit -> -0.0010 (negative, 4-decimal)", "CLF", -1,
                minorUnits: .value(-10), formatted: .value("-0.0010"), decimal: "-0.001"
            ),
            // not whole minor units
            .init(
                "JPY 300500 milliunits is 300.5 yen -> refused, not whole minor units", "JPY", 300_500,
                minorUnits: .refused(.notWholeMinorUnits), formatted: .refused(.notWholeMinorUnits), decimal: "300.5"
            ),
            .init(
                "USD 1995 milliunits is 1.995 dollars -> refused, not whole cents", "USD", 1995,
                minorUnits: .refused(.notWholeMinorUnits), formatted: .refused(.notWholeMinorUnits), decimal: "1.995"
            ),
            .init(
                "KRW 3300001 milliunits -> refused, not whole won", "KRW", 3_300_001,
                minorUnits: .refused(.notWholeMinorUnits), formatted: .refused(.notWholeMinorUnits),
                decimal: "3300.001"
            ),
            .init(
                "USD -1995 milliunits -> refused, not whole cents (negative)", "USD", -1995,
                minorUnits: .refused(.notWholeMinorUnits), formatted: .refused(.notWholeMinorUnits), decimal: "-1.995"
            ),
            // unknown currency
            .init(
                "ZZZ 1990 milliunits -> refused, code not in the ISO table", "ZZZ", 1990,
                minorUnits: .refused(.unknownCurrency), formatted: .refused(.unknownCurrency), decimal: "1.99"
            ),
            .init(
                "XAU 1000 milliunits -> refused, ISO gives N.A. for gold", "XAU", 1000,
                minorUnits: .refused(.unknownCurrency), formatted: .refused(.unknownCurrency), decimal: "1"
            ),
            .init(
                "usd (lowercase) 1990 milliunits -> refused, lookup is case-sensitive", "usd", 1990,
                minorUnits: .refused(.unknownCurrency), formatted: .refused(.unknownCurrency), decimal: "1.99"
            ),
            // Int64 extremes
            .init(
                "KWD Int64.max milliunits -> 9223372036854775.807 without trapping", "KWD", .max,
                minorUnits: .value(.max), formatted: .value("9223372036854775.807"), decimal: "9223372036854775.807"
            ),
            .init(
                "KWD Int64.min milliunits -> -9223372036854775.808 without trapping", "KWD", .min,
                minorUnits: .value(.min), formatted: .value("-9223372036854775.808"),
                decimal: "-9223372036854775.808"
            ),
            .init(
                "USD Int64.max milliunits -> refused (sub-cent digits), no trap", "USD", .max,
                minorUnits: .refused(.notWholeMinorUnits), formatted: .refused(.notWholeMinorUnits),
                decimal: "9223372036854775.807"
            ),
            .init(
                "JPY Int64.min milliunits -> refused (sub-yen digits), no trap", "JPY", .min,
                minorUnits: .refused(.notWholeMinorUnits), formatted: .refused(.notWholeMinorUnits),
                decimal: "-9223372036854775.808"
            ),
            .init(
                "USD Int64.max - 7 milliunits -> 9223372036854775.80, the largest whole-cent amount", "USD",
                .max - 7,
                minorUnits: .value(922_337_203_685_477_580), formatted: .value("9223372036854775.80"),
                decimal: "9223372036854775.8"
            ),
            .init(
                "USD Int64.min + 8 milliunits -> -9223372036854775.80, the smallest whole-cent amount", "USD",
                .min + 8,
                minorUnits: .value(-922_337_203_685_477_580), formatted: .value("-9223372036854775.80"),
                decimal: "-9223372036854775.8"
            ),
            .init(
                "CLF Int64.max milliunits -> minor units overflow (x10), formatting still exact", "CLF", .max,
                minorUnits: .refused(.overflow), formatted: .value("9223372036854775.8070"),
                decimal: "9223372036854775.807"
            ),
            .init(
                "CLF Int64.min milliunits -> minor units overflow (x10), formatting still exact", "CLF", .min,
                minorUnits: .refused(.overflow), formatted: .value("-9223372036854775.8080"),
                decimal: "-9223372036854775.808"
            ),
        ]
    }

    @Test(arguments: ConversionCase.all)
    func minorUnits(_ row: ConversionCase) {
        #expect(Self.outcome { () throws(MoneyError) in try row.money.minorUnits() } == row.minorUnits)
        if case .value(let expected) = row.minorUnits {
            #expect(row.money.exactMinorUnits == expected)
        } else {
            #expect(row.money.exactMinorUnits == nil)
        }
    }

    @Test(arguments: ConversionCase.all)
    func formattedAmount(_ row: ConversionCase) {
        #expect(Self.outcome { () throws(MoneyError) in try row.money.formattedAmount() } == row.formatted)
    }

    @Test(arguments: ConversionCase.all)
    func decimalAmount(_ row: ConversionCase) throws {
        let expected = try #require(Decimal(string: row.decimal))
        #expect(row.money.decimalAmount == expected)
    }

    // MARK: - Fixed fraction digits

    struct FractionDigitsCase: CustomTestStringConvertible, Sendable {
        var money: Money
        var fractionDigits: Int
        var expected: Outcome<String>
        var testDescription: String

        static let all: [FractionDigitsCase] = [
            .init(
                money: Money(milliunits: 1990, currency: "ZZZ"), fractionDigits: 2, expected: .value("1.99"),
                testDescription: "unknown ZZZ 1990 milliunits with 2 digits -> 1.99"
            ),
            .init(
                money: Money(milliunits: 1990, currency: "ZZZ"), fractionDigits: 3, expected: .value("1.990"),
                testDescription: "unknown ZZZ 1990 milliunits with 3 digits -> 1.990"
            ),
            .init(
                money: Money(milliunits: 1000, currency: "ZZZ"), fractionDigits: 0, expected: .value("1"),
                testDescription: "unknown ZZZ 1000 milliunits with 0 digits -> 1"
            ),
            .init(
                money: Money(milliunits: 1900, currency: "ZZZ"), fractionDigits: 1, expected: .value("1.9"),
                testDescription: "unknown ZZZ 1900 milliunits with 1 digit -> 1.9"
            ),
            .init(
                money: Money(milliunits: 1990, currency: "ZZZ"), fractionDigits: 1,
                expected: .refused(.notWholeMinorUnits),
                testDescription: "unknown ZZZ 1990 milliunits with 1 digit -> refused, would drop the 9"
            ),
            .init(
                money: Money(milliunits: 1995, currency: "ZZZ"), fractionDigits: 2,
                expected: .refused(.notWholeMinorUnits),
                testDescription: "unknown ZZZ 1995 milliunits with 2 digits -> refused, would drop the 5"
            ),
            .init(
                money: Money(milliunits: -1, currency: "ZZZ"), fractionDigits: 3, expected: .value("-0.001"),
                testDescription: "unknown ZZZ -1 milliunit with 3 digits -> -0.001"
            ),
            .init(
                money: Money(milliunits: 1990, currency: "USD"), fractionDigits: 5, expected: .value("1.99000"),
                testDescription: "USD 1990 milliunits with 5 digits -> 1.99000 (padded)"
            ),
            .init(
                money: Money(milliunits: .min, currency: "XAU"), fractionDigits: 3,
                expected: .value("-9223372036854775.808"),
                testDescription: "N.A. XAU Int64.min milliunits with 3 digits -> -9223372036854775.808, no trap"
            ),
            .init(
                money: Money(milliunits: .max, currency: "ZZZ"), fractionDigits: 3,
                expected: .value("9223372036854775.807"),
                testDescription: "unknown ZZZ Int64.max milliunits with 3 digits -> 9223372036854775.807, no trap"
            ),
            .init(
                money: Money(milliunits: .max, currency: "ZZZ"), fractionDigits: 0,
                expected: .refused(.notWholeMinorUnits),
                testDescription: "unknown ZZZ Int64.max milliunits with 0 digits -> refused, no trap"
            ),
        ]
    }

    @Test(arguments: FractionDigitsCase.all)
    func formattedAmountWithFractionDigits(_ row: FractionDigitsCase) {
        let result = Self.outcome { () throws(MoneyError) in
            try row.money.formattedAmount(fractionDigits: row.fractionDigits)
        }
        #expect(result == row.expected)
    }

    // MARK: - From minor units

    struct MinorUnitsInitCase: CustomTestStringConvertible, Sendable {
        var minorUnits: Int64
        var currency: CurrencyCode
        var expectedMilliunits: Outcome<Int64>
        var testDescription: String

        static let all: [MinorUnitsInitCase] = [
            .init(
                minorUnits: 199, currency: "USD", expectedMilliunits: .value(1990),
                testDescription: "USD 199 cents -> 1990 milliunits"
            ),
            .init(
                minorUnits: 300, currency: "JPY", expectedMilliunits: .value(300_000),
                testDescription: "JPY 300 yen -> 300000 milliunits"
            ),
            .init(
                minorUnits: 2990, currency: "KWD", expectedMilliunits: .value(2990),
                testDescription: "KWD 2990 fils -> 2990 milliunits"
            ),
            .init(
                minorUnits: 12340, currency: "CLF", expectedMilliunits: .value(1234),
                testDescription: "CLF 12340 ten-thousandths -> 1234 milliunits"
            ),
            .init(
                minorUnits: -12340, currency: "CLF", expectedMilliunits: .value(-1234),
                testDescription: "CLF -12340 ten-thousandths -> -1234 milliunits"
            ),
            .init(
                minorUnits: 12345, currency: "CLF", expectedMilliunits: .refused(.notWholeMilliunits),
                testDescription: "CLF 12345 ten-thousandths -> refused, finer than a milliunit"
            ),
            .init(
                minorUnits: -199, currency: "USD", expectedMilliunits: .value(-1990),
                testDescription: "USD -199 cents -> -1990 milliunits"
            ),
            .init(
                minorUnits: .max, currency: "JPY", expectedMilliunits: .refused(.overflow),
                testDescription: "JPY Int64.max yen -> refused, x1000 overflows"
            ),
            .init(
                minorUnits: .min, currency: "USD", expectedMilliunits: .refused(.overflow),
                testDescription: "USD Int64.min cents -> refused, x10 overflows"
            ),
            .init(
                minorUnits: .min, currency: "KWD", expectedMilliunits: .value(.min),
                testDescription: "KWD Int64.min fils -> Int64.min milliunits (x1)"
            ),
            .init(
                minorUnits: 100, currency: "ZZZ", expectedMilliunits: .refused(.unknownCurrency),
                testDescription: "ZZZ 100 minor units -> refused, unknown exponent"
            ),
            .init(
                minorUnits: 100, currency: "XAU", expectedMilliunits: .refused(.unknownCurrency),
                testDescription: "XAU 100 minor units -> refused, ISO gives N.A."
            ),
        ]
    }

    @Test(arguments: MinorUnitsInitCase.all)
    func initFromMinorUnits(_ row: MinorUnitsInitCase) {
        let result = Self.outcome { () throws(MoneyError) in
            try Money(minorUnits: row.minorUnits, currency: row.currency)
        }
        switch row.expectedMilliunits {
        case .value(let milliunits):
            #expect(result == .value(Money(milliunits: milliunits, currency: row.currency)))
            if case .value(let money) = result {
                #expect(money.exactMinorUnits == row.minorUnits, "converting back gives the same minor units")
            }
        case .refused(let code):
            #expect(result == .refused(code))
        }
    }

    // MARK: - Arithmetic

    enum Operation: Sendable, CustomStringConvertible {
        case add(Money)
        case subtract(Money)
        case multiply(Int64)
        case negate

        func apply(to money: Money) throws(MoneyError) -> Money {
            switch self {
            case .add(let other): try money.adding(other)
            case .subtract(let other): try money.subtracting(other)
            case .multiply(let factor): try money.multiplied(by: factor)
            case .negate: try money.negated()
            }
        }

        var description: String {
            switch self {
            case .add(let other): "+ \(other.currency) \(other.milliunits)"
            case .subtract(let other): "- \(other.currency) \(other.milliunits)"
            case .multiply(let factor): "x \(factor)"
            case .negate: "negated"
            }
        }
    }

    struct ArithmeticCase: CustomTestStringConvertible, Sendable {
        var money: Money
        var operation: Operation
        var expected: Outcome<Money>
        var testDescription: String

        init(_ testDescription: String, _ money: Money, _ operation: Operation, _ expected: Outcome<Money>) {
            self.money = money
            self.operation = operation
            self.expected = expected
            self.testDescription = testDescription
        }

        static func usd(_ milliunits: Int64) -> Money {
            Money(milliunits: milliunits, currency: "USD")
        }

        static let all: [ArithmeticCase] = [
            .init("USD 1990 + USD 10 -> USD 2000", usd(1990), .add(usd(10)), .value(usd(2000))),
            .init("USD 1990 - USD 2000 -> USD -10", usd(1990), .subtract(usd(2000)), .value(usd(-10))),
            .init("USD 1990 x 3 -> USD 5970 (quantity 3)", usd(1990), .multiply(3), .value(usd(5970))),
            .init("USD 1990 x -1 -> USD -1990", usd(1990), .multiply(-1), .value(usd(-1990))),
            .init("USD 1990 negated -> USD -1990", usd(1990), .negate, .value(usd(-1990))),
            .init("USD Int64.max negated -> USD -Int64.max", usd(.max), .negate, .value(usd(-Int64.max))),
            .init("USD Int64.max + USD 1 -> refused, overflow", usd(.max), .add(usd(1)), .refused(.overflow)),
            .init("USD Int64.min + USD -1 -> refused, overflow", usd(.min), .add(usd(-1)), .refused(.overflow)),
            .init("USD Int64.min - USD 1 -> refused, overflow", usd(.min), .subtract(usd(1)), .refused(.overflow)),
            .init(
                "USD Int64.max - USD -1 -> refused, overflow", usd(.max), .subtract(usd(-1)), .refused(.overflow)
            ),
            .init("USD Int64.max x 2 -> refused, overflow", usd(.max), .multiply(2), .refused(.overflow)),
            .init("USD Int64.min x -1 -> refused, overflow", usd(.min), .multiply(-1), .refused(.overflow)),
            .init("USD -1 x Int64.min -> refused, overflow", usd(-1), .multiply(.min), .refused(.overflow)),
            .init("USD Int64.min negated -> refused, overflow", usd(.min), .negate, .refused(.overflow)),
            .init(
                "USD 1990 + KWD 2990 -> refused, currency mismatch", usd(1990),
                .add(Money(milliunits: 2990, currency: "KWD")), .refused(.currencyMismatch)
            ),
            .init(
                "USD 1990 - EUR 1990 -> refused, currency mismatch", usd(1990),
                .subtract(Money(milliunits: 1990, currency: "EUR")), .refused(.currencyMismatch)
            ),
            .init(
                "USD 1990 + usd 10 -> refused, codes compare exactly", usd(1990),
                .add(Money(milliunits: 10, currency: "usd")), .refused(.currencyMismatch)
            ),
            .init(
                "USD Int64.max + EUR 1 -> refused as currency mismatch before overflow", usd(.max),
                .add(Money(milliunits: 1, currency: "EUR")), .refused(.currencyMismatch)
            ),
            .init(
                "unknown ZZZ 5 + ZZZ 5 -> ZZZ 10 (arithmetic needs no exponent)",
                Money(milliunits: 5, currency: "ZZZ"), .add(Money(milliunits: 5, currency: "ZZZ")),
                .value(Money(milliunits: 10, currency: "ZZZ"))
            ),
        ]
    }

    @Test(arguments: ArithmeticCase.all)
    func arithmetic(_ row: ArithmeticCase) {
        #expect(Self.outcome { () throws(MoneyError) in try row.operation.apply(to: row.money) } == row.expected)
    }

    struct SumCase: CustomTestStringConvertible, Sendable {
        var values: [Money]
        var expected: Outcome<Money?>
        var testDescription: String

        static let all: [SumCase] = [
            .init(values: [], expected: .value(nil), testDescription: "sum of nothing -> nil"),
            .init(
                values: [Money(milliunits: 1990, currency: "USD")],
                expected: .value(Money(milliunits: 1990, currency: "USD")),
                testDescription: "sum of USD 1990 alone -> USD 1990"
            ),
            .init(
                values: [
                    Money(milliunits: 1990, currency: "USD"), Money(milliunits: 10, currency: "USD"),
                    Money(milliunits: -500, currency: "USD"),
                ],
                expected: .value(Money(milliunits: 1500, currency: "USD")),
                testDescription: "sum of USD 1990, 10, -500 -> USD 1500"
            ),
            .init(
                values: [Money(milliunits: 1990, currency: "USD"), Money(milliunits: 2990, currency: "KWD")],
                expected: .refused(.currencyMismatch),
                testDescription: "sum of USD 1990 and KWD 2990 -> refused, currency mismatch"
            ),
            .init(
                values: [
                    Money(milliunits: .max, currency: "USD"), Money(milliunits: 1, currency: "USD"),
                    Money(milliunits: -1, currency: "USD"),
                ],
                expected: .refused(.overflow),
                testDescription: "sum of USD Int64.max, 1, -1 -> refused, running total overflows"
            ),
        ]
    }

    @Test(arguments: SumCase.all)
    func sum(_ row: SumCase) {
        #expect(Self.outcome { () throws(MoneyError) in try Money.sum(row.values) } == row.expected)
    }

    // MARK: - Error messages

    struct MessageCase: CustomTestStringConvertible, Sendable {
        var run: @Sendable () throws(MoneyError) -> Void
        var code: MoneyError.Code
        var expectedText: String
        var testDescription: String

        static let all: [MessageCase] = [
            .init(
                run: { () throws(MoneyError) in
                    _ = try Money(milliunits: 1990, currency: "USD").adding(Money(milliunits: 2990, currency: "KWD"))
                },
                code: .currencyMismatch,
                expectedText: "cannot add KWD to USD",
                testDescription: "USD + KWD says: cannot add KWD to USD"
            ),
            .init(
                run: { () throws(MoneyError) in _ = try Money(milliunits: 300_500, currency: "JPY").minorUnits() },
                code: .notWholeMinorUnits,
                expectedText: "JPY 300500 milliunits is 300.5 JPY, not a whole number of minor units",
                testDescription: "JPY 300500 says: is 300.5 JPY, not a whole number of minor units"
            ),
            .init(
                run: { () throws(MoneyError) in _ = try Money(milliunits: 1990, currency: "ZZZ").formattedAmount() },
                code: .unknownCurrency,
                expectedText: "\"ZZZ\" is not an active ISO 4217 code",
                testDescription: "ZZZ says: not an active ISO 4217 code"
            ),
            .init(
                run: { () throws(MoneyError) in _ = try Money(milliunits: 1000, currency: "XAU").minorUnits() },
                code: .unknownCurrency,
                expectedText: "XAU has no minor unit in ISO 4217",
                testDescription: "XAU says: has no minor unit in ISO 4217"
            ),
            .init(
                run: { () throws(MoneyError) in
                    _ = try Money(milliunits: .max, currency: "USD").adding(Money(milliunits: 1, currency: "USD"))
                },
                code: .overflow,
                expectedText: "adding USD 1 milliunits to USD 9223372036854775807 milliunits overflows",
                testDescription: "USD Int64.max + 1 says which amounts overflowed"
            ),
        ]
    }

    @Test(arguments: MessageCase.all)
    func errorMessageSaysWhatWasWrong(_ row: MessageCase) {
        do {
            try row.run()
            Issue.record("expected a refusal with code \(row.code)")
        } catch {
            #expect(error.code == row.code)
            #expect(error.message.contains(row.expectedText), "message was: \(error.message)")
            #expect(error.description.contains(row.expectedText))
        }
    }

    // MARK: - The ISO 4217 table

    struct TableCase: CustomTestStringConvertible, Sendable {
        var code: CurrencyCode
        var exponent: Int?
        var isKnown: Bool
        var testDescription: String

        static let all: [TableCase] = [
            .init(code: "USD", exponent: 2, isKnown: true, testDescription: "USD: 2 decimals"),
            .init(code: "EUR", exponent: 2, isKnown: true, testDescription: "EUR: 2 decimals"),
            .init(code: "HUF", exponent: 2, isKnown: true, testDescription: "HUF: 2 decimals in ISO (not 0)"),
            .init(code: "TWD", exponent: 2, isKnown: true, testDescription: "TWD: 2 decimals in ISO (not 0)"),
            .init(code: "IDR", exponent: 2, isKnown: true, testDescription: "IDR: 2 decimals in ISO (not 0)"),
            .init(code: "JPY", exponent: 0, isKnown: true, testDescription: "JPY: 0 decimals"),
            .init(code: "KRW", exponent: 0, isKnown: true, testDescription: "KRW: 0 decimals"),
            .init(code: "CLP", exponent: 0, isKnown: true, testDescription: "CLP: 0 decimals"),
            .init(code: "VND", exponent: 0, isKnown: true, testDescription: "VND: 0 decimals"),
            .init(code: "ISK", exponent: 0, isKnown: true, testDescription: "ISK: 0 decimals"),
            .init(code: "UGX", exponent: 0, isKnown: true, testDescription: "UGX: 0 decimals"),
            .init(code: "XAF", exponent: 0, isKnown: true, testDescription: "XAF: 0 decimals"),
            .init(code: "XOF", exponent: 0, isKnown: true, testDescription: "XOF: 0 decimals"),
            .init(code: "BHD", exponent: 3, isKnown: true, testDescription: "BHD: 3 decimals"),
            .init(code: "IQD", exponent: 3, isKnown: true, testDescription: "IQD: 3 decimals"),
            .init(code: "JOD", exponent: 3, isKnown: true, testDescription: "JOD: 3 decimals"),
            .init(code: "KWD", exponent: 3, isKnown: true, testDescription: "KWD: 3 decimals"),
            .init(code: "LYD", exponent: 3, isKnown: true, testDescription: "LYD: 3 decimals"),
            .init(code: "OMR", exponent: 3, isKnown: true, testDescription: "OMR: 3 decimals"),
            .init(code: "TND", exponent: 3, isKnown: true, testDescription: "TND: 3 decimals"),
            .init(code: "CLF", exponent: 4, isKnown: true, testDescription: "CLF: 4 decimals"),
            .init(code: "UYW", exponent: 4, isKnown: true, testDescription: "UYW: 4 decimals"),
            .init(code: "XCG", exponent: 2, isKnown: true, testDescription: "XCG (Caribbean guilder, replaced ANG): 2"),
            .init(code: "XAU", exponent: nil, isKnown: true, testDescription: "XAU gold: N.A. -> no exponent, known"),
            .init(code: "XAG", exponent: nil, isKnown: true, testDescription: "XAG silver: N.A. -> no exponent, known"),
            .init(code: "XDR", exponent: nil, isKnown: true, testDescription: "XDR SDR: N.A. -> no exponent, known"),
            .init(code: "XTS", exponent: nil, isKnown: true, testDescription: "XTS test code: N.A., known"),
            .init(code: "XXX", exponent: nil, isKnown: true, testDescription: "XXX no currency: N.A., known"),
            .init(code: "usd", exponent: nil, isKnown: false, testDescription: "usd lowercase: unknown"),
            .init(code: "ZZZ", exponent: nil, isKnown: false, testDescription: "ZZZ: unknown"),
            .init(code: "", exponent: nil, isKnown: false, testDescription: "empty code: unknown"),
            .init(
                code: "BGN", exponent: nil, isKnown: false,
                testDescription: "BGN: withdrawn before the 2026-01-01 list -> unknown"
            ),
        ]
    }

    @Test(arguments: TableCase.all)
    func isoTable(_ row: TableCase) {
        #expect(row.code.minorUnitExponent == row.exponent)
        #expect(row.code.isKnown == row.isKnown)
    }

    // MARK: - Coding

    struct CodingCase: CustomTestStringConvertible, Sendable {
        var money: Money
        var json: String
        var isKnown: Bool
        var testDescription: String

        static let all: [CodingCase] = [
            .init(
                money: Money(milliunits: 1990, currency: "USD"), json: #"{"currency":"USD","milliunits":1990}"#,
                isKnown: true, testDescription: "USD 1990 <-> {\"currency\":\"USD\",\"milliunits\":1990}"
            ),
            .init(
                money: Money(milliunits: 1990, currency: "ZZZ"), json: #"{"currency":"ZZZ","milliunits":1990}"#,
                isKnown: false, testDescription: "unknown ZZZ round-trips unchanged"
            ),
            .init(
                money: Money(milliunits: -5, currency: "usd"), json: #"{"currency":"usd","milliunits":-5}"#,
                isKnown: false, testDescription: "lowercase usd round-trips unchanged, not uppercased"
            ),
            .init(
                money: Money(milliunits: .min, currency: "BGN"),
                json: #"{"currency":"BGN","milliunits":-9223372036854775808}"#,
                isKnown: false, testDescription: "withdrawn BGN with Int64.min round-trips unchanged"
            ),
        ]
    }

    @Test(arguments: CodingCase.all)
    func codingRoundTrip(_ row: CodingCase) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(row.money)
        #expect(String(decoding: encoded, as: UTF8.self) == row.json)

        let decoded = try JSONDecoder().decode(Money.self, from: Data(row.json.utf8))
        #expect(decoded == row.money)
        #expect(decoded.currency.isKnown == row.isKnown)

        let code = try encoder.encode(row.money.currency)
        #expect(String(decoding: code, as: UTF8.self) == "\"\(row.money.currency.rawValue)\"")
        #expect(try JSONDecoder().decode(CurrencyCode.self, from: code) == row.money.currency)
    }
}
