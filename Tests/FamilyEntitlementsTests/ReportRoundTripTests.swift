import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// A report is stored and read back through the names a ledger uses, and two reports can be asked whether they decide
/// the same.
@Suite("Report round trip and decision equality")
struct ReportRoundTripTests {
    /// Every decision-table row's report, written with `jsonData()` and read with `init(jsonData:)`: the same report,
    /// and the same bytes as the contract's form once slashes are compared unescaped.
    @Test(arguments: DecisionRow.all.indices)
    func roundTrip(rowIndex: Int) throws {
        let row = DecisionRow.all[rowIndex]
        let report = rebuildEntitlements(
            history: row.history, asOf: row.instant, environment: row.environment, catalog: row.catalog)
        let read = try EntitlementReport(jsonData: try report.jsonData())
        #expect(try read.jsonData() == report.jsonData(), "\(row.name)")
        // The report prints whole milliseconds; a date Apple sent with a fraction of one (or so far from 1970 that a
        // Date cannot hold its millisecond exactly) is read back as the millisecond printed.
        let dates = report.entitlementDecisions.values.flatMap {
            [$0.expiresDate, $0.originalPurchaseDate, $0.latestPurchaseDate, $0.revocationDate]
                + [$0.gracePeriodExpiresDate, $0.billingIssueDetectedAt, $0.unsubscribeDetectedAt]
        }.compactMap { $0 }
        if dates.allSatisfy({ MillisecondDate.whole($0, .down) == $0 }) {
            #expect(read.decidesTheSame(as: report), "\(row.name)")
        }
        let contract = try JSONSerialization.jsonObject(with: report.contractJSON()) as? NSDictionary
        let written = try JSONSerialization.jsonObject(with: report.jsonData()) as? NSDictionary
        #expect(contract != nil && contract == written, "\(row.name)")
    }

    /// A key a later release adds is ignored; a report that is not one is a typed error naming what is wrong.
    @Test func readingToleratesAddedKeysAndNamesErrors() throws {
        let report = rebuildEntitlements(history: Self.history, asOf: Given.day(15))
        var object = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        object["addedByALaterRelease"] = ["anything": 1]
        let extended = try JSONSerialization.data(withJSONObject: object)
        #expect(try EntitlementReport(jsonData: extended) == report)

        object["products"] = "not a list"
        let broken = try JSONSerialization.data(withJSONObject: object)
        let error = #expect(throws: PayloadDecodingError.self) { try EntitlementReport(jsonData: broken) }
        #expect(error?.path.contains("products") == true, "\(String(describing: error))")
    }

    /// Reports of one history at instants where nothing changes decide the same; across the expiry they do not; and the
    /// evidence's wording, the instants and the product's reported transaction never count.
    @Test func decidesTheSame() throws {
        let early = rebuildEntitlements(history: Self.history, asOf: Given.day(5))
        let later = rebuildEntitlements(history: Self.history, asOf: Given.day(25))
        let expired = rebuildEntitlements(history: Self.history, asOf: Given.day(35))
        #expect(early.decidesTheSame(as: later))
        #expect(early.decisionKey == later.decisionKey)
        #expect(early != later)
        #expect(!early.decidesTheSame(as: expired))

        var reworded = early
        reworded.products[0].reasons = []
        reworded.products[0].transactionId = "another"
        #expect(reworded.decidesTheSame(as: early))
        var revoked = early
        revoked.products[0].state = .revoked
        #expect(!revoked.decidesTheSame(as: early))
        var lost = early
        lost.entitlements[EntitlementID(Given.monthly)] = false
        #expect(!lost.decidesTheSame(as: early))
    }

    /// Absorbing a verified Get Transaction History page may be called for its effect alone, as every other `absorb`:
    /// it is `@discardableResult`, so this line compiles without a warning about the unused changes.
    @Test func absorbingFromTheAPIDiscardsItsChanges() async throws {
        let intake = NotificationIntake(
            policy: .production(bundleId: "org.familyentitlements.demo", appAppleId: 1), verifier: FakeJWSVerifier())
        let transaction = Given.subscription("7301", from: 0, to: 30)
        let page = TransactionHistoryResponse(signedTransactions: [try FakeJWSSigner().sign(transaction)])
        var ledger = CustomerLedger()
        try await ledger.absorb(page, verifiedBy: intake)
        #expect(ledger.transactions == [transaction])
    }

    static let history = History(transactions: [Given.subscription("7201", from: 0, to: 30)])
}
