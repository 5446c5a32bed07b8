#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The dates a rule may read (rule 10): finite, from the day the App Store opened to the last millisecond of 9999.
///
/// Admission is the one door: every date of an entry that a rule compares (a transaction's purchaseDate, expiresDate,
/// revocationDate and signedDate; a renewal info's signedDate and gracePeriodExpiresDate; a notification's or an
/// Apple status's signedDate) is checked here before the entry takes part, so that a rule never meets NaN, an
/// infinity, seconds written for milliseconds or a year past 9999. The decoder keeps its wider wire range, since
/// Apple's Xcode samples carry a year-1 `originalPurchaseDate`, which no rule reads.
enum RuleDates {
    /// 2008-07-10T00:00:00Z, the day the App Store opened: no purchase is older, so an earlier date can only be
    /// seconds mistaken for milliseconds.
    static let opening = Date(timeIntervalSince1970: 1_215_648_000)
    /// 9999-12-31T23:59:59.999Z, the last instant the readers accept.
    static let latest = MillisecondDate.date(milliseconds: MillisecondDate.latest)

    /// Whether a rule may read `date`: false for NaN. Compared as numbers of seconds, which IEEE 754 compares: `Date`'s
    /// `>=` and `<=` are Comparable's negations of `<`, which NaN passes.
    static func contains(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds >= openingSeconds && seconds <= latestSeconds
    }

    /// `opening` and `latest` in seconds since 1970, written as literals so that a comparison reads a constant.
    private static let openingSeconds: Double = 1_215_648_000
    private static let latestSeconds: Double = 253_402_300_799.999

    /// Why the field `name` cannot hold `date`, in the words of a diagnostic; nil where a rule may read it or it is
    /// absent.
    static func problem(_ name: String, _ date: Date?) -> String? {
        guard let date, !contains(date) else { return nil }
        let value = date.timeIntervalSince1970
        if !value.isFinite { return "\(name) \(MillisecondDate.text(date)), not a date" }
        if date < opening { return "\(name) \(date.evidenceText), before the App Store opened" }
        return "\(name) \(date.evidenceText), after the year 9999"
    }
}
