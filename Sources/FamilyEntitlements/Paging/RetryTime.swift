#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When the App Store Server API may be asked again, as a failure states it: an instant, or a delay after the failure.
///
/// Apple answers a request over its rate limit with HTTP 429 and a `Retry-After` header holding the UNIX time in
/// milliseconds at which the next request may be sent
/// ([Identifying rate limits](https://developer.apple.com/documentation/appstoreserverapi/identifying-rate-limits)):
/// that is `.at(_:)`, read with `init?(retryAfterHeader:)`. A delay (`.after(_:)`) is for a stand-in or a policy of the
/// caller's own. The library never reads a clock: `instant(receivedAt:)` takes the moment the failure arrived.
public enum RetryTime: Hashable, Sendable, CustomStringConvertible {
    /// Try again at this instant.
    case at(Date)
    /// Try again this long after the failure arrived.
    case after(Duration)

    /// The value of Apple's `Retry-After` header, whole milliseconds since 1970, as `.at(_:)`; nil for anything else
    /// (an empty, negative or non-numeric value, or one with spaces: HTTP clients trim header values).
    public init?(retryAfterHeader value: String) {
        guard let milliseconds = Int64(value), milliseconds >= 0 else {
            return nil
        }
        self = .at(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// The instant to try again, for a failure that arrived at `received`: the instant itself, or `received` plus the
    /// delay.
    public func instant(receivedAt received: Date) -> Date {
        switch self {
        case .at(let instant):
            instant
        case .after(let delay):
            received.addingTimeInterval(
                Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        }
    }

    /// `at 2026-03-02T10:15:00Z` or `after 30.0 seconds`.
    public var description: String {
        switch self {
        case .at(let instant): "at \(instant.evidenceText)"
        case .after(let delay): "after \(delay)"
        }
    }
}
