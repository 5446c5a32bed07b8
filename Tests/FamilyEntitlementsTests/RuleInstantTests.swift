import FamilyEntitlementsTestSupport
import Foundation
import Testing

@testable import FamilyEntitlements

/// The one door to the rules' dates (rule 10): a `RuleInstant` is made only where a rule may read the date, and a rule
/// reads no payload's `Date` itself. Dates are drawn by class, as the trust boundary's property draws them.
struct RuleInstantTests {
    @Test("an entry's date passes the door exactly where a rule may read it, and keeps its exact value")
    func entryDoor() {
        var random = SeededRandom(seed: 39)
        for _ in 0..<20_000 {
            let drawn = TrustBoundaryPropertyTests.draw(&random, near: 1_767_225_600_123.5)
            let instant = RuleInstant(drawn.date)
            #expect((instant != nil) == drawn.isReadable, "\(MillisecondDate.text(drawn.date))")
            #expect((instant != nil) == RuleDates.contains(drawn.date))
            guard let instant else { continue }
            #expect(instant.date.timeIntervalSince1970 == drawn.date.timeIntervalSince1970)
            // Taken to its whole millisecond either way, it stays a date a rule may read.
            for rule in [FloatingPointRoundingRule.down, .up] {
                let whole = instant.whole(rule)
                #expect(RuleDates.contains(whole.date) && whole.isWhole, "\(MillisecondDate.text(drawn.date))")
                #expect(rule == .down ? whole <= instant : whole >= instant)
            }
        }
    }

    @Test("the instant's door takes any date the readers accept, the years before the App Store included")
    func instantDoor() {
        var random = SeededRandom(seed: 40)
        for _ in 0..<20_000 {
            let drawn = TrustBoundaryPropertyTests.draw(&random, near: 1_767_225_600_123.5)
            let writable = MillisecondDate.isValid(drawn.date.timeIntervalSince1970 * 1000)
            #expect((RuleInstant(instant: drawn.date) != nil) == writable, "\(MillisecondDate.text(drawn.date))")
        }
        #expect(RuleInstant(instant: Date(timeIntervalSince1970: 0)) != nil)
        #expect(RuleInstant(Date(timeIntervalSince1970: 0)) == nil)
    }

    @Test("RuleInstants order as their dates do; distantPast and distantFuture lie beyond every entry's date")
    func order() throws {
        var random = SeededRandom(seed: 41)
        var instants: [RuleInstant] = [try #require(RuleInstant(RuleDates.opening)), .latest]
        while instants.count < 2_000 {
            let drawn = TrustBoundaryPropertyTests.draw(&random, near: 1_767_225_600_123.5)
            if let instant = RuleInstant(drawn.date) { instants.append(instant) }
        }
        for (left, right) in zip(instants, instants.shuffled(using: &random)) {
            #expect((left < right) == (left.date < right.date))
            #expect((left == right) == (left.date == right.date))
            #expect(RuleInstant.distantPast < left && left < RuleInstant.distantFuture)
        }
        // distantFuture follows every instant too; it is only compared, never written: no reader accepts it, unlike
        // Foundation's (year 4001), which comes before dates Apple may sign.
        #expect(RuleInstant.latest < .distantFuture && RuleInstant.earliest < .distantFuture)
        #expect(!MillisecondDate.isValid(RuleInstant.distantFuture.date.timeIntervalSince1970 * 1000))
        #expect(Date.distantFuture < RuleDates.latest)
        // distantPast is Foundation's, written as a literal.
        #expect(RuleInstant.distantPast.date == Date.distantPast)
    }

    /// The files of `Sources/FamilyEntitlements/Rebuild` that may name a payload's dates: the door itself and the reader
    /// of `validUntil`'s boundaries (every entry's dates, admitted or not, each through the door). The report's own
    /// values, which hold the dates the rules made, live in Report/, outside the engine.
    static let door: Set<String> = ["Admission.swift", "RuleDates.swift", "ValidUntil.swift"]

    /// The lines of `text` that read a payload's date: a member of that name, outside comments, read rather than set.
    static func dateReads(in text: String) -> [String] {
        let read = /\.(purchaseDate|expiresDate|revocationDate|signedDate|gracePeriodExpiresDate)\b(?!\s*=[^=])/
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return code.contains(read) ? String(line) : nil
        }
    }

    @Test("the scan finds a payload date read, and passes a comment, a report field set and a RuleInstant")
    func scanFindsReads() {
        #expect(Self.dateReads(in: "let end = store[index].expiresDate") == ["let end = store[index].expiresDate"])
        #expect(Self.dateReads(in: "guard let s = transaction.pointee.signedDate, s > x").count == 1)
        #expect(Self.dateReads(in: "if a.purchaseDate == b.purchaseDate {").count == 1)
        #expect(Self.dateReads(in: "/// compares purchaseDate and .signedDate").isEmpty)
        #expect(Self.dateReads(in: "x = 1 // then .signedDate").isEmpty)
        #expect(Self.dateReads(in: "facts.gracePeriodExpiresDate = info.graceEnd?.date").isEmpty)
        #expect(Self.dateReads(in: "guard let end = entry.expires, dates.signed != nil").isEmpty)
    }

    @Test("no rule reads a payload's date: outside the door, the rebuild reads only RuleInstants")
    func noRuleReadsAPayloadDate() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FamilyEntitlements/Rebuild")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        // Every exemption names a file that exists, so that a renamed file is scanned rather than forgotten.
        #expect(Self.door.isSubset(of: Set(files)), "\(Self.door.subtracting(files).sorted())")
        let rules = files.filter { !Self.door.contains($0) }.sorted()
        #expect(rules.count >= 10, "\(rules)")
        for file in rules {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(Self.dateReads(in: text).isEmpty, "\(file): \(Self.dateReads(in: text))")
        }
    }
}

/// The sizes docs/performance.md and the types' comments give, which a long history's passes over them rely on.
struct RuleInstantLayoutTests {
    @Test("a RuleInstant is a date's 8 bytes, and TransactionDates 33")
    func sizes() {
        #expect(MemoryLayout<RuleInstant>.size == 8)
        #expect(MemoryLayout<TransactionDates>.size == 33)
    }
}
