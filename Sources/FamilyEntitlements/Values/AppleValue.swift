#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value Apple sends whose set of cases Apple may extend, such as a notification type or an ownership type.
///
/// Each conforming type is a `RawRepresentable` struct with static members for the cases documented today. An unknown
/// raw value decodes, is kept, re-encodes unchanged and answers `isKnown == false`, so that a new case from Apple is
/// reported rather than rejected or dropped.
public protocol AppleValue: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible
where RawValue: Hashable & Sendable & Codable & CustomStringConvertible {
    /// Every case documented by Apple when this version of the library was written.
    static var documentedValues: [Self] { get }

    /// Creates the value from its raw value, known or not.
    init(rawValue: RawValue)
}

extension AppleValue {
    /// Whether Apple documented this value when this version of the library was written.
    public var isKnown: Bool { Self.documentedValues.contains(self) }

    public var description: String { rawValue.description }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self.init(rawValue: try container.decode(RawValue.self))
        } catch let error as DecodingError {
            throw error
        } catch {
            // swift-foundation reports a number beyond RawValue as invalid JSON at the root; keep the path.
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(PayloadDecodingError.Code.numberOutOfRange): the number is not an integer "
                    + "that fits in \(RawValue.self)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
