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

/// A date a rule may compare: finite, and within the years the readers accept, so that every comparison is one of
/// numbers that IEEE 754 orders and every date a rule derives from it can be written.
///
/// The one door into the rules (parse, don't validate): admission makes one from each date of an entry that a rule
/// reads, through `init?(_:)`, which holds it to `RuleDates`; the rebuild makes its instant through
/// `init?(instant:)`. A rule receives these and never reads a payload's `Date` itself, so it never meets NaN, an
/// infinity or seconds written for milliseconds. The exact value is kept: rounding to the millisecond happens where a
/// comparison asks for it (`whole(_:)`).
struct RuleInstant: Comparable, Hashable, Sendable {
    /// The date as it came, for the report and the evidence.
    let date: Date

    private init(unchecked date: Date) { self.date = date }

    /// The date of an entry, where a rule may read it: within `RuleDates` (rule 10); nil otherwise.
    init?(_ date: Date) {
        guard RuleDates.contains(date) else { return nil }
        self.date = date
    }

    /// The instant of a rebuild: any date the readers accept, since an instant before the App Store opened is a real
    /// question (its customer is `new`); nil for NaN, an infinity or a date outside the years 1 to 9999.
    init?(instant: Date) {
        guard MillisecondDate.isValid(instant.timeIntervalSince1970 * 1000) else { return nil }
        self.date = instant
    }

    /// The first and the last instants the readers accept (`MillisecondDate`): where an instant the rebuild cannot
    /// decide at is held, so that its report can be written.
    static var earliest: RuleInstant {
        RuleInstant(unchecked: MillisecondDate.date(milliseconds: MillisecondDate.earliest))
    }
    static var latest: RuleInstant {
        RuleInstant(unchecked: MillisecondDate.date(milliseconds: MillisecondDate.latest))
    }

    /// Before every date a rule reads: Foundation's `distantPast` (0000-12-30, proleptic Gregorian). These four are computed
    /// from literals, never stored, so that reading one is a constant rather than a check that a global was made.
    static var distantPast: RuleInstant { RuleInstant(unchecked: Date(timeIntervalSince1970: -62_135_769_600)) }
    /// After every date a rule reads: the first instant of year 10000, which no reader accepts, so that it is only
    /// ever compared, never written. Foundation's `distantFuture` (year 4001) comes before dates Apple may sign.
    static var distantFuture: RuleInstant { RuleInstant(unchecked: Date(timeIntervalSince1970: 253_402_300_800)) }

    /// The date at its whole millisecond, taken `.down` (ends, revocations, the instant) or `.up` (purchases), the
    /// direction that never grants (rule 1). Both ends of the range are whole milliseconds, so the result stays in it.
    func whole(_ rule: FloatingPointRoundingRule) -> RuleInstant {
        RuleInstant(unchecked: MillisecondDate.whole(date, rule))
    }

    /// Whether `whole(_:)` gives the date back in either direction.
    var isWhole: Bool { MillisecondDate.isWhole(date) }

    /// The date as the evidence writes it.
    var evidenceText: String { date.evidenceText }

    /// Compared as numbers of seconds, never NaN: the same order as `Date`'s.
    static func < (lhs: RuleInstant, rhs: RuleInstant) -> Bool {
        lhs.date.timeIntervalSince1970 < rhs.date.timeIntervalSince1970
    }

    static func == (lhs: RuleInstant, rhs: RuleInstant) -> Bool {
        lhs.date.timeIntervalSince1970 == rhs.date.timeIntervalSince1970
    }

    func hash(into hasher: inout Hasher) { hasher.combine(date.timeIntervalSince1970) }
}

extension Optional where Wrapped == Date {
    /// The date as a rule may read it, nil where it is absent or outside `RuleDates`: for admission, the one door.
    var ruleInstant: RuleInstant? { flatMap { RuleInstant($0) } }
}

/// The dates of an admitted transaction that the rules read, each a `RuleInstant`, made once by admission
/// (`Impossibility.parse`). Admission then takes its ends down to their whole milliseconds and gives a snapshot that
/// says it is revoked without a revocationDate its revocation (rule 7); the payload keeps its dates as they came.
///
/// Held in 33 bytes (the four instants and a flag of presence each), not the 57 of four optionals: admission keeps one
/// per transaction, and a chain entry holds one, so that a long history's passes fetch fewer lines from memory.
struct TransactionDates {
    private var purchaseValue: RuleInstant
    private var expiresValue: RuleInstant
    private var revocationValue: RuleInstant
    private var signedValue: RuleInstant
    /// Which of the four are present: purchase, expires, revocation, signed, from the lowest bit. An absent one holds
    /// `distantPast`.
    private var present: UInt8

    init(
        purchase: RuleInstant? = nil, expires: RuleInstant? = nil, revocation: RuleInstant? = nil,
        signed: RuleInstant? = nil
    ) {
        let none = RuleInstant.distantPast
        (purchaseValue, expiresValue, revocationValue, signedValue) = (
            purchase ?? none, expires ?? none, revocation ?? none, signed ?? none
        )
        present =
            (purchase == nil ? 0 : 1) | (expires == nil ? 0 : 2) | (revocation == nil ? 0 : 4) | (signed == nil ? 0 : 8)
    }

    var purchase: RuleInstant? { present & 1 != 0 ? purchaseValue : nil }

    var expires: RuleInstant? { present & 2 != 0 ? expiresValue : nil }

    var revocation: RuleInstant? { present & 4 != 0 ? revocationValue : nil }

    var signed: RuleInstant? { present & 8 != 0 ? signedValue : nil }

    /// Whether expiresDate or revocationDate holds a fraction of a millisecond, as Xcode signs them.
    @inline(__always)
    var hasFractionalEnds: Bool {
        (present & 2 != 0 && !expiresValue.isWhole) || (present & 4 != 0 && !revocationValue.isWhole)
    }

    /// Revokes the transaction at `date`, as a snapshot that says it is revoked without a revocationDate is (rule 7).
    mutating func revoke(at date: RuleInstant) {
        revocationValue = date
        present |= 4
    }

    /// Takes the ends down to their whole milliseconds, in the direction that never grants (rule 1).
    mutating func takeEndsDown() {
        expiresValue = expiresValue.whole(.down)
        revocationValue = revocationValue.whole(.down)
    }

    /// Rule 7: a snapshot that `saysRevoked` (a revocationReason or a revocationType) without a revocationDate is
    /// revoked from its own signedDate (its purchase where it has none, or where it was signed before it), taken down
    /// to its whole millisecond, so that the revocation never precedes the purchase it ends. Apple documents no such
    /// shape, but Get Transaction History answers so for a family member's copy after the member left: reading the
    /// fields as saying nothing would let the copy grant. Nil for any other snapshot.
    func impliedRevocation(saysRevoked: Bool) -> RuleInstant? {
        guard revocation == nil, saysRevoked, let purchase else { return nil }
        return max(signed ?? purchase, purchase).whole(.down)
    }
}
