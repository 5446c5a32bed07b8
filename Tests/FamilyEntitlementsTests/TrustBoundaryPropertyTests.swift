import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The trust boundary, asked by generated payloads built in code: every date a rule reads is drawn by class (not
/// finite, ±1 ms and more around each edge of the range, seconds written for milliseconds and the reverse, and
/// ordinary values), on every kind of entry, and on the instant itself. No case is listed by hand: each property must
/// hold on every history the seed draws.
@Suite("The trust boundary over generated dates")
struct TrustBoundaryPropertyTests {
    /// 2008-07-10T00:00:00Z and 9999-12-31T23:59:59.999Z, in milliseconds: the range a rule may read.
    static let (opening, latest) = (1_215_648_000_000.0, 253_402_300_799_999.0)

    /// A date drawn from one of the classes the boundary must sort, and whether a rule may read it.
    struct DrawnDate {
        var date: Date
        var isReadable: Bool
    }

    static func draw(_ random: inout SeededRandom, near ordinary: Double) -> DrawnDate {
        let milliseconds: Double
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            milliseconds =
                [Double.nan, .infinity, -.infinity, .greatestFiniteMagnitude].randomElement(using: &random) ?? .nan
        case 1: milliseconds = opening + [-1000, -1, 0, 1, 1000].randomElement(using: &random, default: 0)
        case 2: milliseconds = latest + [-1000, -1, 0, 1, 1000].randomElement(using: &random, default: 0)
        case 3: milliseconds = (ordinary / 1000).rounded()
        case 4: milliseconds = ordinary * 1000
        default: milliseconds = ordinary + Double(Int.random(in: -5_000_000_000...5_000_000_000, using: &random))
        }
        let readable = milliseconds.isFinite && milliseconds >= opening && milliseconds <= latest
        return DrawnDate(date: Date(timeIntervalSince1970: milliseconds / 1000), isReadable: readable)
    }

    /// A generated history: one granting transaction with one of its dates drawn, perhaps carried by a notification
    /// whose signedDate is drawn too, beside a renewal info and an ending notification; and an instant, drawn too.
    struct Generated {
        var history: History
        var instant: Date
        /// Whether the entries that could make the transaction grant hold only dates a rule may read.
        var readable: Bool
        var instantReadable: Bool
    }

    static func generate(seed: UInt64) -> Generated {
        var random = SeededRandom(seed: seed)
        let base = Given.day(0).timeIntervalSince1970 * 1000
        var transaction =
            Bool.random(using: &random)
            ? Given.subscription("9\(seed % 1000)", from: 0, to: 30)
            : Given.oneTime("9\(seed % 1000)", Given.lifetime, type: .nonConsumable, on: 0)
        var readable = true
        let drawn = draw(&random, near: base + 86_400_000 * Double(Int.random(in: 0...20, using: &random)))
        let field = Int.random(in: 0..<5, using: &random)
        switch field {
        case 0: transaction.purchaseDate = drawn.date
        case 1: transaction.signedDate = drawn.date
        case 2: transaction.expiresDate = drawn.date
        case 3: transaction.revocationDate = drawn.date
        default: break
        }
        if field < 4, !drawn.isReadable { readable = false }
        var history = History()
        if Bool.random(using: &random) {
            history.transactions.append(transaction)
        } else {
            var notification = Given.notification(.subscribed, .initialBuy, signed: 0, transaction: transaction)
            let signed = draw(&random, near: base)
            notification.signedDate = signed.date
            if !signed.isReadable { readable = false }
            history.notifications.append(notification)
        }
        if transaction.type == .autoRenewable, Bool.random(using: &random) {
            let grace = draw(&random, near: base + 86_400_000 * 40)
            history.renewalInfos.append(
                Given.renewal(transaction.originalTransactionId ?? "", signed: 29) {
                    $0.isInBillingRetryPeriod = true
                    $0.gracePeriodExpiresDate = grace.date
                })
        }
        if Bool.random(using: &random) {
            let type: NotificationType = [.revoke, .expired, .gracePeriodExpired, .refund].randomElement(
                using: &random, default: .revoke)
            var ending = Given.notification(type, signed: 10, transaction: transaction)
            if Bool.random(using: &random) {
                ending.signedDate = nil
            } else {
                let signed = draw(&random, near: base + 864_000_000)
                ending.signedDate = signed.date
                // An ending notification dated where no rule may read leaves what it names untrusted.
                if !signed.isReadable { readable = false }
            }
            history.notifications.append(ending)
        }
        let instantDrawn = draw(&random, near: base + 86_400_000 * Double(Int.random(in: 0...50, using: &random)))
        return Generated(
            history: history, instant: instantDrawn.date, readable: readable,
            instantReadable: instantDrawn.date.timeIntervalSince1970.isFinite
                && instantDrawn.date.timeIntervalSince1970 * 1000 <= latest)
    }

    /// An instant the rebuild cannot decide at, which no row of the decision table can carry (a test names its
    /// instant, and Foundation cannot describe these), and where the report's asOf is held.
    struct InstantCase: CustomTestStringConvertible, Sendable {
        var name: String
        var seconds: Double
        var heldAt: Double
        var testDescription: String { name }
    }

    static let undecidableInstants: [InstantCase] = [
        InstantCase(name: "NaN", seconds: .nan, heldAt: -62_135_942_400),
        InstantCase(name: "+infinity", seconds: .infinity, heldAt: 253_402_300_799.999),
        InstantCase(name: "-infinity", seconds: -.infinity, heldAt: -62_135_942_400),
        InstantCase(name: "1e300 seconds", seconds: 1e300, heldAt: 253_402_300_799.999),
        InstantCase(
            name: "10000-01-01, a millisecond past the range", seconds: 253_402_300_800, heldAt: 253_402_300_799.999),
    ]

    /// Rule 1: an instant that is not finite, or lies past 9999, decides nothing: nothing grants, the customer is
    /// undetermined, `invalid_instant` is reported, and the report, its asOf held at the nearest end of the range, is
    /// written and read back without a trap.
    @Test(arguments: undecidableInstants)
    func undecidableInstantGrantsNothing(_ row: InstantCase) throws {
        let history = History(transactions: [
            Given.subscription("1506", from: 0, to: 30),
            Given.oneTime("1507", Given.lifetime, type: .nonConsumable, on: 0),
        ])
        let catalog = ProductCatalog(products: [
            ProductID(Given.lifetime): ProductCatalog.Product(entitlements: ["lifetime"], type: .nonConsumable)
        ])
        let report = rebuildEntitlements(
            history: history, asOf: Date(timeIntervalSince1970: row.seconds), catalog: catalog)
        #expect(report.products.isEmpty)
        #expect(report.entitlements == ["lifetime": false])
        #expect(report.customer == .inactive(.undetermined))
        #expect(report.diagnostics.map(\.code) == [.invalidInstant])
        #expect(report.validUntil == nil)
        #expect(report.asOf.timeIntervalSince1970 == row.heldAt)
        #expect(try EntitlementReport(jsonData: report.jsonData()) == report)
    }

    static let seeds: [UInt64] = Array(1...1_500)

    /// Nothing dated outside the range grants; nothing grants at an instant the rebuild cannot decide at.
    @Test func nothingUnreadableGrants() {
        for seed in Self.seeds {
            let generated = Self.generate(seed: seed)
            let report = rebuildEntitlements(history: generated.history, asOf: generated.instant)
            let granting = report.products.filter(\.hasAccess).map(\.productId)
            if !generated.readable || !generated.instantReadable {
                #expect(granting.isEmpty, "seed \(seed): \(report.products) \(report.diagnostics)")
            }
            if !generated.instantReadable {
                #expect(report.diagnostics.map(\.code) == [.invalidInstant], "seed \(seed)")
            }
        }
    }

    /// Absorbed into a ledger, the same entries change nothing when absorbed again, every change prints, and the
    /// ledger reads back as written: an entry the ledger could not write is refused, never held.
    @Test func ledgerRepeatsNothingAndReadsBack() throws {
        for seed in Self.seeds {
            let generated = Self.generate(seed: seed)
            var ledger = CustomerLedger()
            let changes = ledger.absorb(generated.history)
            #expect(changes.count == generated.history.count, "seed \(seed)")
            #expect(changes.allSatisfy { !$0.description.isEmpty }, "seed \(seed)")
            var again = ledger
            let repeated = again.absorb(generated.history)
            #expect(again == ledger, "seed \(seed)")
            #expect(repeated.allSatisfy { !$0.changedLedger }, "seed \(seed): \(repeated)")
            #expect(try CustomerLedger(jsonData: ledger.jsonData()) == ledger, "seed \(seed)")
        }
    }

    /// The longest catalog durations a purchase can carry: an end on the last day of 9999 is written and read back in
    /// the report, and one a millisecond or more past it grants nothing (undetermined), and is never written.
    @Test func longestDurationsReadBack() throws {
        let pass = Given.oneTime("1508", Given.pass, type: .nonRenewing, on: 0)
        // Day 0 is 2026-01-01: 7,973 years end on 9999-01-01 (day 2,912,078), and 364 days more on 9999-12-31 (day
        // 2,912,442), the last day a reader accepts. Nil: the end would lie after 9999.
        let durations: [(ISO8601Duration, endsOnDay: Double?)] = [
            (ISO8601Duration(years: 7_973), 2_912_078),
            (ISO8601Duration(years: 7_973, months: 11, days: 30), 2_912_442),
            (ISO8601Duration(years: 7_973, days: 364), 2_912_442), (ISO8601Duration(years: 7_973, days: 365), nil),
            (ISO8601Duration(years: 7_974), nil), (ISO8601Duration(years: 9_999), nil),
        ]
        for (duration, endsOnDay) in durations {
            let catalog = ProductCatalog(products: [
                ProductID(Given.pass): ProductCatalog.Product(
                    entitlements: ["pass"], type: .nonRenewing, duration: duration)
            ])
            for day in [1.0, 400, 2_912_400] {
                let report = rebuildEntitlements(
                    history: History(transactions: [pass]), asOf: Given.day(day), catalog: catalog)
                let name = "\(duration) at day \(day)"
                #expect(report.hasAccess(to: "pass") == (endsOnDay.map { day < $0 } ?? false), "\(name)")
                if endsOnDay == nil { #expect(report.products.first?.state == .undetermined, "\(name)") }
                #expect(try EntitlementReport(jsonData: report.jsonData()) == report, "\(name)")
            }
        }
    }

    /// The same entries in any order give the same report, and the report reads back as written.
    @Test func orderFreeAndReadBack() throws {
        for seed in Self.seeds {
            let generated = Self.generate(seed: seed)
            var random = SeededRandom(seed: seed &+ 7)
            let report = rebuildEntitlements(history: generated.history, asOf: generated.instant)
            var shuffled = generated.history
            shuffled.transactions.shuffle(using: &random)
            shuffled.notifications.shuffle(using: &random)
            shuffled.notifications.reverse()
            #expect(rebuildEntitlements(history: shuffled, asOf: generated.instant) == report, "seed \(seed)")
            // What the library writes, it reads back: the report, at any instant it was given.
            let written = try report.jsonData()
            #expect(try EntitlementReport(jsonData: written) == report, "seed \(seed)")
            // Printing never traps, whatever the payloads hold.
            #expect(!String(describing: report.diagnostics).isEmpty)
        }
    }
}

extension Array {
    fileprivate func randomElement(using random: inout SeededRandom, default fallback: Element) -> Element {
        randomElement(using: &random) ?? fallback
    }
}
