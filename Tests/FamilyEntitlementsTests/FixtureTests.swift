import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The files of `Fixtures/` decode with the library's own decoders, cover every notification Apple documents, and
/// hold the decision the engine reaches: the fixtures cannot drift from the decoders or the engine.
struct FixtureTests {
    // MARK: - Every file decodes without losing a field

    struct FixtureFileCase: CustomTestStringConvertible, Sendable {
        var path: String
        var testDescription: String { "\(path) decodes and encodes back to the same JSON" }

        static func all() throws -> [FixtureFileCase] {
            try FixtureFiles.allPaths().map(FixtureFileCase.init)
        }
    }

    /// Decoding then encoding gives the file's JSON back, so a misspelt key or a value of the wrong type, which the
    /// decoders would silently drop or reject, cannot hide in a fixture.
    @Test(arguments: try FixtureFileCase.all())
    func everyFileDecodes(_ row: FixtureFileCase) throws {
        let data = try FixtureFiles.data(row.path)
        let file = try JSONValue.canonical(data)
        switch (row.path.split(separator: "/").first, row.path.split(separator: "/").last) {
        case ("Notifications"?, _):
            let notification = try NotificationPayload(jsonData: data)
            #expect(try JSONValue.canonical(notification.jsonData()) == file)
        case ("Scenarios"?, "history.json"?):
            let decoded = try History.decodeUnverified(data)
            #expect(decoded.unverifiedJWSCount == 0, "a history fixture holds decoded payloads, not signed strings")
            #expect(try JSONValue.canonical(decoded.history.jsonData(), droppingEmptyArraysAbsentFrom: data) == file)
        case ("APIResponses"?, _):
            let document = try AppStoreDocument(data: data)
            #expect(try JSONValue.canonical(document.jsonData()) == file)
        case ("Scenarios"?, "catalog.json"?):
            let catalog = try ProductCatalog(jsonData: data)
            #expect(try JSONValue.canonical(catalog.jsonData()) == file)
        case ("Scenarios"?, "expected.json"?):
            let report = try JSONDecoder().decode(EntitlementReport.self, from: data)
            #expect(try JSONValue.canonical(report.contractJSON()) == file)
        default:
            Issue.record(
                """
                \(row.path) is neither Notifications/*.json, APIResponses/*.json nor Scenarios/*/history.json, \
                catalog.json or expected.json
                """
            )
        }
    }

    /// The typed catalogs name exactly the files that ship: no file without a case, no case without a file.
    @Test
    func typedCatalogsListEveryFile() throws {
        let paths = Set(try FixtureFiles.allPaths())
        let notificationFiles = paths.filter { $0.hasPrefix("Notifications/") }
        #expect(notificationFiles == Set(NotificationFixture.allCases.map(\.path)))
        let scenarioFolders = Set(
            paths.filter { $0.hasPrefix("Scenarios/") }.compactMap { $0.split(separator: "/").dropFirst().first }
                .map(String.init))
        #expect(scenarioFolders == Set(Scenario.allCases.map(\.rawValue)))
        for scenario in Scenario.allCases {
            #expect(paths.contains("\(scenario.folder)/history.json"), "\(scenario) has no history.json")
            #expect(paths.contains("\(scenario.folder)/expected.json"), "\(scenario) has no expected.json")
        }
    }

    /// A notificationUUID names one notification: files that share one (a customer's history at several instants)
    /// carry the same notification.
    @Test
    func notificationUUIDsNameOneNotificationEach() throws {
        var sources: [(path: String, notification: NotificationPayload)] = []
        for fixture in NotificationFixture.allCases {
            sources.append((fixture.path, try fixture.payload()))
        }
        for scenario in Scenario.allCases {
            sources += try scenario.history().notifications.map { ("\(scenario.folder)/history.json", $0) }
        }
        var first: [String: NotificationPayload] = [:]
        for (path, notification) in sources {
            let uuid = try #require(notification.notificationUUID, "a notification in \(path) has no notificationUUID")
            if let earlier = first[uuid] {
                #expect(earlier == notification, "\(path) reuses notificationUUID \(uuid) for another notification")
            } else {
                first[uuid] = notification
            }
        }
    }

    // MARK: - Every documented notification has a fixture

    struct DocumentedNotificationCase: CustomTestStringConvertible, Sendable {
        var type: NotificationType
        var subtype: NotificationSubtype?
        var testDescription: String { "\(type) \(subtype?.rawValue ?? "without subtype") has a fixture" }

