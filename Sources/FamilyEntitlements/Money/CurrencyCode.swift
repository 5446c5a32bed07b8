/// An ISO 4217 alphabetic currency code, as Apple sends it in `currency`.
///
/// The set is open: any string decodes, round-trips unchanged as a plain JSON string, and is kept even
/// when it is not in the library's ISO 4217 table, so an unexpected code can be reported instead of
/// failing the whole payload. Lookups in the table are case-sensitive; the App Store sends uppercase
/// codes ("USD"), and "usd" is treated as unknown.
public struct CurrencyCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code exactly as it travels, for instance "USD".
    public var rawValue: String

    /// Wraps a code as it is, without checking it against the ISO 4217 table.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a string literal as a code, without checking it against the ISO 4217 table.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The number of decimal places ISO 4217 gives this currency: 2 for USD, 0 for JPY, 3 for KWD.
    ///
    /// One major unit is 10^exponent minor units. `nil` when the code is not in the table or ISO 4217
    /// gives "N.A." (XAU, XDR, XXX, ...).
    public var minorUnitExponent: Int? {
        switch ISO4217.table[rawValue] {
        case .digits(let exponent): exponent
        case .notApplicable, nil: nil
        }
    }

    /// Whether the code is an active code in the library's ISO 4217 table, including "N.A." codes such as XAU.
    public var isKnown: Bool {
        ISO4217.table[rawValue] != nil
    }

    /// The code exactly as it travels.
    public var description: String {
        rawValue
    }
}

extension CurrencyCode: Codable {
    /// Decodes the code from a plain JSON string, keeping any value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.rawValue = try container.decode(String.self)
    }

    /// Encodes the code as a plain JSON string, unchanged.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
