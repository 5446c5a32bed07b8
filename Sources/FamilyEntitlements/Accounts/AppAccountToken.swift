#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The UUID a service issues to one of its users and passes to StoreKit at purchase; Apple's `appAccountToken`.
///
/// One token per user and app, from the first release: the App Store returns it in the user's own purchases (never in
/// a family member's shared copy). Only the UUID form `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` is accepted; upper and
/// lower case parse to the same token, which is written in lower case.
public struct AppAccountToken: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The token's UUID.
    public let uuid: UUID

    /// The token of a UUID.
    public init(_ uuid: UUID) {
        self.uuid = uuid
    }

    /// Parses a token from text in the UUID form, in any case; anything else throws `invalidAppAccountToken`.
    public init(parsing text: String) throws(AccountLinkError) {
        guard text.utf8.count == 36, let uuid = UUID(uuidString: text) else {
            throw AccountLinkError(
                code: .invalidAppAccountToken,
                message: "appAccountToken \"\(text)\" is not a UUID such as 7e3fb20b-4cdb-47cc-936d-99d65f608138")
        }
        self.uuid = uuid
    }

    /// The token in lower case, as written in the library's JSON.
    public var description: String { uuid.uuidString.lowercased() }

    public static func < (lhs: AppAccountToken, rhs: AppAccountToken) -> Bool {
        lhs.description < rhs.description
    }
}

extension AppAccountToken: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try AppAccountToken(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(PayloadDecodingError.Code.invalidUUID): \(error.message)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
