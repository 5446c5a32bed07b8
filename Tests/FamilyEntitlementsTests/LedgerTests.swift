import FamilyEntitlements
import Foundation
import Testing

/// What absorbing says and keeps, row by row, and the ledger's stored form.
struct LedgerTests {
    /// One named row: entries absorbed in order, what the last absorb says, and the decision after it.
    struct AbsorbRow: CustomTestStringConvertible, Sendable {
        var name: String
        var before: History
        var absorbed: Absorbed
        var change: String
        var count: Int
        var asOf: Double
        var hasAccess: Bool
        var diagnostics: Set<Diagnostic.Code> = []
        var testDescription: String { name }
    }

    enum Absorbed: Sendable {
        case notification(NotificationPayload)
        case transaction(TransactionPayload)
        case renewalInfo(RenewalInfoPayload)
    }

    static let bought = Given.subscription("7001", from: 0, to: 30)
    static let refunded = Given.subscription("7001", from: 0, to: 30, signed: 10) {
        $0.revocationDate = Given.day(10)
        $0.revocationReason = .otherReason
    }
    static let unrefundedTwin = Given.subscription("7001", from: 0, to: 30, signed: 10)
    static let subscribed = Given.notification(.subscribed, .initialBuy, signed: 0, transaction: bought)
    static let refund = Given.notification(.refund, signed: 10, transaction: refunded)

