/// The ISO 4217 minor-unit table: how many decimal places each active currency code has.
///
/// Source: ISO 4217, *Codes for the representation of currencies*, List One (current currency and
/// funds codes) as published by its maintenance agency (SIX) with the date `Pblshd="2026-01-01"`
/// (178 alphabetic codes). The exponent is the `CcyMnrUnts` column: 10^exponent minor units make one
/// major unit. Codes marked "N.A." (precious metals, bond-market units, SDR, XTS, XXX, ...) have no
/// minor unit and map to `.notApplicable`. Codes withdrawn before that edition (List Three, for
/// instance ANG, BGN, HRK) are not in the table. Keys are case-sensitive uppercase codes, the form in
/// which the App Store sends `currency`.
enum ISO4217 {
    /// The `CcyMnrUnts` value of one code in List One.
    enum MinorUnits: Hashable, Sendable {
        /// The currency has this many decimal places (0 to 4 in the current edition).
        case digits(Int)
        /// ISO 4217 gives "N.A.": the code has no minor unit.
        case notApplicable
    }

    /// Every alphabetic code of List One with its minor units.
    static let table: [String: MinorUnits] = [
        "AED": .digits(2),  // UAE Dirham
        "AFN": .digits(2),  // Afghani
        "ALL": .digits(2),  // Lek
        "AMD": .digits(2),  // Armenian Dram
        "AOA": .digits(2),  // Kwanza
        "ARS": .digits(2),  // Argentine Peso
        "AUD": .digits(2),  // Australian Dollar
        "AWG": .digits(2),  // Aruban Florin
        "AZN": .digits(2),  // Azerbaijan Manat
        "BAM": .digits(2),  // Convertible Mark
        "BBD": .digits(2),  // Barbados Dollar
        "BDT": .digits(2),  // Taka
        "BHD": .digits(3),  // Bahraini Dinar
        "BIF": .digits(0),  // Burundi Franc
        "BMD": .digits(2),  // Bermudian Dollar
        "BND": .digits(2),  // Brunei Dollar
        "BOB": .digits(2),  // Boliviano
        "BOV": .digits(2),  // Mvdol
        "BRL": .digits(2),  // Brazilian Real
        "BSD": .digits(2),  // Bahamian Dollar
        "BTN": .digits(2),  // Ngultrum
        "BWP": .digits(2),  // Pula
        "BYN": .digits(2),  // Belarusian Ruble
        "BZD": .digits(2),  // Belize Dollar
        "CAD": .digits(2),  // Canadian Dollar
        "CDF": .digits(2),  // Congolese Franc
        "CHE": .digits(2),  // WIR Euro
        "CHF": .digits(2),  // Swiss Franc
        "CHW": .digits(2),  // WIR Franc
        "CLF": .digits(4),  // Unidad de Fomento
        "CLP": .digits(0),  // Chilean Peso
        "CNY": .digits(2),  // Yuan Renminbi
        "COP": .digits(2),  // Colombian Peso
        "COU": .digits(2),  // Unidad de Valor Real
        "CRC": .digits(2),  // Costa Rican Colon
        "CUP": .digits(2),  // Cuban Peso
        "CVE": .digits(2),  // Cabo Verde Escudo
        "CZK": .digits(2),  // Czech Koruna
        "DJF": .digits(0),  // Djibouti Franc
        "DKK": .digits(2),  // Danish Krone
        "DOP": .digits(2),  // Dominican Peso
        "DZD": .digits(2),  // Algerian Dinar
        "EGP": .digits(2),  // Egyptian Pound
        "ERN": .digits(2),  // Nakfa
        "ETB": .digits(2),  // Ethiopian Birr
        "EUR": .digits(2),  // Euro
        "FJD": .digits(2),  // Fiji Dollar
        "FKP": .digits(2),  // Falkland Islands Pound
        "GBP": .digits(2),  // Pound Sterling
        "GEL": .digits(2),  // Lari
        "GHS": .digits(2),  // Ghana Cedi
        "GIP": .digits(2),  // Gibraltar Pound
        "GMD": .digits(2),  // Dalasi
        "GNF": .digits(0),  // Guinean Franc
        "GTQ": .digits(2),  // Quetzal
        "GYD": .digits(2),  // Guyana Dollar
        "HKD": .digits(2),  // Hong Kong Dollar
        "HNL": .digits(2),  // Lempira
        "HTG": .digits(2),  // Gourde
        "HUF": .digits(2),  // Forint
        "IDR": .digits(2),  // Rupiah
        "ILS": .digits(2),  // New Israeli Sheqel
        "INR": .digits(2),  // Indian Rupee
        "IQD": .digits(3),  // Iraqi Dinar
        "IRR": .digits(2),  // Iranian Rial
        "ISK": .digits(0),  // Iceland Krona
        "JMD": .digits(2),  // Jamaican Dollar
        "JOD": .digits(3),  // Jordanian Dinar
        "JPY": .digits(0),  // Yen
        "KES": .digits(2),  // Kenyan Shilling
        "KGS": .digits(2),  // Som
        "KHR": .digits(2),  // Riel
        "KMF": .digits(0),  // Comorian Franc
        "KPW": .digits(2),  // North Korean Won
        "KRW": .digits(0),  // Won
        "KWD": .digits(3),  // Kuwaiti Dinar
        "KYD": .digits(2),  // Cayman Islands Dollar
        "KZT": .digits(2),  // Tenge
        "LAK": .digits(2),  // Lao Kip
        "LBP": .digits(2),  // Lebanese Pound
        "LKR": .digits(2),  // Sri Lanka Rupee
        "LRD": .digits(2),  // Liberian Dollar
        "LSL": .digits(2),  // Loti
        "LYD": .digits(3),  // Libyan Dinar
        "MAD": .digits(2),  // Moroccan Dirham
        "MDL": .digits(2),  // Moldovan Leu
        "MGA": .digits(2),  // Malagasy Ariary
        "MKD": .digits(2),  // Denar
        "MMK": .digits(2),  // Kyat
        "MNT": .digits(2),  // Tugrik
        "MOP": .digits(2),  // Pataca
        "MRU": .digits(2),  // Ouguiya
        "MUR": .digits(2),  // Mauritius Rupee
        "MVR": .digits(2),  // Rufiyaa
        "MWK": .digits(2),  // Malawi Kwacha
        "MXN": .digits(2),  // Mexican Peso
        "MXV": .digits(2),  // Mexican Unidad de Inversion (UDI)
        "MYR": .digits(2),  // Malaysian Ringgit
        "MZN": .digits(2),  // Mozambique Metical
        "NAD": .digits(2),  // Namibia Dollar
        "NGN": .digits(2),  // Naira
        "NIO": .digits(2),  // Cordoba Oro
        "NOK": .digits(2),  // Norwegian Krone
        "NPR": .digits(2),  // Nepalese Rupee
        "NZD": .digits(2),  // New Zealand Dollar
        "OMR": .digits(3),  // Rial Omani
        "PAB": .digits(2),  // Balboa
        "PEN": .digits(2),  // Sol
        "PGK": .digits(2),  // Kina
        "PHP": .digits(2),  // Philippine Peso
        "PKR": .digits(2),  // Pakistan Rupee
        "PLN": .digits(2),  // Zloty
        "PYG": .digits(0),  // Guarani
        "QAR": .digits(2),  // Qatari Rial
        "RON": .digits(2),  // Romanian Leu
        "RSD": .digits(2),  // Serbian Dinar
        "RUB": .digits(2),  // Russian Ruble
        "RWF": .digits(0),  // Rwanda Franc
        "SAR": .digits(2),  // Saudi Riyal
        "SBD": .digits(2),  // Solomon Islands Dollar
        "SCR": .digits(2),  // Seychelles Rupee
        "SDG": .digits(2),  // Sudanese Pound
        "SEK": .digits(2),  // Swedish Krona
        "SGD": .digits(2),  // Singapore Dollar
        "SHP": .digits(2),  // Saint Helena Pound
        "SLE": .digits(2),  // Leone
        "SOS": .digits(2),  // Somali Shilling
        "SRD": .digits(2),  // Surinam Dollar
        "SSP": .digits(2),  // South Sudanese Pound
        "STN": .digits(2),  // Dobra
        "SVC": .digits(2),  // El Salvador Colon
        "SYP": .digits(2),  // Syrian Pound
        "SZL": .digits(2),  // Lilangeni
        "THB": .digits(2),  // Baht
        "TJS": .digits(2),  // Somoni
        "TMT": .digits(2),  // Turkmenistan New Manat
        "TND": .digits(3),  // Tunisian Dinar
        "TOP": .digits(2),  // Pa’anga
        "TRY": .digits(2),  // Turkish Lira
        "TTD": .digits(2),  // Trinidad and Tobago Dollar
        "TWD": .digits(2),  // New Taiwan Dollar
        "TZS": .digits(2),  // Tanzanian Shilling
        "UAH": .digits(2),  // Hryvnia
        "UGX": .digits(0),  // Uganda Shilling
        "USD": .digits(2),  // US Dollar
        "USN": .digits(2),  // US Dollar (Next day)
        "UYI": .digits(0),  // Uruguay Peso en Unidades Indexadas (UI)
        "UYU": .digits(2),  // Peso Uruguayo
        "UYW": .digits(4),  // Unidad Previsional
        "UZS": .digits(2),  // Uzbekistan Sum
        "VED": .digits(2),  // Bolívar Soberano
        "VES": .digits(2),  // Bolívar Soberano
        "VND": .digits(0),  // Dong
        "VUV": .digits(0),  // Vatu
        "WST": .digits(2),  // Tala
        "XAD": .digits(2),  // Arab Accounting Dinar
        "XAF": .digits(0),  // CFA Franc BEAC
        "XAG": .notApplicable,  // Silver
        "XAU": .notApplicable,  // Gold
        "XBA": .notApplicable,  // Bond Markets Unit European Composite Unit (EURCO)
        "XBB": .notApplicable,  // Bond Markets Unit European Monetary Unit (E.M.U.-6)
        "XBC": .notApplicable,  // Bond Markets Unit European Unit of Account 9 (E.U.A.-9)
        "XBD": .notApplicable,  // Bond Markets Unit European Unit of Account 17 (E.U.A.-17)
        "XCD": .digits(2),  // East Caribbean Dollar
        "XCG": .digits(2),  // Caribbean Guilder
        "XDR": .notApplicable,  // SDR (Special Drawing Right)
        "XOF": .digits(0),  // CFA Franc BCEAO
        "XPD": .notApplicable,  // Palladium
        "XPF": .digits(0),  // CFP Franc
        "XPT": .notApplicable,  // Platinum
        "XSU": .notApplicable,  // Sucre
        "XTS": .notApplicable,  // Codes specifically reserved for testing purposes
        "XUA": .notApplicable,  // ADB Unit of Account
        "XXX": .notApplicable,  // The codes assigned for transactions where no currency is involved
        "YER": .digits(2),  // Yemeni Rial
        "ZAR": .digits(2),  // Rand
        "ZMW": .digits(2),  // Zambian Kwacha
        "ZWG": .digits(2),  // Zimbabwe Gold
    ]
}
