#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A calendar duration written in ISO 8601, such as `P1Y`, `P1M`, `P2W` or `P1DT12H`.
///
/// Years, months, weeks and days are added in the Gregorian calendar in UTC, so `P1M` from January 31 ends on the
/// last day of February; hours, minutes and seconds are exact.
public struct ISO8601Duration: Hashable, Sendable, CustomStringConvertible {
    public var years: Int
    public var months: Int
    public var weeks: Int
    public var days: Int
    public var hours: Int
    public var minutes: Int
    public var seconds: Int

    public init(
        years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
        seconds: Int = 0
    ) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Parses `PnYnMnWnDTnHnMnS` with whole, non-negative numbers; nil for anything else or an empty duration.
    public init?(_ text: String) {
        var result = ISO8601Duration()
        var rest = Substring(text)
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var inTime = false
        var sawComponent = false
        var number = ""
        for character in rest {
            if character == "T", !inTime, number.isEmpty {
                inTime = true
                continue
            }
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int(number), value <= 100_000 else { return nil }
            number = ""
            sawComponent = true
            switch (inTime, character) {
            case (false, "Y"): result.years = value
            case (false, "M"): result.months = value
            case (false, "W"): result.weeks = value
            case (false, "D"): result.days = value
            case (true, "H"): result.hours = value
            case (true, "M"): result.minutes = value
            case (true, "S"): result.seconds = value
            default: return nil
            }
        }
        guard number.isEmpty, sawComponent, result != ISO8601Duration() else { return nil }
        self = result
    }

    public var description: String {
        var text = "P"
        for (value, unit) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where value != 0 {
            text += "\(value)\(unit)"
        }
        if hours != 0 || minutes != 0 || seconds != 0 {
            text += "T"
            for (value, unit) in [(hours, "H"), (minutes, "M"), (seconds, "S")] where value != 0 {
                text += "\(value)\(unit)"
            }
        }
        return text
    }

    /// The instant this duration after `date`, in the Gregorian calendar in UTC; nil if out of the calendar's range,
    /// or after 9999-12-31T23:59:59.999Z, the last instant a report or ledger can hold.
    public func added(to date: Date) -> Date? {
        guard let end = addedInCalendar(to: date), MillisecondDate.isValid(end.timeIntervalSince1970 * 1000) else {
            return nil
        }
        return end
    }

    private func addedInCalendar(to date: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        var components = DateComponents()
        components.year = years
        components.month = months
        components.day = weeks * 7 + days
        components.hour = hours
        components.minute = minutes
        components.second = seconds
        return calendar.date(byAdding: components, to: date)
    }
}

extension ISO8601Duration: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let duration = ISO8601Duration(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(PayloadDecodingError.Code.invalidValue): \"\(text)\" is not an ISO 8601 "
                    + "duration such as P1M or P1Y")
        }
        // A duration that would end after 9999 even for a purchase on the day the App Store opened could never be
        // written as an end: refused here rather than when a purchase meets it.
        guard duration.added(to: RuleDates.opening) != nil else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(PayloadDecodingError.Code.invalidValue): \"\(text)\" ends after the year 9999 "
                    + "for any purchase, which no report can hold")
        }
        self = duration
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
