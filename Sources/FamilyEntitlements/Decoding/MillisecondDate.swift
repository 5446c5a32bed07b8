#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Apple's date convention: a JSON number of milliseconds since 1970-01-01T00:00:00Z.
///
/// Xcode-signed payloads carry fractional milliseconds and a placeholder `originalPurchaseDate` of -62135769600000, so
/// the accepted range runs from the last days of year 0 to the end of 9999; anything else (NaN, infinities, 1e300) is
/// an `invalidDate` error.
package enum MillisecondDate {
    /// 0000-12-28T00:00:00Z (proleptic Gregorian), the earliest instant accepted: two days before Xcode's placeholder
    /// original purchase date, which is 0000-12-30, two days before 0001-01-01.
    package static let earliest: Double = -62_135_769_600_000 - 86_400_000 * 2
    /// 9999-12-31T23:59:59.999Z, the latest instant accepted.
    package static let latest: Double = 253_402_300_799_999

    package static func isValid(_ milliseconds: Double) -> Bool {
        milliseconds.isFinite && milliseconds >= earliest && milliseconds <= latest
    }

    package static func date(milliseconds: Double) -> Date {
        Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// The date's milliseconds as text for a message, whatever the date holds: an integer where it is whole, the
    /// number otherwise, and `nan` or `inf` as Swift writes them. Never traps, unlike a conversion to an integer.
    package static func text(_ date: Date) -> String {
        text(milliseconds: date.timeIntervalSince1970 * 1000)
    }

    /// `text(_:)` of a number of milliseconds.
    package static func text(milliseconds value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 9.0e15 { return String(Int64(value)) }
        return String(describing: value)
    }

    /// The error of a date that cannot be written as the readers accept it, naming the key; nil where it can.
    package static func unwritable(_ date: Date, key: some CodingKey, path: [any CodingKey]) -> EncodingError? {
        guard !isValid(date.timeIntervalSince1970 * 1000) else { return nil }
        return EncodingError.invalidValue(
            date,
            EncodingError.Context(
                codingPath: path + [key],
                debugDescription: "\(PayloadDecodingError.Code.invalidDate): \(text(date)) is not a date in "
                    + "milliseconds between the years 1 and 9999, so no reader would accept it"))
    }

    /// The date at a whole millisecond, rounded by `rule` (`.down` or `.up`); a date whole to within a microsecond is
    /// returned as it is. Rule 1: the rebuild decides on whole milliseconds, each date taken in the direction that
    /// never grants (ends, revocations and the instant down; Apple's values themselves are kept as they came).
    /// Whether `whole(_:_:)` gives `date` back in either direction: a whole millisecond to within a microsecond, or an
    /// infinity. NaN is never whole, since no date equals it.
    package static func isWhole(_ date: Date) -> Bool {
        let value = date.timeIntervalSince1970 * 1000
        return abs(value - value.rounded()) < 0.001 || value.isInfinite
    }

    package static func whole(_ date: Date, _ rule: FloatingPointRoundingRule) -> Date {
        let value = date.timeIntervalSince1970 * 1000
        // Within a microsecond is the representation of a whole millisecond, not a fraction of one: kept as it is, so
        // that it still equals every other date of that millisecond it equalled.
        guard abs(value - value.rounded()) >= 0.001 else { return date }
        return Self.date(milliseconds: value.rounded(rule))
    }

    /// The date in milliseconds, as an integer where it is whole to within a microsecond and a number otherwise.
    package static func milliseconds(_ date: Date) -> Double {
        let value = date.timeIntervalSince1970 * 1000
        let rounded = value.rounded()
        return abs(value - rounded) < 0.001 ? rounded : value
    }
}

extension KeyedDecodingContainer {
    func decodeMillisecondDateIfPresent(forKey key: Key) throws -> Date? {
        let number: Double?
        do {
            number = try decodeIfPresent(Double.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            // swift-foundation reports a number beyond Double (1e400) as invalid JSON at the root; keep the key.
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(PayloadDecodingError.Code.invalidDate): the number is beyond the range of a date")
        }
        guard let value = number else { return nil }
        guard MillisecondDate.isValid(value) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(PayloadDecodingError.Code.invalidDate): \(value) is not a date in milliseconds "
                    + "between the years 1 and 9999")
        }
        return MillisecondDate.date(milliseconds: value)
    }

    func decodeUUIDIfPresent(forKey key: Key) throws -> UUID? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(PayloadDecodingError.Code.invalidUUID): \"\(text)\" is not a UUID")
        }
        return uuid
    }
}

extension KeyedEncodingContainer {
    /// Encodes the date in integer milliseconds, rounded down where it has a fraction: what a report prints.
    mutating func encodeWholeMillisecondDateIfPresent(_ date: Date?, forKey key: Key) throws {
        try encodeMillisecondDateIfPresent(date.map { MillisecondDate.whole($0, .down) }, forKey: key)
    }

    /// Encodes the date as `encodeMillisecondDateIfPresent` does, refusing one that no reader would accept (NaN,
    /// infinite, or beyond the years 1 to 9999) with an `EncodingError` rather than writing it or trapping.
    mutating func encodeMillisecondDateIfPresent(_ date: Date?, forKey key: Key) throws {
        guard let date else { return }
        if let error = MillisecondDate.unwritable(date, key: key, path: codingPath) { throw error }
        let milliseconds = MillisecondDate.milliseconds(date)
        if milliseconds == milliseconds.rounded(), abs(milliseconds) < 9.0e15 {
            try encode(Int64(milliseconds), forKey: key)
        } else {
            try encode(milliseconds, forKey: key)
        }
    }

    mutating func encodeUUIDIfPresent(_ uuid: UUID?, forKey key: Key) throws {
        guard let uuid else { return }
        try encode(uuid.uuidString.lowercased(), forKey: key)
    }
}
