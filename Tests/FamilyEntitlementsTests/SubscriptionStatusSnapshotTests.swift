import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Apple's status from Get All Subscription Statuses: kept in the history file, decoded from an answer, kept in the
/// ledger and its JSON form, compacted, and compared with the rebuilt state without ever granting.
@Suite("Apple's status from Get All Subscription Statuses")
struct SubscriptionStatusSnapshotTests {
    static let subscription = Given.subscription("2951", from: 0, to: 30)

    static func snapshot(
        _ status: SubscriptionStatus?, signed: Double?, environment: Environment? = .production,
        group: String? = "21000001"
    ) -> SubscriptionStatusSnapshot {
        var snapshot = DecisionRow.statusSnapshot("2951", status, signed: signed, environment: environment)
        snapshot.subscriptionGroupIdentifier = group
        return snapshot
    }

    // MARK: The history file

    @Test func historyFileKeepsStatusesAndWritesTheKeyOnlyWhenThereIsOne() throws {
        let plain = History(transactions: [Self.subscription])
        #expect(!String(decoding: try plain.jsonData(), as: UTF8.self).contains("subscriptionStatuses"))
        var history = plain
        history.subscriptionStatuses = [
            Self.snapshot(.active, signed: 10), Self.snapshot(SubscriptionStatus(rawValue: 9), signed: 11),
        ]
        #expect(history.count == 3)
        let data = try history.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""subscriptionStatuses":[{"#) && text.contains(#""signedDate":1768089600000"#))
        #expect(try History(jsonData: data) == history)
        #expect(try History(referenceJSONData: data) == history)
        #expect(try History.decodeUnverified(data).history == history)
        #expect(plain.merging(history).subscriptionStatuses == history.subscriptionStatuses)
    }

    @Test func historyFileNamesTheWrongStatus() {
        let json = Data(#"{"subscriptionStatuses":[{"status":1},{"status":"1"}]}"#.utf8)
        #expect(throws: PayloadDecodingError.self) { try History(jsonData: json) }
        do {
            _ = try History(jsonData: json)
        } catch {
            #expect(error.code == .wrongType)
            #expect(error.path == "subscriptionStatuses[1].status")
        }
        #expect(throws: Never.self) { try History(jsonData: Data(#"{"subscriptionStatuses":[{}]}"#.utf8)) }
    }

    // MARK: A Get All Subscription Statuses answer

    static func answer(signer: FakeJWSSigner = FakeJWSSigner()) throws -> SubscriptionStatusesResponse {
        SubscriptionStatusesResponse(
            environment: .production, bundleId: "org.familyentitlements.demo",
            data: [
                SubscriptionGroupStatus(
                    subscriptionGroupIdentifier: "21000001",
                    lastTransactions: [
                        LastTransactionsItem(
                            status: .active, originalTransactionId: "2951",
                            signedTransactionInfo: try signer.sign(Self.subscription),
                            signedRenewalInfo: try signer.sign(Given.renewal("2951", signed: 12))),
                        LastTransactionsItem(status: .expired, originalTransactionId: "2960"),
                    ])
            ])
    }

    /// The answer's status, dated by the later of the item's signed strings; an item without signed strings has no
    /// date, is kept, and is never compared: the rebuild skips it with an `undated_entry` diagnostic.
    @Test func decodingAnAnswerKeepsEachItemsStatus() throws {
        let decoded = try History.decodeUnverified(try Self.answer().jsonData())
        #expect(decoded.history.transactions == [Self.subscription])
        #expect(
            decoded.history.subscriptionStatuses == [
                SubscriptionStatusSnapshot(
                    originalTransactionId: "2951", status: .active, signedDate: Given.day(12), environment: .production,
                    bundleId: "org.familyentitlements.demo", subscriptionGroupIdentifier: "21000001"),
                SubscriptionStatusSnapshot(
                    originalTransactionId: "2960", status: .expired, environment: .production,
                    bundleId: "org.familyentitlements.demo", subscriptionGroupIdentifier: "21000001"),
            ])
        let report = rebuildEntitlements(history: decoded.history, asOf: Given.day(15))
        #expect(report.diagnostics.map(\.code) == [.undatedEntry], "\(report.diagnostics)")
        #expect(report.diagnostics.first?.message.contains("2960") == true)
        #expect(report.products.map(\.state) == [.active])
    }

