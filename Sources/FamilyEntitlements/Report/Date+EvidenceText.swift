#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Date {
    /// The instant in ISO 8601, for evidence and diagnostics: what `formatted(.iso8601)` writes (UTC, whole seconds).
    ///
    /// Written directly for the years 1601 to 9999 of the Gregorian calendar, since the format style dominated the
    /// cost of explaining a small rebuild; other instants use the format style itself, but for NaN, the infinities and
    /// dates tens of thousands of years away (which a payload built in code may hold), written as their milliseconds
    /// since 1970, so that a message about an impossible date never traps.
    package var evidenceText: String {
        let seconds = timeIntervalSince1970.rounded(.down)
        guard seconds >= Self.evidenceTextRange.lowerBound, seconds < Self.evidenceTextRange.upperBound else {
            guard seconds.isFinite, abs(seconds) < Self.formattedLimit else {
                return "\(MillisecondDate.text(self)) ms since 1970"
            }
            return formatted(.iso8601)
        }
        let total = Int64(seconds)
        let (days, secondOfDay) = (
            total.dividedRounding(by: 86_400), total - total.dividedRounding(by: 86_400) * 86_400
        )
        // Days since 1970-01-01 to a proleptic Gregorian civil date, counted in 400-year eras from 0000-03-01.
        let shifted = days + 719_468
        let era = shifted.dividedRounding(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var text: [UInt8] = Array("0000-00-00T00:00:00Z".utf8)
        func write(_ value: Int64, digits: Int, at offset: Int) {
            var value = value
            for position in (offset..<offset + digits).reversed() {
                text[position] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                value /= 10
            }
        }
        write(year, digits: 4, at: 0)
        write(month, digits: 2, at: 5)
        write(day, digits: 2, at: 8)
        write(secondOfDay / 3_600, digits: 2, at: 11)
        write(secondOfDay / 60 % 60, digits: 2, at: 14)
        write(secondOfDay % 60, digits: 2, at: 17)
        return String(decoding: text, as: UTF8.self)
    }

    /// The seconds since 1970 beyond which `evidenceText` writes milliseconds rather than asking the format style:
    /// about the year 33,000 either way, far past any date a reader accepts.
    private static let formattedLimit: Double = 1e12

    /// The seconds since 1970 written by `evidenceText` itself: 1601-01-01 up to 10000-01-01.
    private static let evidenceTextRange: Range<Double> = -11_644_473_600..<253_402_300_800
}

extension Int64 {
    /// The quotient rounded towards negative infinity.
    fileprivate func dividedRounding(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
