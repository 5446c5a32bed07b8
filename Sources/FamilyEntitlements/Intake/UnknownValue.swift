/// A value Apple sent that this version of the library does not document, with where it was found.
///
/// The service logs these loudly: a new notification type or ownership type usually needs a new handler.
public struct UnknownValue: Hashable, Sendable, CustomStringConvertible {
    /// Where the value was found, such as `notificationType` or `data.signedTransactionInfo.inAppOwnershipType`.
    public var path: String
    /// The raw value as Apple sent it.
    public var rawValue: String

    public init(path: String, rawValue: String) {
        self.path = path
        self.rawValue = rawValue
    }

    public var description: String { "unknown value \"\(rawValue)\" at \(path)" }
}
