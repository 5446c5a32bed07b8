import FamilyEntitlements
import Foundation
import Testing

/// The error a decoding call fails with, or nil when it succeeds; for rows that expect an exact code and path.
///
/// Any other kind of error is recorded as an issue: the library promises `PayloadDecodingError` only.
func decodingError<T>(_ body: () throws -> T) -> PayloadDecodingError? {
    do {
        _ = try body()
        return nil
    } catch let error as PayloadDecodingError {
        return error
    } catch {
        Issue.record("expected a PayloadDecodingError, got \(error)")
        return nil
    }
}

/// A date as Apple's whole milliseconds since 1970, or nil when absent.
func wholeMilliseconds(_ date: Date?) -> Int64? {
    date.flatMap { Int64(exactly: ($0.timeIntervalSince1970 * 1000).rounded()) }
}

/// The date `milliseconds` after 1970, as Apple writes dates.
func date(milliseconds: Double) -> Date {
    Date(timeIntervalSince1970: milliseconds / 1000)
}

extension AppStoreDocument {
    /// The decoded value when it is a `T`, else nil.
    func value<T>(as type: T.Type) -> T? {
        switch self {
        case .transaction(let value): value as? T
        case .renewalInfo(let value): value as? T
        case .appTransaction(let value): value as? T
        case .notification(let value): value as? T
        case .transactionHistory(let value): value as? T
        case .subscriptionStatuses(let value): value as? T
        case .notificationRequestBody(let value): value as? T
        case .transactionInfo(let value): value as? T
        case .notificationHistory(let value): value as? T
        case .renewalExtension(let value): value as? T
        }
    }
}