        /// Section 3 of the App Store facts: every V2 type with each documented subtype, or none.
        static let all: [DocumentedNotificationCase] = {
            let table: [(NotificationType, [NotificationSubtype?])] = [
                (.subscribed, [.initialBuy, .resubscribe]),
                (.didRenew, [nil, .billingRecovery]),
                (.didChangeRenewalPref, [.upgrade, .downgrade, nil]),
                (.didChangeRenewalStatus, [.autoRenewEnabled, .autoRenewDisabled, nil]),
                (.offerRedeemed, [.initialBuy, .resubscribe, .upgrade, .downgrade, nil]),
                (.didFailToRenew, [nil, .gracePeriod]),
                (.gracePeriodExpired, [nil]),
                (.expired, [.voluntary, .billingRetry, .priceIncrease, .productNotForSale]),
                (.priceIncrease, [.pending, .accepted]),
                (.renewalExtension, [.summary, .failure]),
                (.externalPurchaseToken, [.created, .activeTokenReminder, .unreported]),
                (.refund, [nil]), (.refundDeclined, [nil]), (.refundReversed, [nil]), (.consumptionRequest, [nil]),
                (.revoke, [nil]), (.renewalExtended, [nil]), (.oneTimeCharge, [nil]), (.rescindConsent, [nil]),
                (.test, [nil]), (.metadataUpdate, [nil]), (.migration, [nil]), (.priceChange, [nil]),
            ]
            return table.flatMap { type, subtypes in
                subtypes.map { DocumentedNotificationCase(type: type, subtype: $0) }
            }
        }()
    }

    @Test(arguments: DocumentedNotificationCase.all)
    func everyDocumentedNotificationHasAFixture(_ row: DocumentedNotificationCase) throws {
        let fixtures = NotificationFixture.allCases.filter {
            $0.notificationType == row.type && $0.subtype == row.subtype
        }
        #expect(!fixtures.isEmpty)
        for fixture in fixtures {
            let payload = try fixture.payload()
            #expect(payload.notificationType == row.type, "\(fixture.path)")
            #expect(payload.subtype == row.subtype, "\(fixture.path)")
        }
    }

    /// The table above covers every type and subtype the library documents, so a new one needs a fixture too.
    @Test
    func documentedTableCoversTheLibrarysValues() {
        let rows = DocumentedNotificationCase.all
        #expect(Set(rows.map(\.type)) == Set(NotificationType.documentedValues))
        #expect(Set(rows.compactMap(\.subtype)) == Set(NotificationSubtype.documentedValues))
    }

    struct FamilyFormCase: CustomTestStringConvertible, Sendable {
        /// Whose copies of a notification Apple sends.
        enum Recipients: String, Sendable {
            case purchaserAndMembers = "the purchaser and each family member"
            case purchaserOnly = "the purchaser only"
            case membersOnly = "family members only"
        }

        var type: NotificationType
        var subtype: NotificationSubtype?
        var recipients: Recipients
        var testDescription: String {
            "\(type)\(subtype.map { " \($0)" } ?? ""): fixtures for \(recipients.rawValue)"
        }

        /// Section 4 of the App Store facts: members get their own copies of renewal events and REVOKE, never
        /// REFUND, REFUND_DECLINED or PRICE_INCREASE.
        static let all: [FamilyFormCase] = [
            .init(type: .subscribed, subtype: .initialBuy, recipients: .purchaserAndMembers),
            .init(type: .subscribed, subtype: .resubscribe, recipients: .purchaserAndMembers),
            .init(type: .didRenew, recipients: .purchaserAndMembers),
            .init(type: .didRenew, subtype: .billingRecovery, recipients: .purchaserAndMembers),
            .init(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, recipients: .purchaserAndMembers),
            .init(type: .didChangeRenewalStatus, subtype: .autoRenewEnabled, recipients: .purchaserAndMembers),
            .init(type: .didFailToRenew, recipients: .purchaserAndMembers),
            .init(type: .didFailToRenew, subtype: .gracePeriod, recipients: .purchaserAndMembers),
            .init(type: .gracePeriodExpired, recipients: .purchaserAndMembers),
            .init(type: .expired, subtype: .voluntary, recipients: .purchaserAndMembers),
            .init(type: .expired, subtype: .billingRetry, recipients: .purchaserAndMembers),
            .init(type: .expired, subtype: .priceIncrease, recipients: .purchaserAndMembers),
            .init(type: .expired, subtype: .productNotForSale, recipients: .purchaserAndMembers),
            .init(type: .oneTimeCharge, recipients: .purchaserAndMembers),
            .init(type: .revoke, recipients: .membersOnly),
            .init(type: .refund, recipients: .purchaserOnly),
            .init(type: .refundDeclined, recipients: .purchaserOnly),
            .init(type: .priceIncrease, subtype: .pending, recipients: .purchaserOnly),
            .init(type: .priceIncrease, subtype: .accepted, recipients: .purchaserOnly),
        ]

