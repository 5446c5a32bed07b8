/// An RFC 3339 date-time, read strictly: `YYYY-MM-DDThh:mm:ss`, an optional fraction of one to three digits, then `Z`
/// or an offset `+hh:mm` / `-hh:mm`, and nothing else.
///
/// Every field is checked against its range (month 1 to 12, day within its month with leap years, hour 0 to 23,
/// minute and second 0 to 59, offset hours 0 to 23 and minutes 0 to 59), so that no date rolls over into another:
/// `2026-02-30` is refused, never read as 2 March. The instant is computed here from the fields, without a calendar
/// and without Foundation's lenient parsing.
///
/// A leap second (`:60`) is refused: the tool's instants are milliseconds since 1970 in POSIX time, as Apple's dates
/// are, and POSIX time has no leap seconds. `T` and `Z` are upper case; `-00:00` is read as UTC.
struct RFC3339DateTime: Equatable {
    var year: Int
    /// 1 to 12.
    var month: Int
    /// 1 to the number of days in the month.
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 0 to 999: the fraction, read as milliseconds (`.5` is 500).
    var millisecond: Int
    /// The offset from UTC in minutes, east positive: `+01:00` is 60, `Z` is 0.
    var offsetMinutes: Int

    /// Why a text is not an RFC 3339 date-time, precisely enough to say so to a person.
    enum Failure: Error, Equatable {
        /// The text does not have the shape `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`.
        case shape
        /// A date and a time with nothing after them: the zone is missing.
        case missingZone
        /// A fraction of more than three digits (finer than a millisecond), or of none.
        case fraction(digits: Int)
        /// Text after the zone, such as `Z+05:00` or `Zjunk`.
        case trailingText(String)
        /// A field out of its range: its name, its value and the range it must be in.
        case field(name: String, value: Int, range: String)
    }

    /// Reads `text`, or throws the first thing wrong with it: its shape first, then each field from the month on.
    static func parse(_ text: String) throws(Failure) -> RFC3339DateTime {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
            let day = reader.digits(2), reader.take("T"), let hour = reader.digits(2), reader.take(":"),
            let minute = reader.digits(2)
        else { throw .shape }
        guard reader.take(":"), let second = reader.digits(2) else {
            throw reader.atEnd ? .missingZone : .shape
        }
        var millisecond = 0
        if reader.take(".") {
            let fraction = reader.allDigits()
            guard (1...3).contains(fraction.count) else { throw .fraction(digits: fraction.count) }
            for (place, digit) in zip([100, 10, 1], fraction) { millisecond += place * digit }
        }
        let offsetMinutes: Int
        var offsetHour = 0
        var offsetMinute = 0
        if reader.atEnd {
            throw .missingZone
        } else if reader.take("Z") {
            offsetMinutes = 0
        } else if let sign = reader.sign() {
            guard let hours = reader.digits(2), reader.take(":"), let minutes = reader.digits(2) else { throw .shape }
            offsetHour = hours
            offsetMinute = minutes
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            throw .shape
        }
        guard reader.atEnd else { throw .trailingText(reader.rest) }
        let checks: [(name: String, value: Int, range: ClosedRange<Int>)] = [
            ("month", month, 1...12),
            ("day", day, 1...Self.days(inMonth: (1...12).contains(month) ? month : 1, of: year)),
            ("hour", hour, 0...23),
            ("minute", minute, 0...59),
            ("second", second, 0...59),
            ("offset hour", offsetHour, 0...23),
            ("offset minute", offsetMinute, 0...59),
        ]
        for check in checks where !check.range.contains(check.value) {
            throw .field(
                name: check.name, value: check.value, range: "\(check.range.lowerBound) to \(check.range.upperBound)")
        }
        return RFC3339DateTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond,
            offsetMinutes: offsetMinutes)
    }

    /// The instant in milliseconds since 1970-01-01T00:00:00Z, from the fields alone (the proleptic Gregorian
    /// calendar, no leap seconds).
    var millisecondsSince1970: Int64 {
        let days = Int64(Self.daysSince1970(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3_600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1_000 + Int64(millisecond)
    }

    /// Whether `year` of the Gregorian calendar has a 29 February.
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1 to 12) in `year`.
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The days from 1970-01-01 to a valid date of the proleptic Gregorian calendar, negative before it: the
    /// civil-to-days count of Howard Hinnant's `days_from_civil`, in 400-year eras that start on 1 March.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over the text's bytes; RFC 3339 is ASCII, so any other byte is simply not what is expected.
    private struct Reader {
        var bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }
        var rest: String { String(decoding: bytes[position...], as: UTF8.self) }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Exactly `count` digits as a number, or nil (and nothing consumed).
        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count, bytes[position..<position + count].allSatisfy(Self.isDigit)
            else { return nil }
            defer { position += count }
            return bytes[position..<position + count].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }

        /// Every digit from here on, each as its value.
        mutating func allDigits() -> [Int] {
            var values: [Int] = []
            while position < bytes.count, Self.isDigit(bytes[position]) {
                values.append(Int(bytes[position] - UInt8(ascii: "0")))
                position += 1
            }
            return values
        }

        /// 1 for `+`, -1 for `-`, or nil.
        mutating func sign() -> Int? {
            if take("+") { return 1 }
            return take("-") ? -1 : nil
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}
