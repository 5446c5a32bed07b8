import FamilyEntitlements
import Foundation
import Testing

/// A diagnostic's message names what is wrong, so that an operator can act on it without the history at hand: every
/// missing field, every impossible value, and nothing that is fine.
@Suite("What each diagnostic names")
struct DiagnosticMessageTests {
    static let fields: [(name: String, remove: @Sendable (inout TransactionPayload) -> Void)] = [
        ("transactionId", { $0.transactionId = nil }),
        ("originalTransactionId", { $0.originalTransactionId = nil }),
        ("productId", { $0.productId = nil }),
        ("purchaseDate", { $0.purchaseDate = nil }),
    ]

    /// Every combination of the four fields a transaction needs, each left out: the message names exactly those.
    @Test("an incomplete transaction's diagnostic names each field it lacks, and no other", arguments: 1..<16)
    func incompleteTransactionNamesWhatItLacks(mask: Int) throws {
        var transaction = Given.subscription("1113", from: 0, to: 30)
        let missing = Self.fields.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
        for field in missing { field.remove(&transaction) }
        let report = rebuildEntitlements(history: History(transactions: [transaction]), asOf: Given.day(5))
        let diagnostic = try #require(report.diagnostics.first { $0.code == .incompleteTransaction })
        #expect(report.products.isEmpty)
        #expect(diagnostic.message.contains("has no \(missing.map(\.name).joined(separator: ", ")); it grants nothing"))
    }

    /// A report lists its diagnostics in one order, whatever found them first: by severity, then code, then message,
    /// so that two reports of one history are equal and a stored report reads the same every time.
    @Test func diagnosticsComeBySeverityThenCodeThenMessage() throws {
        let history = History(transactions: [
            Given.subscription("1121", from: 0, to: 30) { $0.price = 4995 },
            Given.subscription("1122", from: 0, to: 30) { $0.expiresDate = nil },
            Given.subscription("1123", from: 0, to: 30) { $0.productId = nil },
            Given.subscription("1124", from: 0, to: 30) { $0.quantity = 0 },
        ])
        let report = rebuildEntitlements(history: history, asOf: Given.day(5))
        let keys = report.diagnostics.map { [$0.severity.rawValue, $0.code.rawValue, $0.message] }
        #expect(Set(keys.map { $0[0] + $0[1] }).count >= 3)
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(report.diagnostics == report.diagnostics.sorted())
    }

    struct ImpossibleCase: CustomTestStringConvertible, Sendable {
        var change: @Sendable (inout TransactionPayload) -> Void
        var named: [String]
        var testDescription: String { named.joined(separator: ", ") }
    }

    static let impossible: [ImpossibleCase] = [
        ImpossibleCase(change: { $0.price = -1 }, named: ["a negative price (-1 milliunits)"]),
        ImpossibleCase(change: { $0.quantity = 0 }, named: ["quantity 0"]),
        ImpossibleCase(change: { $0.transactionId = "" }, named: ["an empty transactionId"]),
        ImpossibleCase(change: { $0.originalTransactionId = "" }, named: ["an empty originalTransactionId"]),
        ImpossibleCase(change: { $0.productId = "" }, named: ["an empty productId"]),
        ImpossibleCase(change: { $0.expiresDate = Given.day(-1) }, named: ["expiresDate before purchaseDate"]),
        ImpossibleCase(
            change: {
                $0.revocationDate = Given.day(-1)
                $0.quantity = -2
            }, named: ["revocationDate before purchaseDate", "quantity -2"]),
        ImpossibleCase(
            change: { $0.signedDate = Date(timeIntervalSince1970: 1_767_225_600 / 1_000) },
            named: ["signedDate 1970-01-21T10:53:45Z, before the App Store opened"]),
    ]

    @Test("an impossible value's diagnostic names the value, each of them", arguments: impossible)
    func impossibleValueNamesTheValue(_ row: ImpossibleCase) throws {
        var transaction = Given.subscription("1114", from: 0, to: 30)
        row.change(&transaction)
        let report = rebuildEntitlements(history: History(transactions: [transaction]), asOf: Given.day(5))
        let diagnostic = try #require(report.diagnostics.first { $0.code == .impossibleValue })
        #expect(report.products.isEmpty)
        #expect(diagnostic.message.contains("has \(row.named.joined(separator: ", ")), which no real payload"))
    }
}