    /// The ledger verifies the answer's strings, and keeps each item's status beside them.
    @Test func ledgerAbsorbsTheAnswersStatuses() async throws {
        let intake = NotificationIntake(
            policy: .production(bundleId: "org.familyentitlements.demo", appAppleId: 6_450_000_001),
            verifier: FakeJWSVerifier())
        var ledger = CustomerLedger()
        let changes = try await ledger.absorb(try Self.answer(), verifiedBy: intake)
        #expect(changes.map(\.code) == ["added", "added", "added", "added"])
        #expect(
            changes.last?.key == .subscriptionStatus(originalTransactionId: "2960", signedDate: nil))
        #expect(ledger.subscriptionStatuses.count == 2)
        #expect(ledger.subscriptionStatuses.contains { $0.signedDate == Given.day(12) && $0.status == .active })
        let again = try await ledger.absorb(try Self.answer(), verifiedBy: intake)
        #expect(again.map(\.code) == ["unchanged", "unchanged", "unchanged", "unchanged"])
    }

    // MARK: The ledger

    @Test func ledgerSaysWhatAnAbsorbChanged() {
        var ledger = CustomerLedger(History(transactions: [Self.subscription]))
        #expect(ledger.absorb(Self.snapshot(.active, signed: 10)).code == "added")
        #expect(ledger.absorb(Self.snapshot(.active, signed: 10)).code == "unchanged")
        let change = ledger.absorb(Self.snapshot(.expired, signed: 10))
        #expect(change.code == "conflicting")
        #expect(change.description.contains("Apple's status of original transaction 2951 signed 1768089600000"))
        #expect(ledger.count == 3)
        #expect(ledger.history.subscriptionStatuses.map(\.status) == [.active, .expired])
        // Another chain's status signed in the same millisecond is no conflict.
        #expect(ledger.absorb(DecisionRow.statusSnapshot("2952", .billingRetry, signed: 10)).code == "added")
    }

    /// Version 1 while the ledger holds no status, so that releases reading version 1 still read it; version 2 once
    /// it holds one; a version 1 document naming statuses is refused.
    @Test func ledgerJSONVersion() throws {
        var ledger = CustomerLedger(History(transactions: [Self.subscription]))
        #expect(String(decoding: try ledger.jsonData(), as: UTF8.self).contains(#""version":1"#))
        #expect(ledger.jsonVersion == 1)
        ledger.absorb(Self.snapshot(.active, signed: 10))
        let data = try ledger.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""version":2"#) && text.contains(#""subscriptionStatuses":["#))
        #expect(try CustomerLedger(jsonData: data) == ledger)
        let old = Data(#"{"version": 1, "subscriptionStatuses": []}"#.utf8)
        do {
            _ = try CustomerLedger(jsonData: old)
            Issue.record("a version 1 ledger with statuses decoded")
        } catch {
            #expect(error.code == .unknownKey)
            #expect(error.path == "subscriptionStatuses")
        }
        #expect(try CustomerLedger(jsonData: Data(#"{"version": 2}"#.utf8)) == CustomerLedger())
    }

    /// Get All Subscription Statuses every day: the newest status of the chain by the instant stays, with every one
    /// tied with it and every one signed after it; the older go.
    @Test func compactionKeepsTheNewestStatusesAndThoseAfter() {
        var ledger = CustomerLedger(History(transactions: [Self.subscription]))
        for day in 0..<20 {
            ledger.absorb(Self.snapshot(.active, signed: Double(day)))
        }
        ledger.absorb(Self.snapshot(.billingRetry, signed: 9))
        ledger.absorb(Self.snapshot(.active, signed: 3, environment: .sandbox))
        ledger.absorb(Self.snapshot(nil, signed: 2))
        ledger.absorb(Self.snapshot(.expired, signed: nil))
        let compacted = ledger.compacted(asOf: Given.day(9.5))
        let kept = Set(
            compacted.subscriptionStatuses.map {
                "\($0.status?.rawValue ?? 0) \($0.signedDate.map { "\($0)" } ?? "-") \($0.environment?.rawValue ?? "-")"
            })
        var expected: Set<String> = [
            "1 \(Given.day(9)) Production", "3 \(Given.day(9)) Production", "1 \(Given.day(3)) Sandbox",
            "0 \(Given.day(2)) Production", "2 - Production",
        ]
        for day in 10..<20 { expected.insert("1 \(Given.day(Double(day))) Production") }
        #expect(kept == expected)
        for instant in [9.5, 10, 19, 25, 45] {
            #expect(
                DecisionSummary(ledger.rebuild(asOf: Given.day(instant)))
                    == DecisionSummary(compacted.rebuild(asOf: Given.day(instant))))
        }
    }

    // MARK: The cross-check

    /// A notification and a Get All Subscription Statuses item signed in the same millisecond with the same status:
    /// the diagnostic names Apple's answer to the API, whatever the order of the entries.
    @Test func aTieWithANotificationNamesTheAnswer() throws {
        let notification = DecisionRow.statusNotification(
            .active, .didChangeRenewalStatus, .autoRenewEnabled, signed: 40, renewal: Given.renewal("2951", signed: 40))
        let statuses = [Self.snapshot(.active, signed: 40, group: nil), Self.snapshot(.active, signed: 40)]
        let reports = [statuses, statuses.reversed()].map {
            rebuildEntitlements(
                history: History(
                    transactions: [Self.subscription], notifications: [notification], subscriptionStatuses: $0),
                asOf: Given.day(45))
        }
        #expect(reports[0] == reports[1])
        let diagnostic = try #require(reports[0].diagnostics.first { $0.code == .appleStatusDisagrees })
        #expect(diagnostic.message.contains("Get All Subscription Statuses (subscription group 21000001)"))
        #expect(!diagnostic.message.contains("notification"))
    }

    /// A status of another app, where the catalog names the app: reported like any entry of it, never compared.
    @Test func aStatusOfAnotherAppIsReportedAndNotCompared() {
        var other = Self.snapshot(.active, signed: 40)
        other.bundleId = "org.example.other"
        let catalog = ProductCatalog(
            bundleId: "org.familyentitlements.demo", products: [ProductID(Given.monthly): .init(entitlements: ["pro"])])
        let report = rebuildEntitlements(
            history: History(transactions: [Self.subscription], subscriptionStatuses: [other]), asOf: Given.day(45),
            catalog: catalog)
        #expect(Set(report.diagnostics.map(\.code)) == [.foreignBundle])
        #expect(report.products.map(\.state) == [.expired])
    }

    /// The report goes stale when a status signed after the instant comes into force.
    @Test func validUntilReachesAStatusSignedLater() {
        let history = History(
            transactions: [Given.subscription("2951", from: 0, to: 60)],
            subscriptionStatuses: [Self.snapshot(.expired, signed: 20)])
        let report = rebuildEntitlements(history: history, asOf: Given.day(10))
        #expect(report.diagnostics.isEmpty)
        #expect(report.validUntil == Given.day(20))
        #expect(
            rebuildEntitlements(history: history, asOf: Given.day(20)).diagnostics.map(\.code) == [
                .appleStatusDisagrees
            ])
    }
}