        init(type: NotificationType, subtype: NotificationSubtype? = nil, recipients: Recipients) {
            self.type = type
            self.subtype = subtype
            self.recipients = recipients
        }
    }

    @Test(arguments: FamilyFormCase.all)
    func familyFormsFollowApple(_ row: FamilyFormCase) {
        let ownerships = Set(
            NotificationFixture.allCases.filter { $0.notificationType == row.type && $0.subtype == row.subtype }
                .compactMap(\.ownership))
        switch row.recipients {
        case .purchaserAndMembers: #expect(ownerships == [.purchased, .familyShared])
        case .purchaserOnly: #expect(ownerships == [.purchased])
        case .membersOnly: #expect(ownerships == [.familyShared])
        }
    }

    struct NotificationFileCase: CustomTestStringConvertible, Sendable {
        var fixture: NotificationFixture
        var testDescription: String { "\(fixture.path) holds what its name says, signed, dated and decoded" }
    }

    @Test(arguments: NotificationFixture.allCases.map(NotificationFileCase.init))
    func notificationFileMatchesItsName(_ row: NotificationFileCase) throws {
        let payload = try row.fixture.payload()
        #expect(payload.notificationType == row.fixture.notificationType)
        #expect(payload.subtype == row.fixture.subtype)
        #expect(payload.version == "2.0")
        #expect(payload.signedDate != nil)
        #expect(payload.notificationUUID.flatMap { UUID(uuidString: $0) } != nil)
        let environment = payload.data?.environment ?? payload.summary?.environment ?? payload.appData?.environment
        #expect(environment == .production || payload.externalPurchaseToken != nil)
        let transaction = payload.data?.transactionInfo
        #expect(transaction?.inAppOwnershipType == row.fixture.ownership)
        #expect(transaction == nil || transaction?.signedDate != nil)
        #expect(payload.data?.signedTransactionInfo == nil && payload.data?.signedRenewalInfo == nil)
        if let renewalInfo = payload.data?.renewalInfo {
            #expect(renewalInfo.originalTransactionId == transaction?.originalTransactionId)
            #expect(renewalInfo.signedDate != nil)
        }
    }

    // MARK: - Every scenario holds the engine's decision

    struct ScenarioCase: CustomTestStringConvertible, Sendable {
        var scenario: Scenario
        var testDescription: String { "\(scenario.rawValue): \(scenario.summary)" }
    }

    /// `expected.json` is what `entitlements rebuild --format json` prints for the scenario (the library's JSON report
    /// encoding), key for key and value for value, written as `ScenarioFile.render` writes it.
    /// `REGENERATE_SCENARIOS=1 swift test --filter FixtureTests` rewrites every file from the engine, so that a change
    /// of the evidence is one command, reviewed as a diff; without it, a file that drifts fails here.
    @Test(arguments: Scenario.allCases.map(ScenarioCase.init))
    func storedDecisionIsTheEngines(_ row: ScenarioCase) throws {
        let decided = try row.scenario.rebuild()
        let engine = try ScenarioFile.render(decided.contractJSON())
        let url = ScenarioFile.sourceURL("\(row.scenario.folder)/expected.json")
        if ScenarioFile.regenerating, try String(contentsOf: url, encoding: .utf8) != engine {
            try Data(engine.utf8).write(to: url)
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        #expect(
            stored == engine,
            """
            \(row.scenario.folder)/expected.json differs from the engine (run REGENERATE_SCENARIOS=1 swift test \
            --filter FixtureTests):
            \(lineDifference(from: stored, to: engine))
            """)
        if !ScenarioFile.regenerating {
            #expect(try row.scenario.expectedReport() == decided, "the shipped expected.json decodes to the decision")
        }
    }

    /// The table of docs/testing-your-code.md lists every scenario with its `summary` and its decision, generated
    /// with the expected files.
    @Test
    func scenarioTableIsGenerated() throws {
        let url = ScenarioFile.sourceURL("../docs/testing-your-code.md")
        let document = try String(contentsOf: url, encoding: .utf8)
        let rendered = try ScenarioFile.table(Scenario.allCases.map { ($0, try $0.rebuild().contractJSON()) })
        let begin = "<!-- scenario table: generated by REGENERATE_SCENARIOS=1 swift test --filter FixtureTests -->\n"
        let end = "<!-- end of scenario table -->\n"
        let start = try #require(document.range(of: begin), "docs/testing-your-code.md has no scenario table")
        let stop = try #require(document.range(of: end, range: start.upperBound..<document.endIndex))
        let stored = String(document[start.upperBound..<stop.lowerBound])
        if ScenarioFile.regenerating, stored != rendered {
            let updated = document[..<start.upperBound] + rendered + document[stop.lowerBound...]
            try Data(updated.utf8).write(to: url)
        }
        #expect(
            stored == rendered || ScenarioFile.regenerating,
            """
            the scenario table of docs/testing-your-code.md differs (run REGENERATE_SCENARIOS=1 swift test \
            --filter FixtureTests):
            \(lineDifference(from: stored, to: rendered))
            """)
    }
}