    static let rows: [AbsorbRow] = [
        AbsorbRow(
            name: "a first notification is added", before: History(), absorbed: .notification(subscribed),
            change: "added", count: 1, asOf: 5, hasAccess: true),
        AbsorbRow(
            name: "Apple's retry of a notification changes nothing",
            before: History(notifications: [subscribed]), absorbed: .notification(subscribed),
            change: "unchanged", count: 1, asOf: 5, hasAccess: true),
        AbsorbRow(
            name: "a snapshot the ledger holds inside a notification of its environment and app is a repeat",
            before: History(notifications: [subscribed]), absorbed: .transaction(bought),
            change: "unchanged", count: 1, asOf: 5, hasAccess: true),
        AbsorbRow(
            name: "the same snapshot signed again later is added: compaction drops the older",
            before: History(transactions: [bought]),
            absorbed: .transaction(Given.subscription("7001", from: 0, to: 30, signed: 3)),
            change: "added", count: 2, asOf: 5, hasAccess: true),
        AbsorbRow(
            name: "the same notificationUUID with other content is kept and reported",
            before: History(notifications: [subscribed]),
            absorbed: .notification(
                Given.notification(.subscribed, .resubscribe, signed: 0, transaction: bought)),
            change: "conflicting", count: 2, asOf: 5, hasAccess: true),
        AbsorbRow(
            name: "a revoking twin absorbed after its unrevoked twin is kept, and wins",
            before: History(transactions: [bought, unrefundedTwin]), absorbed: .notification(refund),
            change: "conflicting", count: 3, asOf: 15, hasAccess: false, diagnostics: [.conflictingSnapshots]),
        AbsorbRow(
            name: "an unrevoked twin absorbed after the revoking one is kept, and loses",
            before: History(notifications: [subscribed, refund]), absorbed: .transaction(unrefundedTwin),
            change: "conflicting", count: 3, asOf: 15, hasAccess: false, diagnostics: [.conflictingSnapshots]),
        AbsorbRow(
            name: "out of order: a stale snapshot after the refund is added and changes nothing",
            before: History(notifications: [refund]), absorbed: .transaction(bought),
            change: "added", count: 2, asOf: 15, hasAccess: false),
        AbsorbRow(
            name: "renewal infos of one chain signed in one millisecond with other content: kept, reported",
            before: History(transactions: [bought], renewalInfos: [Given.renewal("7001", signed: 30)]),
            absorbed: .renewalInfo(
                Given.renewal("7001", signed: 30) {
                    $0.isInBillingRetryPeriod = true
                    $0.gracePeriodExpiresDate = Given.day(40)
                }),
            change: "conflicting", count: 3, asOf: 35, hasAccess: false, diagnostics: [.conflictingSnapshots]),
        AbsorbRow(
            name: "a renewal info of one chain signed later with other content is added, no conflict",
            before: History(transactions: [bought], renewalInfos: [Given.renewal("7001", signed: 30)]),
            absorbed: .renewalInfo(
                Given.renewal("7001", signed: 31) {
                    $0.isInBillingRetryPeriod = true
                    $0.gracePeriodExpiresDate = Given.day(40)
                }),
            change: "added", count: 3, asOf: 35, hasAccess: true),
        AbsorbRow(
            name: "a renewal info that differs from one held inside a notification, same chain and signedDate: "
                + "kept, reported",
            before: History(
                transactions: [bought],
                notifications: [
                    Given.notification(
                        .didFailToRenew, .gracePeriod, signed: 30,
                        renewal: Given.renewal("7001", signed: 30) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(40)
                        })
                ]),
            absorbed: .renewalInfo(Given.renewal("7001", signed: 30)),
            change: "conflicting", count: 3, asOf: 35, hasAccess: false, diagnostics: [.conflictingSnapshots]),
        AbsorbRow(
            name: "a snapshot held only inside another app's notification is added on its own: that wrapper gates it",
            before: History(notifications: [
                {
                    var wrapper = subscribed
                    wrapper.data?.bundleId = "com.example.other"
                    return wrapper
                }()
            ]), absorbed: .transaction(bought), change: "added", count: 2, asOf: 5, hasAccess: true,
            diagnostics: [.mixedBundles]),
        AbsorbRow(
            name: "a transaction after a notification that carries only a renewal info is added, no conflict",
            before: History(notifications: [
                Given.notification(
                    .didChangeRenewalStatus, .autoRenewEnabled, signed: 2, renewal: Given.renewal("7001", signed: 2))
            ]), absorbed: .transaction(bought), change: "added", count: 2, asOf: 5, hasAccess: true),
        AbsorbRow(
            name: "a renewal info after a notification that carries only a transaction is added, no conflict",
            before: History(notifications: [subscribed]), absorbed: .renewalInfo(Given.renewal("7001", signed: 0)),
            change: "added", count: 2, asOf: 5, hasAccess: true),
    ]

    @Test(arguments: rows)
    func absorb(_ row: AbsorbRow) {
        var ledger = CustomerLedger(row.before)
        let change: LedgerChange
        switch row.absorbed {
        case .notification(let notification): change = ledger.absorb(notification)
        case .transaction(let transaction): change = ledger.absorb(transaction)
        case .renewalInfo(let renewalInfo): change = ledger.absorb(renewalInfo)
        }
        #expect(change.code == row.change, "\(change)")
        #expect(change.changedLedger == (row.change != "unchanged"))
        #expect(ledger.count == row.count)
        let report = ledger.rebuild(asOf: Given.day(row.asOf))
        #expect(report.hasAccess(to: EntitlementID(Given.monthly)) == row.hasAccess)
        #expect(Set(report.diagnostics.map(\.code)) == row.diagnostics)
    }

    /// The same entries absorbed in any order, any number of times, make one ledger and one stored form.
    @Test(arguments: 1...20)
    func anyOrderAnyRepeats(seed: UInt64) throws {
        let history = HistoryGenerator.history(seed: seed)
        let forward = CustomerLedger(history)
        var shuffled = CustomerLedger()
        shuffled.absorb(HistoryGenerator.shuffled(history.merging(history), seed: seed))
        #expect(forward == shuffled)
        #expect(try forward.jsonData() == shuffled.jsonData())
        let instant = Given.day(Double(seed % 90))
        #expect(
            DecisionSummary(forward.rebuild(asOf: instant))
                == DecisionSummary(rebuildEntitlements(history: history, asOf: instant)))
    }

    @Test func changeNamesWhatItConcerns() {
        let change = LedgerChange.conflicting(
            .transaction(transactionId: "7001", signedDate: Given.day(10)),
            with: [.transaction(transactionId: "7001", signedDate: Given.day(10))])
        #expect(change.description.contains("transaction 7001 signed 1768089600000"))
        #expect(change.key == .transaction(transactionId: "7001", signedDate: Given.day(10)))
        #expect(
            LedgerChange.unchanged(.notification(notificationUUID: nil)).description.contains("no notificationUUID"))
    }

    /// The signed strings of a notification are not stored where their verified contents are.
    @Test func signedStringsAreNotStored() throws {
        var notification = Self.subscribed
        notification.data?.signedTransactionInfo = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"
        notification.data?.signedRenewalInfo = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"
        var ledger = CustomerLedger()
        ledger.absorb(VerifiedNotification(notification: notification))
        let stored = try #require(ledger.notifications.first)
        #expect(stored.data?.signedTransactionInfo == nil)
        #expect(stored.data?.signedRenewalInfo == "eyJhbGciOiJFUzI1NiJ9.e30.c2ln")
        #expect(stored.data?.transactionInfo == Self.bought)
        // Apple's retry carries the same notification: a repeat, whatever signed string carried the contents.
        notification.data?.signedTransactionInfo = "eyJhbGciOiJFUzI1NiJ9.e30.b3RoZXI"
        #expect(ledger.absorb(notification).code == "unchanged")
        // Without the signed renewal info it kept, the notification has other content: kept and reported.
        #expect(ledger.absorb(Self.subscribed).code == "conflicting")
    }

    /// A signed string without its decoded contents beside it is kept as it came: the ledger drops only what it holds
    /// in another form.
    @Test func signedStringWithoutItsContentsIsKept() throws {
        var notification = Self.subscribed
        notification.data?.transactionInfo = nil
        notification.data?.signedTransactionInfo = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"
        var ledger = CustomerLedger()
        ledger.absorb(notification)
        let stored = try #require(ledger.notifications.first)
        #expect(stored.data?.signedTransactionInfo == "eyJhbGciOiJFUzI1NiJ9.e30.c2ln")
        #expect(stored == notification)
    }

    @Test func storeKitJSONRepresentation() throws {
        var ledger = CustomerLedger()
        let json = try Self.bought.jsonData()
        #expect(try ledger.absorb(transactionJSON: json).code == "added")
        #expect(try ledger.absorb(transactionJSON: json).code == "unchanged")
        #expect(throws: PayloadDecodingError.self) { try ledger.absorb(transactionJSON: Data(#"{"price": "1"}"#.utf8)) }
    }

    // MARK: Stays small

    /// A year of a monthly subscriber: every DID_RENEW delivered twice, the history fetched (and signed again) every
    /// month, a renewal info with each renewal. Compacted, the ledger holds one snapshot per renewal and the newest
    /// notification: it grows with transactions, not with notifications.
    @Test func aYearStaysSmall() throws {
        var ledger = CustomerLedger()
        var absorbed = 0
        var fetched: [TransactionPayload] = []
        for month in 0..<12 {
            let start = Double(month * 30)
            let id = "80\(String(format: "%02d", month))"
            let transaction = Given.subscription(id, original: "8000", from: start, to: start + 30)
            let renewal = Given.renewal("8000", signed: start)
            let notification = Given.notification(
                month == 0 ? .subscribed : .didRenew, signed: start, transaction: transaction, renewal: renewal)
            for _ in 0..<2 {
                ledger.absorb(notification)
                absorbed += 1
            }
            fetched.append(transaction)
            for snapshot in fetched {  // Get Transaction History signs every snapshot when it answers
                var resigned = snapshot
                resigned.signedDate = Given.day(start + 1)
                ledger.absorb(resigned)
                absorbed += 1
            }
            ledger = ledger.compacted(asOf: Given.day(start + 1))
        }
        #expect(absorbed == 24 + 78)
        #expect(ledger.transactions.count == 12)
        #expect(ledger.notifications.count == 1)
        #expect(ledger.renewalInfos.isEmpty)
        #expect(ledger.count == 13)
        let full = try ledger.jsonData().count
        #expect(full < 13 * 1_000)
        #expect(ledger.rebuild(asOf: Given.day(345)).hasAccess(to: EntitlementID(Given.monthly)))
    }

    /// The canonical order: by signedDate, then by the entry's key, and only then by its JSON, so that a ledger's
    /// history and JSON read the same for every order of arrival.
    @Test("entries signed in one millisecond come in the order of their keys, whatever their JSON says")
    func canonicalOrderWithinAMillisecond() {
        var ledger = CustomerLedger()
        ledger.absorb(Given.subscription("2", from: 0, to: 30))
        ledger.absorb(Given.subscription("1", from: 0, to: 40))
        ledger.absorb(Given.renewal("2", signed: 5))
        ledger.absorb(Given.renewal("1", signed: 5) { $0.autoRenewStatus = .off })
        #expect(ledger.history.transactions.map(\.transactionId) == ["1", "2"])
        #expect(ledger.history.renewalInfos.map(\.originalTransactionId) == ["1", "2"])
    }

    /// The signedDate comes before the key: an entry signed earlier comes first, though its key sorts after.
    @Test("entries come in the order they were signed, before the order of their keys")
    func canonicalOrderBySignedDateFirst() throws {
        var ledger = CustomerLedger()
        ledger.absorb(Given.subscription("1", from: 0, to: 30, signed: 20))
        ledger.absorb(Given.subscription("2", from: 0, to: 30, signed: 10))
        ledger.absorb(Given.renewal("1", signed: 20))
        ledger.absorb(Given.renewal("2", signed: 10))
        #expect(ledger.history.transactions.map(\.transactionId) == ["2", "1"])
        #expect(ledger.history.renewalInfos.map(\.originalTransactionId) == ["2", "1"])
        let json = try #require(String(data: try ledger.jsonData(), encoding: .utf8))
        let second = try #require(json.range(of: "\"transactionId\":\"2\""))
        let first = try #require(json.range(of: "\"transactionId\":\"1\""))
        #expect(second.lowerBound < first.lowerBound)
    }

    // MARK: The JSON form

    @Test(arguments: 1...20)
    func jsonRoundTrip(seed: UInt64) throws {
        var ledger = CustomerLedger(HistoryGenerator.history(seed: seed))
        var unknown = Given.notification(.init(rawValue: "SUBSCRIPTION_PAUSED"), signed: 1)
        unknown.data?.transactionInfo = Given.subscription("90\(seed)", from: 0, to: 30) {
            $0.inAppOwnershipType = OwnershipType(rawValue: "ASSIGNED")
        }
        ledger.absorb(unknown)
        let data = try ledger.jsonData()
        let decoded = try CustomerLedger(jsonData: data)
        #expect(decoded == ledger)
        #expect(try decoded.jsonData() == data)
        #expect(decoded.notifications.contains { $0.notificationType?.rawValue == "SUBSCRIPTION_PAUSED" })
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"notifications":"#))
        // Version 1 while the ledger holds no status from Get All Subscription Statuses, 2 once it holds one.
        let version = ledger.subscriptionStatuses.isEmpty ? 1 : 2
        #expect(ledger.jsonVersion == version)
        #expect(text.contains(#""version":\#(version)"#))
        #expect(text.contains(#""subscriptionStatuses":"#) == (version == 2))
    }

    struct BadForm: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var code: PayloadDecodingError.Code
        var path: String
        var testDescription: String { name }
    }

    static let badForms: [BadForm] = [
        BadForm(
            name: "a later version", json: #"{"version": 3, "transactions": []}"#, code: .unsupportedVersion,
            path: "version"),
        BadForm(name: "version 0", json: #"{"version": 0}"#, code: .unsupportedVersion, path: "version"),
        BadForm(name: "no version", json: #"{"transactions": []}"#, code: .missingValue, path: "version"),
        BadForm(
            name: "an unknown key", json: #"{"version": 1, "transaction": []}"#, code: .unknownKey,
            path: "transaction"),
        BadForm(
            name: "a wrong type inside a payload", json: #"{"version": 1, "transactions": [{"price": "1"}]}"#,
            code: .wrongType, path: "transactions[0].price"),
        BadForm(name: "not an object", json: "[]", code: .wrongType, path: ""),
    ]

    @Test(arguments: badForms)
    func badFormIsATypedError(_ row: BadForm) {
        do {
            _ = try CustomerLedger(jsonData: Data(row.json.utf8))
            Issue.record("\(row.name) decoded")
        } catch {
            #expect(error.code == row.code, "\(error)")
            #expect(error.path == row.path, "\(error)")
        }
    }

    /// The example of docs/ledger.md decodes to what the page says it holds.
    @Test func documentedJSONForm() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/ledger.md"), encoding: .utf8)
        let start = try #require(page.range(of: "```json\n"))
        let end = try #require(page.range(of: "\n```", range: start.upperBound..<page.endIndex))
        let ledger = try CustomerLedger(jsonData: Data(page[start.upperBound..<end.lowerBound].utf8))
        #expect(ledger.transactions.count == 1)
        #expect(ledger.notifications.first?.notificationType == .didRenew)
        #expect(ledger.notifications.first?.data?.renewalInfo?.autoRenewStatus == .on)
        let catalog = ProductCatalog(
            bundleId: "com.example.app", products: ["com.example.app.pro.monthly": .init(entitlements: ["pro"])])
        let report = ledger.rebuild(asOf: Date(timeIntervalSince1970: 1_770_000_000), catalog: catalog)
        #expect(report.hasAccess(to: "pro"))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(try CustomerLedger(jsonData: ledger.jsonData()) == ledger)
    }
}
