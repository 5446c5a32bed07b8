#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One attempt of the App Store to deliver a notification; Apple's
/// [sendAttemptItem](https://developer.apple.com/documentation/appstoreserverapi/sendattemptitem).
public struct SendAttemptItem: Hashable, Sendable {
    /// When Apple tried, in milliseconds since 1970 on the wire; Apple's `attemptDate`.
    public var attemptDate: Date?
    /// What came of it; an unknown value is kept. Apple's `sendAttemptResult`.
    public var sendAttemptResult: SendAttemptResult?

    /// Creates a payload; every field defaults to absent.
    public init(attemptDate: Date? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}

extension SendAttemptItem: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case attemptDate, sendAttemptResult
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attemptDate = try container.decodeMillisecondDateIfPresent(forKey: .attemptDate)
        sendAttemptResult = try container.decodeIfPresent(SendAttemptResult.self, forKey: .sendAttemptResult)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeMillisecondDateIfPresent(attemptDate, forKey: .attemptDate)
        try container.encodeIfPresent(sendAttemptResult, forKey: .sendAttemptResult)
    }
}