/// How the scenarios' `expected.json` files and their table are written.
enum ScenarioFile {
    /// Whether this run rewrites the files from the engine: `REGENERATE_SCENARIOS=1`.
    static let regenerating = ProcessInfo.processInfo.environment["REGENERATE_SCENARIOS"] == "1"

    /// A file under `Fixtures/` in the source tree (not the copy the test bundle carries, which a rewrite does not
    /// reach until the next build).
    static func sourceURL(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(path)
            .standardizedFileURL
    }

    /// JSON as the fixtures write it: keys sorted, two spaces of indentation, `"key": value`, empty arrays and
    /// objects as `[]` and `{}`, and a final line break.
    static func render(_ json: Data) throws -> String {
        try render(JSONDecoder().decode(JSONValue.self, from: json), indent: "") + "\n"
    }

    private static func render(_ value: JSONValue, indent: String) -> String {
        let inner = indent + "  "
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .number(let number): return "\(number)"
        case .string(let text): return quoted(text)
        case .array(let elements):
            guard !elements.isEmpty else { return "[]" }
            let lines = elements.map { inner + render($0, indent: inner) }
            return "[\n" + lines.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            guard !members.isEmpty else { return "{}" }
            let lines = members.keys.sorted().map { key in
                inner + quoted(key) + ": " + render(members[key] ?? .null, indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The Markdown table of the scenarios: the case, its `summary`, and the decision of its report.
    static func table(_ scenarios: [(Scenario, Data)]) throws -> String {
        var lines = ["| `Scenario` | What it shows | The decision |", "| --- | --- | --- |"]
        for (scenario, json) in scenarios {
            let report = try JSONDecoder().decode(JSONValue.self, from: json)
            let name = String(describing: scenario)
            let summary = scenario.summary.prefix(1).uppercased() + scenario.summary.dropFirst()
            lines.append("| `.\(name)` | \(summary) | \(decision(report)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `premium.monthly revoked (refund, inferred); stickers active; customer inactive (refunded)`.
    private static func decision(_ report: JSONValue) -> String {
        guard case .object(let members) = report else { return "" }
        var parts: [String] = []
        if case .array(let products)? = members["products"] {
            for case .object(let product) in products {
                guard case .string(let id)? = product["productId"], case .string(let state)? = product["state"] else {
                    continue
                }
                var text = id.replacingOccurrences(of: DemoApp.bundleId + ".", with: "") + " " + state
                if case .string(let cause)? = product["revocationCause"] {
                    text += product["causeInferred"] == .bool(true) ? " (\(cause), inferred)" : " (\(cause))"
                }
                parts.append(text)
            }
        }
        if case .string(let status)? = members["customerStatus"] {
            if case .string(let reason)? = members["customerReason"], status != "active" {
                parts.append("customer \(status) (\(reason))")
            } else {
                parts.append("customer \(status)")
            }
        }
        return parts.joined(separator: "; ")
    }
}

/// The lines that differ between two texts: `-` for a line only in `old`, `+` for a line only in `new`.
private func lineDifference(from old: String, to new: String) -> String {
    let difference = new.split(separator: "\n").difference(from: old.split(separator: "\n"))
    return difference.map { change in
        switch change {
        case .remove(let offset, let line, _): "- expected.json line \(offset + 1): \(line)"
        case .insert(let offset, let line, _): "+ engine line \(offset + 1): \(line)"
        }
    }.joined(separator: "\n")
}

extension JSONValue {
    /// JSON text with sorted keys and one value per line, so that two documents compare line by line.
    ///
    /// `droppingEmptyArraysAbsentFrom` removes the top-level empty arrays that the original document leaves out, as
    /// a history file may.
    static func canonical(_ data: Data, droppingEmptyArraysAbsentFrom original: Data? = nil) throws -> String {
        var value = try JSONDecoder().decode(JSONValue.self, from: data)
        if let original, case .object(var members) = value,
            case .object(let originalMembers) = try JSONDecoder().decode(JSONValue.self, from: original)
        {
            for (key, member) in members where originalMembers[key] == nil && member == .array([]) {
                members[key] = nil
            }
            value = .object(members)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
