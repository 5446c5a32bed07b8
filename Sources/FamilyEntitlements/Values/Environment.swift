/// The App Store environment that signed a payload; Apple's `environment` or `receiptType`.
public struct Environment: AppleValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The App Store, with real money. Raw value `Production`.
    public static let production = Environment(rawValue: "Production")
    /// Apple's sandbox: anyone can make an account; never grant in production. Raw value `Sandbox`.
    public static let sandbox = Environment(rawValue: "Sandbox")
    /// StoreKit testing in Xcode. Raw value `Xcode`.
    public static let xcode = Environment(rawValue: "Xcode")
    /// Apple's local testing environment. Raw value `LocalTesting`.
    public static let localTesting = Environment(rawValue: "LocalTesting")

    public static let documentedValues: [Environment] = [
        .production,
        .sandbox,
        .xcode,
        .localTesting,
    ]
}
