import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Rule 1: Xcode signs dates with fractions of a millisecond. The rebuild decides at whole milliseconds, each date taken
/// in the direction that never grants (ends, revocations and the instant down), prints integers only, and its printed
/// asOf is the instant it decided at.
struct FractionalMillisecondTests {
    /// A monthly subscription whose expiresDate carries a fraction: 2026-01-31T00:00:00.0006Z.
    static let history = #"""
        {"transactions":[{"transactionId":"81","originalTransactionId":"80","productId":"premium","type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","purchaseDate":1767225600000.4,"expiresDate":1769817600000.6,"signedDate":1767225600000.4,"environment":"Xcode"}]}
        """#
    /// 2026-01-31T00:00:00.0005Z: after the expiry's whole millisecond, before its fraction.
    static let afterWhole = Date(timeIntervalSince1970: 1_769_817_600.0005)

    @Test("an expiry of …600000.6 decided at …600000.5: expired, and the report prints whole milliseconds")
    func theIssuesExample() throws {
        let history = try History(jsonData: Data(Self.history.utf8))
        let report = rebuildEntitlements(history: history, asOf: Self.afterWhole, environment: .xcode)
        #expect(wholeMilliseconds(report.asOf) == 1_769_817_600_000)
        #expect(report.asOf.timeIntervalSince1970 * 1000 == 1_769_817_600_000)
        let product = try #require(report.products.first)
        #expect(product.state == .expired)
        #expect(product.expiresDate.map { $0.timeIntervalSince1970 * 1000 } == 1_769_817_600_000)
        #expect(report.validUntil.map { $0 > report.asOf } ?? true)
        let json = try #require(
            try JSONSerialization.jsonObject(with: report.contractJSON()) as? [String: Any])
        #expect(json["asOf"] as? Int64 == 1_769_817_600_000, "\(json)")
        #expect(Self.fractionalNumbers(in: json, at: "") == [])
        // The history keeps Apple's values as they came.
        #expect(history.transactions[0].expiresDate?.timeIntervalSince1970 == 1_769_817_600.0006)
    }

    @Test("half a millisecond before the expiry's whole millisecond: active, and validUntil is that millisecond")
    func beforeTheWholeMillisecond() throws {
        let history = try History(jsonData: Data(Self.history.utf8))
        let instant = Date(timeIntervalSince1970: 1_769_817_599.9995)
        let report = rebuildEntitlements(history: history, asOf: instant, environment: .xcode)
        #expect(report.products.first?.state == .active)
        #expect(report.validUntil.map { $0.timeIntervalSince1970 * 1000 } == 1_769_817_600_000)
        // A purchase with a fraction grants from the millisecond after it, never before.
        let atPurchase = rebuildEntitlements(
            history: history, asOf: Date(timeIntervalSince1970: 1_767_225_600.0009), environment: .xcode)
        #expect(atPurchase.products.isEmpty)
        #expect(atPurchase.validUntil.map { $0.timeIntervalSince1970 * 1000 } == 1_767_225_600_001)
    }

    /// Every decision-table row with its purchases, expiries, revocations and grace periods moved by a random fraction
    /// of a millisecond either way, decided at its instant plus a fraction: never more access than the whole row, only
    /// whole milliseconds printed, and validUntil after asOf with the decision unchanged before it.
    @Test(arguments: DecisionRow.all.indices)
    func fractionsNeverGrant(rowIndex: Int) throws {
        let row = DecisionRow.all[rowIndex]
        var random = SeededRandom(seed: UInt64(rowIndex) &* 7919 &+ 3)
        let whole = row.rebuild()
        for _ in 0..<3 {
            let history = Self.withFractions(row.history, using: &random)
            let instant = row.instant.addingTimeInterval(Double.random(in: 0..<0.000_9, using: &random))
            let report = rebuildEntitlements(
                history: history, asOf: instant, environment: row.environment, catalog: row.catalog,
                decodingWarnings: row.decodingWarnings)
            #expect(
                wholeMilliseconds(report.asOf) == wholeMilliseconds(row.instant), "\(row.name): asOf \(report.asOf)")
            let asOf = report.asOf.timeIntervalSince1970 * 1000
            #expect(abs(asOf - asOf.rounded()) < 0.001, "\(row.name): decided at \(asOf), not a whole millisecond")
            for (entitlement, granted) in report.entitlements where granted {
                #expect(
                    whole.entitlements[entitlement] == true,
                    "\(row.name): \(entitlement) granted by a fraction: \(report.products.map(\.because)) from \(history)"
                )
            }
            let json = try #require(try JSONSerialization.jsonObject(with: report.contractJSON()) as? [String: Any])
            #expect(Self.fractionalNumbers(in: json, at: "") == [], "\(row.name)")
            guard let validUntil = report.validUntil else { continue }
            #expect(validUntil > report.asOf, "\(row.name)")
            let before = rebuildEntitlements(
                history: history, asOf: validUntil.addingTimeInterval(-0.000_5), environment: row.environment,
                catalog: row.catalog, decodingWarnings: row.decodingWarnings)
            #expect(DecisionSummary(before) == DecisionSummary(report), "\(row.name): changed before validUntil")
            let after = rebuildEntitlements(
                history: history, asOf: validUntil, environment: row.environment, catalog: row.catalog,
                decodingWarnings: row.decodingWarnings)
            #expect(DecisionSummary(after) != DecisionSummary(report), "\(row.name): nothing changes at validUntil")
        }
    }

    /// The history with every end and revocation moved by a fraction of a millisecond, up or down, and every purchase
    /// moved earlier by one; signedDates, which order snapshots, are left as they are.
    ///
    /// A purchase moved later is not drawn: decided at the instant's millisecond taken down, a purchase later in that
    /// millisecond has not happened yet, so the product it replaces still grants there, as it did before it.
    static func withFractions(_ history: History, using random: inout SeededRandom) -> History {
        func move(_ date: Date?) -> Date? {
            date.map { $0.addingTimeInterval(Double.random(in: -0.000_999...0.000_999, using: &random)) }
        }
        func moved(_ transaction: TransactionPayload) -> TransactionPayload {
            var transaction = transaction
            transaction.purchaseDate = transaction.purchaseDate.map {
                $0.addingTimeInterval(-Double.random(in: 0.000_001...0.000_999, using: &random))
            }
            transaction.expiresDate = move(transaction.expiresDate)
            transaction.revocationDate = move(transaction.revocationDate)
            return transaction
        }
        func moved(_ renewalInfo: RenewalInfoPayload) -> RenewalInfoPayload {
            var renewalInfo = renewalInfo
            renewalInfo.gracePeriodExpiresDate = move(renewalInfo.gracePeriodExpiresDate)
            return renewalInfo
        }
        var history = history
        history.transactions = history.transactions.map(moved)
        history.renewalInfos = history.renewalInfos.map(moved)
        history.notifications = history.notifications.map { notification in
            var notification = notification
            guard var data = notification.data else { return notification }
            data.transactionInfo = data.transactionInfo.map(moved)
            data.renewalInfo = data.renewalInfo.map(moved)
            notification.data = data
            return notification
        }
        return history
    }

    /// The paths of the numbers in a report's JSON that are not whole: dates must be integer milliseconds.
    static func fractionalNumbers(in value: Any, at path: String) -> [String] {
        switch value {
        case let object as [String: Any]:
            return object.keys.sorted().flatMap { key in
                object[key].map { fractionalNumbers(in: $0, at: path + "." + key) } ?? []
            }
        case let array as [Any]:
            return array.enumerated().flatMap { fractionalNumbers(in: $1, at: "\(path)[\($0)]") }
        case let number as NSNumber where !(value is Bool):
            return number.doubleValue == number.doubleValue.rounded() || path.hasSuffix(".amount") ? [] : [path]
        default:
            return []
        }
    }
}

@Suite(
    "Fractional milliseconds through the entitlements tool",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct FractionalMillisecondCommandLineTests {
    /// The expiry's whole millisecond, before its fraction (…600000.6). `--as-of` names whole milliseconds only: a
    /// fraction of more than 3 digits, such as the library's …600000.5, is a usage error (`refusesAFinerFraction`).
    static let asOf = "2026-01-31T00:00:00.000Z"

    @Test("--as-of refuses a fraction finer than a millisecond instead of deciding at it")
    func refusesAFinerFraction() throws {
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", "2026-01-31T00:00:00.0005Z", "--environment", "Xcode", "--format", "json"],
            input: Data(FractionalMillisecondTests.history.utf8))
        #expect(result.status == 2)
        #expect(result.standardError.contains("has a fraction of 4 digits; give 1 to 3"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("rebuild --format json at a fraction: asOf and expiresDate are the whole milliseconds decided at")
    func rebuild() throws {
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", Self.asOf, "--environment", "Xcode", "--format", "json"],
            input: Data(FractionalMillisecondTests.history.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#""asOf":1769817600000,"#), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(#""expiresDate":1769817600000,"#), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(#""state":"expired""#), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("1769817600000.6"), "\(result.standardOutput)")
    }

    @Test("reconcile at a fraction: the line's report is expired, in whole milliseconds")
    func reconcile() throws {
        let history = FractionalMillisecondTests.history.replacingOccurrences(of: "\n", with: "")
        let input = #"{"customer":"xcode","history":\#(history)}"# + "\n"
        let result = try EntitlementsTool.run(
            ["reconcile", "--as-of", Self.asOf, "--environment", "Xcode"], input: Data(input.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#""asOf":1769817600000,"#), "\(result.standardOutput)")
        #expect(result.standardOutput.contains(#""state":"expired""#), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains(".6"), "\(result.standardOutput)")
    }
}
