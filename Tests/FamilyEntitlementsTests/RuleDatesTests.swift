import Foundation
import Testing

@testable import FamilyEntitlements

/// The range of dates a rule may read (rule 10): its constants are written as literals, so that a comparison reads a
/// constant; these pin them to the dates they stand for, at the millisecond on both sides of each edge.
struct RuleDatesTests {
    @Test("the App Store's opening and the last millisecond of 9999 are in the range; a millisecond beyond is not")
    func edges() {
        let opening = RuleDates.opening
        let latest = RuleDates.latest
        #expect(opening == Date(timeIntervalSince1970: 1_215_648_000))
        #expect(latest == MillisecondDate.date(milliseconds: MillisecondDate.latest))
        #expect(RuleDates.contains(opening))
        #expect(RuleDates.contains(latest))
        #expect(!RuleDates.contains(opening.addingTimeInterval(-0.001)))
        #expect(!RuleDates.contains(MillisecondDate.date(milliseconds: MillisecondDate.latest + 1)))
        #expect(RuleDates.contains(opening.addingTimeInterval(0.001)))
        #expect(RuleDates.contains(MillisecondDate.date(milliseconds: MillisecondDate.latest - 1)))
    }

    @Test("a diagnostic says which way a date leaves the range, and nothing of a date a rule may read")
    func problemWords() throws {
        let past = MillisecondDate.date(milliseconds: MillisecondDate.latest + 1)
        let seconds = Date(timeIntervalSince1970: 1_767_225_600 / 1000)
        #expect(try #require(RuleDates.problem("expiresDate", past)).hasSuffix("after the year 9999"))
        #expect(try #require(RuleDates.problem("signedDate", seconds)).hasSuffix("before the App Store opened"))
        let nan = try #require(RuleDates.problem("purchaseDate", Date(timeIntervalSince1970: .nan)))
        #expect(nan.hasPrefix("purchaseDate ") && nan.hasSuffix("not a date"), "\(nan)")
        #expect(RuleDates.problem("purchaseDate", RuleDates.latest) == nil)
        #expect(RuleDates.problem("purchaseDate", nil) == nil)
    }

    @Test("NaN and the infinities are never in the range")
    func notFinite() {
        for seconds in [Double.nan, .infinity, -.infinity, -Double.nan] {
            #expect(!RuleDates.contains(Date(timeIntervalSince1970: seconds)), "\(seconds)")
        }
    }

    @Test("isWhole agrees with whole(_:_:) in both directions, NaN and the infinities included")
    func isWhole() {
        let dates = [
            Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 1_767_225_600.0004),
            Date(timeIntervalSince1970: 1_767_225_600.0009999), Date(timeIntervalSince1970: 1_767_225_600.0001),
            Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity),
            Date(timeIntervalSince1970: -.infinity), RuleDates.latest, RuleDates.opening,
        ]
        for date in dates {
            #expect(
                MillisecondDate.isWhole(date) == (MillisecondDate.whole(date, .down) == date),
                "\(date.timeIntervalSince1970)")
        }
    }
}
