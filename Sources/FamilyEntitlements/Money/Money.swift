/// An exact App Store amount: an integer number of milliunits of a currency's major unit.
///
/// Mirrors Apple's `price` / `renewalPrice` (Int64 milliunits) with `currency` (ISO 4217 code):
/// 1000 milliunits are one major unit, so USD 1.99 is 1990, KRW 3300 is 3300000 and JPY 300 is 300000.
/// No operation goes through floating point; conversions that cannot be exact throw `MoneyError`.
public struct Money: Hashable, Sendable {
    /// The amount in thousandths of the currency's major unit, as Apple sends it in `price`.
    public var milliunits: Int64
    /// The currency of the amount, as Apple sends it in `currency`.
    public var currency: CurrencyCode

    /// Creates an amount from Apple's milliunits and currency code.
    public init(milliunits: Int64, currency: CurrencyCode) {
        self.milliunits = milliunits
        self.currency = currency
    }
}

extension Money: Codable {
    private enum CodingKeys: String, CodingKey {
        case currency
        case milliunits
    }

    /// Decodes `{"currency":"USD","milliunits":1990}`; any currency string is kept.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.currency = try container.decode(CurrencyCode.self, forKey: .currency)
        self.milliunits = try container.decode(Int64.self, forKey: .milliunits)
    }

    /// Encodes `{"currency":"USD","milliunits":1990}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(milliunits, forKey: .milliunits)
    }
}
