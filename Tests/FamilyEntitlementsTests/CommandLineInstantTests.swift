import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// `--as-of` read strictly: RFC 3339 with every field in its range, nothing after the zone, and the instant in the
/// range the milliseconds take (2008-07-10T00:00:00Z to 9999-12-31T23:59:59.999Z).
@Suite(
    "The entitlements tool's --as-of",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct CommandLineInstantTests {
    /// The first and last instants `--as-of` takes, in milliseconds since 1970.
    static let earliest: Int64 = 1_215_648_000_000
    static let latest: Int64 = 253_402_300_799_999

    /// Runs `rebuild` on an empty history at `text`: the instant the report states, or the status and message.
    static func asOf(_ text: String) throws -> (instant: Int64?, status: Int32, message: String) {
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", text, "--format", "json"], input: Data(#"{"transactions": []}"#.utf8))
        guard result.status == 0 else { return (nil, result.status, result.standardError) }
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        return ((object?["asOf"] as? NSNumber)?.int64Value, result.status, result.standardError)
    }

    struct Accepted: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var milliseconds: Int64
        var testDescription: String { name }
    }

    static let accepted: [Accepted] = [
        Accepted(name: "UTC with Z", text: "2026-11-30T12:00:00Z", milliseconds: 1_796_040_000_000),
        Accepted(name: "an offset east", text: "2026-11-30T13:00:00+01:00", milliseconds: 1_796_040_000_000),
        Accepted(
            name: "an offset west, with minutes", text: "2026-11-30T06:30:00-05:30", milliseconds: 1_796_040_000_000),
        Accepted(name: "-00:00 is UTC", text: "2026-11-30T12:00:00-00:00", milliseconds: 1_796_040_000_000),
        Accepted(name: "one fraction digit is tenths", text: "2026-11-30T12:00:00.5Z", milliseconds: 1_796_040_000_500),
        Accepted(
            name: "two fraction digits are hundredths", text: "2026-11-30T12:00:00.05Z", milliseconds: 1_796_040_000_050
        ),
        Accepted(
            name: "three fraction digits are milliseconds", text: "2026-11-30T12:00:00.123+00:00",
            milliseconds: 1_796_040_000_123),
        Accepted(name: "29 February of a leap year", text: "2024-02-29T00:00:00Z", milliseconds: 1_709_164_800_000),
        Accepted(
            name: "29 February of a year divisible by 400", text: "2400-02-29T00:00:00Z",
            milliseconds: 13_574_563_200_000),
        Accepted(
            name: "the last second of a 30-day month", text: "2026-04-30T23:59:59Z", milliseconds: 1_777_593_599_000),
        Accepted(name: "the day the App Store opened", text: "2008-07-10T00:00:00Z", milliseconds: earliest),
        Accepted(
            name: "an offset that brings 9 July 2008 into range", text: "2008-07-09T23:00:00-01:00",
            milliseconds: earliest),
        Accepted(name: "the last millisecond of 9999", text: "9999-12-31T23:59:59.999Z", milliseconds: latest),
        Accepted(
            name: "an offset east at the very end", text: "9999-12-31T23:59:59.999+23:59",
            milliseconds: latest - (23 * 60 + 59) * 60_000),
    ]

    @Test(arguments: accepted)
    func acceptedDateTime(_ row: Accepted) throws {
        let result = try Self.asOf(row.text)
        #expect(result.status == 0, "\(result.message)")
        #expect(result.instant == row.milliseconds)
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        /// What the message must say, beside the option's name.
        var message: String
        var testDescription: String { name }
    }

    static let shape = "RFC 3339 date-time with a zone"

    static let refused: [Refused] = [
        Refused(
            name: "30 February rolls over no more", text: "2026-02-30T00:00:00Z", message: "day 30 is not in 1 to 28"),
        Refused(
            name: "29 February of a common year", text: "2026-02-29T00:00:00Z", message: "day 29 is not in 1 to 28"),
        Refused(
            name: "29 February of a century not divisible by 400", text: "2100-02-29T00:00:00Z",
            message: "day 29 is not in 1 to 28"),
        Refused(name: "31 April", text: "2026-04-31T00:00:00Z", message: "day 31 is not in 1 to 30"),
        Refused(name: "day 0", text: "2026-01-00T00:00:00Z", message: "day 0 is not in 1 to 31"),
        Refused(name: "month 13", text: "2026-13-01T00:00:00Z", message: "month 13 is not in 1 to 12"),
        Refused(name: "month 0", text: "2026-00-10T00:00:00Z", message: "month 0 is not in 1 to 12"),
        Refused(name: "hour 24", text: "2026-11-30T24:00:00Z", message: "hour 24 is not in 0 to 23"),
        Refused(
            name: "minute 60 rolls over no more", text: "2026-11-30T12:60:00Z", message: "minute 60 is not in 0 to 59"),
        Refused(
            name: "a leap second", text: "2016-12-31T23:59:60Z",
            message: "second 60 is not in 0 to 59 (a leap second"),
        Refused(name: "offset hour 24", text: "2026-11-30T12:00:00+24:00", message: "offset hour 24 is not in 0 to 23"),
        Refused(
            name: "offset minute 60", text: "2026-11-30T12:00:00-01:60", message: "offset minute 60 is not in 0 to 59"),
        Refused(
            name: "an offset after Z", text: "2026-11-30T12:00:00Z+05:00",
            message: #"has text after its zone: "+05:00""#),
        Refused(name: "words after Z", text: "2026-11-30T12:00:00Zjunk", message: #"has text after its zone: "junk""#),
        Refused(
            name: "a letter after an offset", text: "2026-11-30T12:00:00+01:00x",
            message: #"has text after its zone: "x""#),
        Refused(name: "a space after Z", text: "2026-11-30T12:00:00Z ", message: "has text after its zone"),
        Refused(name: "year 99999", text: "99999-01-01T00:00:00Z", message: shape),
        Refused(name: "a three-digit year", text: "999-01-01T00:00:00Z", message: shape),
        Refused(name: "a signed year", text: "+2026-11-30T12:00:00Z", message: shape),
        Refused(
            name: "the last millisecond before the App Store opened", text: "2008-07-09T23:59:59.999Z",
            message: "is before the App Store opened (July 2008)"),
        Refused(
            name: "year 1970", text: "1970-01-01T00:00:00Z", message: "is before the App Store opened (July 2008)"),
        Refused(
            name: "an offset west past the end of 9999", text: "9999-12-31T23:30:00-01:00",
            message: "is after 9999-12-31T23:59:59.999Z"),
        Refused(
            name: "four fraction digits", text: "2026-11-30T12:00:00.1234Z", message: "has a fraction of 4 digits"),
        Refused(name: "a point without digits", text: "2026-11-30T12:00:00.Z", message: "has a fraction of 0 digits"),
        Refused(name: "no seconds", text: "2026-11-30T12:00Z", message: shape),
        Refused(name: "a lower-case t", text: "2026-11-30t12:00:00Z", message: shape),
        Refused(name: "a lower-case z", text: "2026-11-30T12:00:00z", message: shape),
        Refused(name: "a space for T", text: "2026-11-30 12:00:00Z", message: shape),
        Refused(name: "a comma for the point", text: "2026-11-30T12:00:00,5Z", message: shape),
        Refused(name: "an offset without a colon", text: "2026-11-30T12:00:00+0100", message: shape),
        Refused(name: "an offset of hours alone", text: "2026-11-30T12:00:00+01", message: shape),
        Refused(name: "digits of another script", text: "２０２６-11-30T12:00:00Z", message: shape),
        Refused(name: "a single-digit month", text: "2026-1-30T12:00:00Z", message: shape),
        Refused(name: "no zone", text: "2026-11-30T12:00:00", message: "has no time zone"),
        Refused(name: "no zone after a fraction", text: "2026-11-30T12:00:00.5", message: "has no time zone"),
        Refused(name: "a date alone", text: "2026-11-30", message: "is a date without a time or zone"),
    ]

    @Test(arguments: refused)
    func refusedDateTime(_ row: Refused) throws {
        let result = try Self.asOf(row.text)
        #expect(result.status == 2, "a usage error")
        #expect(result.message.contains("--as-of"), "\(result.message)")
        #expect(result.message.contains(row.message), "\(result.message)")
        #expect(result.message.contains("usage: entitlements rebuild"))
    }

    /// A valid date-time and the instant it names, drawn from `random`: every field in range, the instant in the
    /// range `--as-of` takes, a fraction of 0 to 3 digits, `Z` or an offset.
    struct Components {
        var year, month, day, hour, minute, second, millisecond: Int
        var fractionDigits: Int
        /// Minutes east of UTC; nil for `Z`.
        var offset: Int?

        init(using random: inout SeededRandom) {
            year = Int.random(in: 2009...9998, using: &random)
            month = Int.random(in: 1...12, using: &random)
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            day = random.chance(0.2) ? days : Int.random(in: 1...days, using: &random)
            hour = Int.random(in: 0...23, using: &random)
            minute = Int.random(in: 0...59, using: &random)
            second = random.chance(0.1) ? 59 : Int.random(in: 0...59, using: &random)
            fractionDigits = Int.random(in: 0...3, using: &random)
            let unit = [1000, 100, 10, 1][fractionDigits]
            millisecond = fractionDigits == 0 ? 0 : Int.random(in: 0...(1000 / unit - 1), using: &random) * unit
            // Foundation's time zones reach 18 hours from UTC; the table checks the offsets beyond.
            offset = random.chance(0.3) ? nil : Int.random(in: -(18 * 60)...(18 * 60), using: &random)
        }

        /// The RFC 3339 text of these components.
        var text: String {
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
            if fractionDigits > 0 {
                let digits = String(1000 + millisecond).dropFirst()
                text += "." + digits.prefix(fractionDigits)
            }
            guard let offset else { return text + "Z" }
            return text + (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + ":" + two(abs(offset) % 60)
        }

        var timeZone: TimeZone? { TimeZone(secondsFromGMT: (offset ?? 0) * 60) }
    }

    @Test("random valid date-times name the instant Foundation's calendar gives, and Foundation writes it back")
    func validComponentsRoundTrip() throws {
        var random = SeededRandom(seed: 0x3339)
        for _ in 0..<120 {
            let components = Components(using: &random)
            let text = components.text
            let timeZone = try #require(components.timeZone, "\(text)")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let date = try #require(
                calendar.date(
                    from: DateComponents(
                        year: components.year, month: components.month, day: components.day, hour: components.hour,
                        minute: components.minute, second: components.second)), "\(text)")
            let expected = Int64((date.timeIntervalSince1970 * 1000).rounded()) + Int64(components.millisecond)
            let result = try Self.asOf(text)
            #expect(result.status == 0, "\(text): \(result.message)")
            #expect(result.instant == expected, "\(text)")
            let style = Date.ISO8601FormatStyle(
                timeSeparator: .colon, timeZoneSeparator: .colon, includingFractionalSeconds: true,
                timeZone: timeZone)
            // A quarter of a millisecond in, so that the binary fraction of a Double (at the year 9999, a step of
            // 0.03 ms) is written as this millisecond whether Foundation truncates the fraction or rounds it.
            let written = Date(timeIntervalSince1970: Double(expected) / 1000 + 0.000_25).formatted(style)
            let again = try Self.asOf(written)
            #expect(again.instant == expected, "\(text) written by Foundation as \(written): \(again.message)")
        }
    }

    /// The fields a generated invalid date-time puts out of range, each with values outside it.
    static let outOfRange: [(name: String, values: [Int])] = [
        ("month", [0] + Array(13...99)),
        ("day", [0] + Array(32...99)),
        ("hour", Array(24...99)),
        ("minute", Array(60...99)),
        ("second", Array(60...99)),
        ("offset hour", Array(24...99)),
        ("offset minute", Array(60...99)),
    ]

    @Test("random date-times with one field out of range are refused, naming the field and its value")
    func invalidComponentsAreRefused() throws {
        var random = SeededRandom(seed: 0x3340)
        for _ in 0..<120 {
            var components = Components(using: &random)
            components.offset = components.offset ?? 0
            let field = try #require(Self.outOfRange.randomElement(using: &random))
            let value = try #require(field.values.randomElement(using: &random))
            var offsetHour = abs(components.offset ?? 0) / 60
            var offsetMinute = abs(components.offset ?? 0) % 60
            switch field.name {
            case "month": components.month = value
            case "day": components.day = value
            case "hour": components.hour = value
            case "minute": components.minute = value
            case "second": components.second = value
            case "offset hour": offsetHour = value
            default: offsetMinute = value
            }
            let sign = (components.offset ?? 0) < 0 ? "-" : "+"
            components.offset = nil
            let text =
                String(components.text.dropLast()) + sign + String(format: "%02d:%02d", offsetHour, offsetMinute)
            let result = try Self.asOf(text)
            #expect(result.status == 2, "\(text)")
            #expect(result.message.contains("\(field.name) \(value) is not in"), "\(text): \(result.message)")
        }
    }

    @Test("a valid day past the end of its month is refused for every month of leap and common years")
    func dayAfterTheLastOfEachMonth() throws {
        for year in [2026, 2028, 2100, 2400] {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            for (index, days) in [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].enumerated() {
                let month = String(format: "%02d", index + 1)
                let last = try Self.asOf("\(year)-\(month)-\(days)T00:00:00Z")
                #expect(last.status == 0, "\(year)-\(month)-\(days): \(last.message)")
                guard days < 31 else { continue }
                let after = try Self.asOf("\(year)-\(month)-\(days + 1)T00:00:00Z")
                #expect(after.message.contains("day \(days + 1) is not in 1 to \(days)"), "\(year)-\(month)")
            }
        }
    }
}
