import FamilyEntitlements
import Foundation

/// The value of `--as-of`: milliseconds since 1970, or an RFC 3339 date-time with a zone.
///
/// Nothing that could be misread is accepted: a number of milliseconds before the App Store opened (10 July 2008) is
/// refused with a hint that it looks like seconds, one after the year 9999 as something else again, and a date
/// without a time or a time without a zone is told exactly what is missing. A date-time is read strictly
/// (`RFC3339DateTime`): a field out of range (`2026-02-30`, `12:60`), a leap second, text after the zone or a fraction
/// finer than a millisecond is refused, never rolled over, and its instant must lie in the same range as the
/// milliseconds.
struct Instant: ArgumentValue {
    var date: Date

    /// 2008-07-10T00:00:00Z, the day the App Store opened: no App Store transaction is older.
    static let appStoreOpened: Int64 = 1_215_648_000_000
    /// 9999-12-31T23:59:59.999Z.
    static let latest: Int64 = 253_402_300_799_999

    init(argument text: String, option: String) throws(UsageError) {
        let shown = TerminalText.escaped(text)
        if let milliseconds = Int64(text) {
            guard milliseconds >= Self.appStoreOpened else {
                var hint = "; --as-of takes milliseconds since 1970"
                let (asMilliseconds, overflow) = milliseconds.multipliedReportingOverflow(by: 1000)
                if !overflow, asMilliseconds >= Self.appStoreOpened, asMilliseconds <= Self.latest {
                    hint += ", and \(shown) looks like seconds: pass \(asMilliseconds)"
                }
                throw UsageError(
                    "\(option) \(shown) is \(Self.text(milliseconds)) in milliseconds, before the App Store opened "
                        + "(July 2008)\(hint)")
            }
            guard milliseconds <= Self.latest else {
                throw UsageError(
                    "\(option) \(shown) is after the year 9999 in milliseconds since 1970; microseconds or "
                        + "nanoseconds? \(option) takes milliseconds")
            }
            date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            return
        }
        if Self.isDateOnly(text) {
            throw UsageError(
                "\(option) \(shown) is a date without a time or zone; pass a date-time with a zone, such as "
                    + "\(text)T00:00:00Z (UTC), or milliseconds since 1970")
        }
        let dateTime: RFC3339DateTime
        do {
            dateTime = try RFC3339DateTime.parse(text)
        } catch {
            throw UsageError(Self.message(error, option: option, text: text))
        }
        let milliseconds = dateTime.millisecondsSince1970
        guard milliseconds >= Self.appStoreOpened else {
            throw UsageError("\(option) \"\(shown)\" is before the App Store opened (July 2008)")
        }
        guard milliseconds <= Self.latest else {
            throw UsageError(
                "\(option) \"\(shown)\" is after 9999-12-31T23:59:59.999Z, the latest instant \(option) takes")
        }
        date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// What is wrong with a date-time, for a person: the option, the value as typed (escaped) and the field.
    static func message(_ failure: RFC3339DateTime.Failure, option: String, text: String) -> String {
        let shown = TerminalText.escaped(text)
        switch failure {
        case .shape:
            return "\(option) takes milliseconds since 1970 or an RFC 3339 date-time with a zone "
                + "(YYYY-MM-DDThh:mm:ss, an optional fraction of 1 to 3 digits, then Z or +hh:mm or -hh:mm), such as "
                + "2026-11-30T12:00:00Z, not \"\(shown)\""
        case .missingZone:
            return "\(option) \(shown) has no time zone; add Z for UTC or an offset such as +01:00 "
                + "(\(text)\(text.utf8.count == 16 ? ":00" : "")Z)"
        case .fraction(let digits):
            return "\(option) \"\(shown)\" has a fraction of \(digits) digits; give 1 to 3 (milliseconds)"
        case .trailingText(let rest):
            return "\(option) \"\(shown)\" has text after its zone: \"\(TerminalText.escaped(rest))\""
        case .field(let name, let value, let range):
            let note =
                name == "second" && value == 60
                ? " (a leap second: instants are POSIX time, which has none)" : ""
            return "\(option) \"\(shown)\": \(name) \(value) is not in \(range)\(note)"
        }
    }

    private static func text(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }

    /// `YYYY-MM-DD` alone.
    static func isDateOnly(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
            && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || isDigit($0.element) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// The value of `--environment`: one of Apple's environment names, in any case.
struct EnvironmentArgument: ArgumentValue {
    var environment: Environment

    init(argument text: String, option: String) throws(UsageError) {
        guard
            let known = Environment.documentedValues.first(where: {
                $0.rawValue.lowercased() == text.lowercased()
            })
        else {
            throw UsageError(
                "\(option) takes Production, Sandbox, Xcode or LocalTesting (in any case), not "
                    + "\"\(TerminalText.escaped(text))\"")
        }
        environment = known
    }
}

/// The value of `--max-input-bytes`: a whole number of bytes, at least 1.
struct ByteLimit: ArgumentValue {
    var bytes: Int

    init(argument text: String, option: String) throws(UsageError) {
        guard let bytes = Int(text), bytes >= 1 else {
            throw UsageError(
                "\(option) takes a whole number of bytes, at least 1, not \"\(TerminalText.escaped(text))\"")
        }
        self.bytes = bytes
    }
}

/// The value of `--kind`: the names `decode` prints as `kind`.
struct DocumentKindArgument: ArgumentValue {
    /// The App Store document named, or nil for `ledger`: a stored `CustomerLedger` (docs/ledger.md).
    var kind: AppStoreDocument.Kind?
    var isLedger: Bool { kind == nil }

    init(argument text: String, option: String) throws(UsageError) {
        if text == "ledger" {
            self.kind = nil
            return
        }
        guard let kind = AppStoreDocument.Kind(rawValue: text) else {
            let names = AppStoreDocument.Kind.allCases.map(\.rawValue) + ["ledger"]
            let nearest = ArgumentParser.nearest(to: text, among: names).map { "; did you mean \($0)?" } ?? ""
            throw UsageError(
                "\(option) takes one of \(names.joined(separator: ", ")), not \"\(TerminalText.escaped(text))\""
                    + nearest)
        }
        self.kind = kind
    }
}

/// The value of `--jobs`: how many customers to rebuild at once, at least 1.
struct JobCount: ArgumentValue {
    var count: Int

    init(argument text: String, option: String) throws(UsageError) {
        guard let count = Int(text), count >= 1, count <= 4096 else {
            throw UsageError("\(option) takes a whole number from 1 to 4096, not \"\(TerminalText.escaped(text))\"")
        }
        self.count = count
    }
}

/// `rebuild --format`: the table for a person or the contract's JSON.
enum RebuildFormat: String, EnumerationArgument {
    case table, json
}

/// `explain --format`: the evidence as text, the report as JSON, or the timeline as an SVG picture.
enum ExplainFormat: String, EnumerationArgument {
    case text, json, svg
}
