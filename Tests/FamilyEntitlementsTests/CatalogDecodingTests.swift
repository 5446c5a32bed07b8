import FamilyEntitlements
import Foundation
import Testing

/// A catalog that cannot be read is an error naming the path, never a catalog that silently unlocks nothing.
struct CatalogDecodingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var code: PayloadDecodingError.Code
        var path: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a misspelt key of a product", json: #"{"products": {"pro": {"entitlemnts": ["pro"]}}}"#,
            code: .unknownKey, path: "products.pro.entitlemnts"),
        Case(
            name: "a misspelt top-level key", json: #"{"bundleID": "com.example.app", "products": {}}"#,
            code: .unknownKey, path: "bundleID"),
        Case(
            name: "a history file passed as the catalog", json: #"{"transactions": [], "renewalInfos": []}"#,
            code: .unknownKey, path: "renewalInfos"),
        Case(name: "a bare array of transactions", json: #"[{"transactionId": "1"}]"#, code: .wrongType, path: ""),
        Case(
            name: "entitlements of the wrong shape", json: #"{"products": {"pro": {"entitlements": "pro"}}}"#,
            code: .wrongType, path: "products.pro.entitlements"),
        Case(
            name: "a duration that ends after 9999 for any purchase (P9999Y)",
            json: #"{"products": {"pass": {"type": "Non-Renewing Subscription", "duration": "P9999Y"}}}"#,
            code: .invalidValue, path: "products.pass.duration"),
    ]

    @Test(arguments: cases)
    func unreadableCatalogIsATypedError(_ row: Case) {
        #expect(throws: PayloadDecodingError.self) { try ProductCatalog(jsonData: Data(row.json.utf8)) }
        do {
            _ = try ProductCatalog(jsonData: Data(row.json.utf8))
        } catch {
            #expect(error.code == row.code, "\(error)")
            #expect(error.path == row.path, "\(error)")
        }
    }

    @Test func readableCatalogStillDecodes() throws {
        let json =
            #"{"bundleId": "com.example.app", "products": {"m": {"entitlements": ["pro"], "type": "Auto-Renewable Subscription"}, "y": {}}}"#
        let catalog = try ProductCatalog(jsonData: Data(json.utf8))
        #expect(catalog.bundleId == "com.example.app")
        #expect(catalog.entitlements(of: "m") == ["pro"])
        #expect(catalog.entitlements(of: "y") == ["y"])
        #expect(try ProductCatalog(jsonData: catalog.jsonData()) == catalog)
    }

    /// `catalog: nil` means none; an empty catalog means one that names no product: nothing unlocks, reported.
    @Test func noCatalogIsNotAnEmptyCatalog() {
        let history = History(transactions: [Given.oneTime("5001", Given.lifetime, type: .nonConsumable, on: 0)])
        let none = rebuildEntitlements(history: history, asOf: Given.day(1), catalog: nil)
        let empty = rebuildEntitlements(history: history, asOf: Given.day(1), catalog: ProductCatalog())
        #expect(none.hasAccess(to: EntitlementID(Given.lifetime)))
        #expect(!empty.hasAccess(to: EntitlementID(Given.lifetime)))
        #expect(empty.diagnostics.map(\.code).contains(.uncataloguedProduct))
        #expect(!none.diagnostics.map(\.code).contains(.uncataloguedProduct))
    }

    @Test func toolRefusesHistoryPassedAsCatalog() throws {
        let history = #"{"transactions": [{"transactionId": "1", "originalTransactionId": "1"}]}"#
        let file = try EntitlementsTool.temporaryFile(Data(history.utf8), named: "history-as-catalog.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try EntitlementsTool.run([
            "rebuild", file.path, "--as-of", "1770000000000", "--catalog", file.path,
        ])
        #expect(result.status == 1)
        #expect(result.standardError.contains("unknown_key"), "stderr: \(result.standardError)")
        #expect(result.standardError.contains("transactions"), "stderr: \(result.standardError)")
    }
}

extension CatalogDecodingTests {
    /// A non-renewing duration as the catalog writes it, and what it reads back as: nil where it is no duration of
    /// whole, non-negative numbers (the catalog then refuses it, and no product is ever granted for an unknown time).
    struct DurationCase: CustomTestStringConvertible, Sendable {
        var text: String
        var expected: ISO8601Duration?
        var testDescription: String { "\"\(text)\" -> \(expected.map { $0.description } ?? "no duration")" }
    }

    static let durations: [DurationCase] = [
        DurationCase(text: "P1M", expected: ISO8601Duration(months: 1)),
        DurationCase(text: "P1Y2M3W4D", expected: ISO8601Duration(years: 1, months: 2, weeks: 3, days: 4)),
        DurationCase(text: "PT1M", expected: ISO8601Duration(minutes: 1)),
        DurationCase(text: "PT1H30M", expected: ISO8601Duration(hours: 1, minutes: 30)),
        DurationCase(text: "P1DT12H", expected: ISO8601Duration(days: 1, hours: 12)),
        DurationCase(text: "PT90S", expected: ISO8601Duration(seconds: 90)),
        DurationCase(text: "P100000D", expected: ISO8601Duration(days: 100_000)),
        DurationCase(text: "P100001D", expected: nil),
        DurationCase(text: "P1T2H", expected: nil),
        DurationCase(text: "P1", expected: nil),
        DurationCase(text: "P1M2", expected: nil),
        DurationCase(text: "P", expected: nil),
        DurationCase(text: "PT", expected: nil),
        DurationCase(text: "P0D", expected: nil),
        DurationCase(text: "PTT1H", expected: nil),
        DurationCase(text: "P1H", expected: nil),
        DurationCase(text: "PT1D", expected: nil),
        DurationCase(text: "P-1M", expected: nil),
        DurationCase(text: "P1.5M", expected: nil),
        DurationCase(text: "1M", expected: nil),
        DurationCase(text: "P١M", expected: nil),
    ]

    /// Every duration a catalog admits ends within the years a report holds for a purchase on the App Store's first
    /// day, and one that does not is refused: the longest admitted one is written and read back.
    @Test func longestAdmittedDurationIsReadBack() throws {
        let opening = Date(timeIntervalSince1970: 1_215_648_000)
        for years in [7_990, 7_991, 7_992] {
            let duration = ISO8601Duration(years: years)
            let json = #"{"products": {"pass": {"type": "Non-Renewing Subscription", "duration": "\#(duration)"}}}"#
            let ends = duration.added(to: opening)
            let catalog = try? ProductCatalog(jsonData: Data(json.utf8))
            #expect((catalog != nil) == (ends != nil), "P\(years)Y")
            if let ends {
                #expect(ends.timeIntervalSince1970 * 1000 <= 253_402_300_799_999)
            }
        }
    }

    @Test(arguments: durations)
    func durationReadsAsWritten(_ row: DurationCase) {
        #expect(ISO8601Duration(row.text) == row.expected)
        if let expected = row.expected {
            #expect(ISO8601Duration(expected.description) == expected, "what it writes reads back")
        }
    }
}
