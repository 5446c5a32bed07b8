#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The instant a rebuild decides at: the one home of every comparison a rule makes with it (rule 1).
///
/// A rule asks whether a date has come by the instant (a purchase made, a snapshot signed, a notice or a revocation
/// in effect), or whether access that lasts until an end is over. Each date asked about that lies after the instant
/// is where the decision may change, so `validUntil` must consider it: in tests, a `ComparedDates` recorder notes each
/// such date, and `ValidUntilBoundaryTests` fails where one is not among the boundaries `Staleness` considered. The
/// recorder is nil in every rebuild a service runs, and a release build has none: the instant is then its value
/// alone, and each comparison one compare (the recorder's reference cost 2 % of the instructions of a 10-transaction
/// rebuild).
struct RebuildInstant {
    /// The instant, at its whole millisecond taken down (rule 1).
    let value: RuleInstant
    #if DEBUG
        /// Notes the dates after the instant that a rule compared with it: tests only.
        let recorder: ComparedDates?
    #else
        var recorder: ComparedDates? { nil }
    #endif

    init(_ value: RuleInstant, recorder: ComparedDates? = nil) {
        self.value = value
        #if DEBUG
            self.recorder = recorder
        #endif
    }

    /// Whether `date` has come by the instant: at or before it.
    @inline(__always)
    func hasCome(_ date: RuleInstant) -> Bool {
        note(date)
        return date <= value
    }

    /// Notes `date` where a recorder asks for the dates compared after the instant.
    @inline(__always)
    private func note(_ date: RuleInstant) {
        #if DEBUG
            if let recorder, date > value { recorder.note(date) }
        #endif
    }

    /// Whether access that lasts until `end`, which it excludes, is over at the instant.
    @inline(__always)
    func hasEnded(_ end: RuleInstant) -> Bool { hasCome(end) }

    /// Whether this instant comes after `earlier`, another rebuild's (the cross-check's, at Apple's status).
    @inline(__always)
    func follows(_ earlier: RebuildInstant) -> Bool { earlier.value < value }

    /// Whether the instant comes before `date`: `date` has not come yet.
    @inline(__always)
    func precedes(_ date: RuleInstant) -> Bool { !hasCome(date) }

    // The off-by-one twins, which no rule calls. Each answers as its method does but at the instant itself, so that
    // the mutation generator's `instant-edge` operator can swap a rule's comparison for its twin, as `relational`
    // swaps `<=` for `<` where a comparison is written out: every rule's comparison with the instant keeps its own
    // boundary mutant (Scripts/mutation/swift_mutants.py).

    /// `hasCome` and `hasEnded` at the instant itself: whether `date` came strictly before the instant.
    func hasPassed(_ date: RuleInstant) -> Bool {
        note(date)
        return date < value
    }

    /// `precedes` at the instant itself: whether the instant comes before `date`, or is it.
    func precedesOrIsAt(_ date: RuleInstant) -> Bool { !hasPassed(date) }

    /// `follows` at the instant itself: whether this instant comes after `earlier`, or is it.
    func followsOrIsAt(_ earlier: RebuildInstant) -> Bool { earlier.value <= value }
}

/// The dates after a rebuild's instant that its rules compared with it, as `RebuildInstant` notes them: for the test
/// that every one is a boundary `validUntil` considered. A rebuild a service runs has none, and in a release build no
/// instant keeps one (`isAvailable`).
///
/// Not `Sendable`: one recorder serves one rebuild, on one thread.
package final class ComparedDates {
    private var noted: Set<RuleInstant> = []

    package init() {}

    /// Whether a rebuild's instant can keep a recorder: in debug builds, which the tests are.
    package static var isAvailable: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// Notes `date`, unless it is `distantFuture`, which stands for a snapshot that is not trusted and is no date.
    func note(_ date: RuleInstant) {
        guard date < .distantFuture else { return }
        noted.insert(date)
    }

    /// The dates noted, in order.
    package var dates: [Date] { noted.sorted().map(\.date) }
}
