/// Why a money conversion, formatting or arithmetic operation was refused.
///
/// Money operations never trap and never round: where the exact result cannot be produced they throw
/// this error, with a `code` to branch on and a `message` that names the amounts and currencies involved.
public struct MoneyError: Error, CodedProblem {
    /// The kind of refusal; an open set, so new codes can be added without breaking callers.
    public struct Code: OpenCode {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Two amounts in different currencies were combined.
        public static let currencyMismatch = Code(rawValue: "currency_mismatch")
        /// The exact result does not fit in an `Int64`.
        public static let overflow = Code(rawValue: "overflow")
        /// The currency has no ISO 4217 exponent: the code is not in the table, or ISO 4217 gives "N.A.".
        public static let unknownCurrency = Code(rawValue: "unknown_currency")
        /// The amount has more precision than the currency's minor unit (or the requested fraction digits).
        public static let notWholeMinorUnits = Code(rawValue: "not_whole_minor_units")
        /// A minor-unit amount (of a 4-decimal currency such as CLF) is finer than one milliunit.
        public static let notWholeMilliunits = Code(rawValue: "not_whole_milliunits")
    }

    /// The kind of refusal.
    public var code: Code
    /// What was wrong, in words, naming the amounts and currencies: "cannot add KWD to USD".
    public var message: String

    /// Creates an error with a code and a message.
    public init(code: Code, message: String) {
        (self.code, self.message) = (code, message)
    }
}
