import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// What reading the input noticed is in the report (rule 10): through the library, `rebuild`, `explain` and
/// `reconcile`. An entry that could not be read never grants, and its customer is never `new`.
struct UnreadEntryTests {
    /// A member's copy of a monthly subscription and a REVOKE of it whose signed transaction is not a JWS.
    static let revokedHistory = #"""
        {"transactions":[{"transactionId":"71","originalTransactionId":"70","productId":"premium","type":"Auto-Renewable Subscription","inAppOwnershipType":"FAMILY_SHARED","purchaseDate":1767225600000,"expiresDate":1769904000000,"signedDate":1767225600000,"environment":"Production"}],
        "notifications":[{"notificationType":"REVOKE","notificationUUID":"5a1e0000-0000-4000-8000-000000000001","version":"2.0","signedDate":1768089600000,"data":{"environment":"Production","bundleId":"b","signedTransactionInfo":"not-a-jws"}}]}
        """#
    /// The same history with the REVOKE left out: what the member had before it.
    static let grantedHistory = #"""
        {"transactions":[{"transactionId":"71","originalTransactionId":"70","productId":"premium","type":"Auto-Renewable Subscription","inAppOwnershipType":"FAMILY_SHARED","purchaseDate":1767225600000,"expiresDate":1769904000000,"signedDate":1767225600000,"environment":"Production"}]}
        """#
    static let instant = Date(timeIntervalSince1970: 1_768_435_200)  // 2026-01-15
    static let path = "notifications[0].data.signedTransactionInfo"

    @Test("a REVOKE that cannot be read: the library's report names its path, and nothing grants")
    func library() throws {
        let decoded = try History.decodeUnverified(Data(Self.revokedHistory.utf8))
        #expect(decoded.warnings.map(\.path) == [Self.path])
        let report = rebuildEntitlements(
            history: decoded.history, asOf: Self.instant, decodingWarnings: decoded.warnings)
        #expect(report.hasAccess(to: "premium") == false)
        #expect(report.customer == .inactive(.undetermined))
        let diagnostic = try #require(report.diagnostics.first { $0.code == .undecodableSignedString })
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.message.hasPrefix("at \(Self.path): "), "\(diagnostic.message)")
        // Without the warnings the rebuild still finds the string it could not read: the entry is never ignored.
        let unwarned = rebuildEntitlements(history: decoded.history, asOf: Self.instant)
        #expect(unwarned.hasAccess(to: "premium") == false)
        #expect(unwarned.customer == .inactive(.undetermined))
        #expect(unwarned.diagnostics.map(\.code) == [.undecodedSignedString])
        // With them, the warning names the entry once: the undecoded string is the same entry.
        #expect(report.diagnostics.map(\.code) == [.undecodableSignedString])
        // validUntil is never later than the first change, which here is none before the expiry.
        #expect(report.validUntil.map { $0 > Self.instant } ?? true)
    }

    /// A REVOKE of the member's copy whose transaction is held only as a signed string, which decodes.
    static func signedOnlyRevoke() throws -> (history: History, json: Data) {
        let granted = try History(jsonData: Data(grantedHistory.utf8))
        let transaction = try #require(granted.transactions.first)
        var revoke = NotificationBuilder.notification(
            .revoke, transaction: nil, signed: Date(timeIntervalSince1970: 1_768_089_600))
        revoke.data?.signedTransactionInfo = try FakeJWSSigner().sign(transaction)
        let history = History(transactions: granted.transactions, notifications: [revoke])
        return (history, try history.jsonData())
    }

    @Test(
        "a REVOKE held only as a signed string is an entry the library's readers did not read: reported, nothing grants"
    )
    func signedStringWithoutContents() throws {
        let (built, json) = try Self.signedOnlyRevoke()
        let fromFile = try History(jsonData: json)
        let ledger = try CustomerLedger(jsonData: Data(#"{"version":1,"#.utf8) + json.dropFirst())
        var absorbed = CustomerLedger()
        for transaction in built.transactions { absorbed.absorb(transaction) }
        for notification in built.notifications { absorbed.absorb(notification) }
        for (name, history) in [
            ("built in code", built), ("History(jsonData:)", fromFile), ("CustomerLedger(jsonData:)", ledger.history),
            ("CustomerLedger.absorb", absorbed.history),
        ] {
            let report = rebuildEntitlements(history: history, asOf: Self.instant)
            #expect(report.hasAccess(to: "premium") == false, "\(name)")
            #expect(report.customer == .inactive(.undetermined), "\(name)")
            let diagnostic = try #require(report.diagnostics.first, "\(name)")
            #expect(report.diagnostics.map(\.code) == [.undecodedSignedString], "\(name)")
            #expect(diagnostic.message.hasPrefix("at \(Self.path): "), "\(name): \(diagnostic.message)")
        }
        // Decoded unverified, the REVOKE is read and revokes: no entry is left unread.
        let decoded = try History.decodeUnverified(json)
        #expect(decoded.warnings.isEmpty)
        let report = rebuildEntitlements(
            history: decoded.history, asOf: Self.instant, decodingWarnings: decoded.warnings)
        #expect(report.customer == .inactive(.familyRevocation))
        #expect(!report.diagnostics.contains { $0.code == .undecodedSignedString })
    }

    @Test(
        "an unread string is named where it stands: the history in another order names the same entry at its new place"
    )
    func unreadNamedWhereItStands() throws {
        let (built, _) = try Self.signedOnlyRevoke()
        let renewal = NotificationBuilder.notification(
            .didRenew, transaction: built.transactions.first, signed: Date(timeIntervalSince1970: 1_768_000_000))
        let forward = History(transactions: built.transactions, notifications: built.notifications + [renewal])
        let backward = History(transactions: built.transactions, notifications: [renewal] + built.notifications)
        let reports = [forward, backward].map { rebuildEntitlements(history: $0, asOf: Self.instant) }
        for (report, position) in zip(reports, [0, 1]) {
            let path = "notifications[\(position)].data.signedTransactionInfo"
            #expect(report.diagnostics.map(\.message).allSatisfy { $0.hasPrefix("at \(path): ") }, "\(position)")
            #expect(report.diagnostics.map(\.code) == [.undecodedSignedString])
            #expect(report.products.flatMap(\.reasons).contains(Reason(.unknownValues, .unreadEntries(paths: [path]))))
            #expect(report.customer == .inactive(.undetermined))
        }
        // Apart from the position named, the two decide alike.
        var renamed = reports[1]
        renamed.diagnostics = reports[0].diagnostics
        for index in renamed.products.indices { renamed.products[index].reasons = reports[0].products[index].reasons }
        #expect(renamed == reports[0])
    }

    @Test("a notification body whose signedPayload cannot be read is an inactive, undetermined customer, not new")
    func unreadableBody() throws {
        let decoded = try History.decodeUnverified(Data(#"{"signedPayload":"not-a-jws"}"#.utf8))
        #expect(decoded.warnings.map(\.code) == [.undecodableSignedString])
        let report = rebuildEntitlements(
            history: decoded.history, asOf: Self.instant, decodingWarnings: decoded.warnings)
        #expect(report.customer == .inactive(.undetermined))
        #expect(report.diagnostics.map(\.code) == [.undecodableSignedString])
    }

    @Test("the order of the warnings does not change the report")
    func warningOrder() throws {
        let warnings = [
            PayloadDecodingWarning(code: .undecodableSignedString, path: "b", message: "m"),
            PayloadDecodingWarning(code: .undecodableSignedString, path: "a", message: "m"),
            PayloadDecodingWarning(code: .unsignedContentsIgnored, path: "c", message: "m"),
        ]
        let history = try History(jsonData: Data(Self.grantedHistory.utf8))
        let forward = rebuildEntitlements(history: history, asOf: Self.instant, decodingWarnings: warnings)
        let backward = rebuildEntitlements(
            history: history, asOf: Self.instant, decodingWarnings: warnings.reversed())
        #expect(forward == backward)
        #expect(forward.diagnostics.count == 3)
    }
}

@Suite(
    "Unread entries through the entitlements tool",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct UnreadEntryCommandLineTests {
    static let asOf = "2026-01-15T00:00:00Z"

    @Test("rebuild --format json: the diagnostic with its path, no access, exit 0")
    func rebuildJSON() throws {
        let result = try EntitlementsTool.run(
            ["rebuild", "-", "--as-of", Self.asOf, "--format", "json"],
            input: Data(UnreadEntryTests.revokedHistory.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["customerStatus"] as? String == "inactive")
        #expect(report["customerReason"] as? String == "undetermined")
        #expect((report["entitlements"] as? [String: Bool])?["premium"] == false)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["undecodable_signed_string"])
        #expect(diagnostics.first?["severity"] as? String == "error")
        #expect((diagnostics.first?["message"] as? String)?.contains(UnreadEntryTests.path) == true)
    }

    @Test("explain: the diagnostic and the evidence name the entry that could not be read")
    func explain() throws {
        let result = try EntitlementsTool.run(
            ["explain", "-", "--as-of", Self.asOf], input: Data(UnreadEntryTests.revokedHistory.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("undecodable_signed_string"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("could not be read"), "\(result.standardOutput)")
    }

    @Test("reconcile: the line's report carries the diagnostic with the path in the line, and grants nothing")
    func reconcile() throws {
        let history = UnreadEntryTests.revokedHistory.replacingOccurrences(of: "\n", with: "")
        let input = #"{"customer":"member","history":\#(history)}"# + "\n"
        let result = try EntitlementsTool.run(["reconcile", "--as-of", Self.asOf], input: Data(input.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let line = try #require(
            result.standardOutput.split(separator: "\n").first.flatMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            })
        let report = try #require(line["report"] as? [String: Any])
        #expect(report["customerStatus"] as? String == "inactive")
        #expect((report["entitlements"] as? [String: Bool])?["premium"] == false)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let message = try #require(diagnostics.first?["message"] as? String)
        #expect(message.hasPrefix("at history.\(UnreadEntryTests.path): "), "\(message)")
    }
}
