import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// A member named twice in one object is refused by every reader: readers that keep the first occurrence (Foundation's
/// `JSONDecoder`) and readers that keep the last (Python, JavaScript, Go) would decide opposite things from the same
/// bytes. The library's own documents are refused with `duplicate_member` at the path of the second occurrence; an
/// Apple payload inside a signed string is an entry that cannot be read (`undecodable_signed_string`, rule 10).
struct DuplicateMemberTests {
    /// One valid document, the readers it goes through, and a seed choosing the member to write twice.
    struct MutationCase: CustomTestStringConvertible, Sendable {
        var name: String
        var form: Form
        var json: [UInt8]
        var seed: UInt64
        var testDescription: String { "\(name), seed \(seed)" }
    }

    /// What kind of document a case holds, which decides the readers it goes through.
    enum Form: Sendable {
        case history, ledger, catalog, report, transaction, renewalInfo, notification, apiBody
    }

    static let seedsPerDocument: [UInt64] = Array(1...6)

    /// Valid documents of every kind: shipped scenarios (history, catalog, stored report), a ledger of each, the App
    /// Store Server API bodies of `Fixtures/APIResponses`, decoded notifications of `Fixtures/Notifications`, and Apple
    /// payloads and histories made by the test support's builders.
    static let documents: [(name: String, form: Form, json: Data)] = {
        var documents: [(String, Form, Data)] = []
        for scenario in Scenario.allCases.enumerated().filter({ $0.offset % 5 == 0 }).map(\.element) {
            guard let history = try? scenario.historyData(), let expected = try? scenario.expectedData() else {
                continue
            }
            documents.append(("\(scenario.rawValue) history", .history, history))
            documents.append(("\(scenario.rawValue) stored report", .report, expected))
            if let catalog = try? FixtureFiles.data("\(scenario.folder)/catalog.json") {
                documents.append(("\(scenario.rawValue) catalog", .catalog, catalog))
            }
            if let history = try? scenario.history(), let ledger = try? CustomerLedger(history).jsonData() {
                documents.append(("\(scenario.rawValue) ledger", .ledger, ledger))
            }
        }
        for path in (try? FixtureFiles.allPaths()) ?? [] where path.hasPrefix("APIResponses/") {
            if let data = try? FixtureFiles.data(path) { documents.append((path, .apiBody, data)) }
        }
        for path in ["Notifications/REVOKE.FAMILY_SHARED.json", "Notifications/DID_RENEW.PURCHASED.json"] {
            if let data = try? FixtureFiles.data(path) { documents.append((path, .notification, data)) }
        }
        let family = FamilyBuilder(purchased: Date(timeIntervalSince1970: 1_767_225_600), members: 2, periods: 2)
            .memberLeaves(1, at: Date(timeIntervalSince1970: 1_768_000_000)).build()
        let member = family.member(1)
        if let data = try? member.jsonData() { documents.append(("built family member history", .history, data)) }
        if let data = try? CustomerLedger(member).jsonData() { documents.append(("built ledger", .ledger, data)) }
        let purchase = TransactionBuilder.subscription(purchased: Date(timeIntervalSince1970: 1_767_225_600))
        let refunded = TransactionBuilder.refunded(purchase, at: Date(timeIntervalSince1970: 1_768_000_000))
        for (index, transaction) in [purchase, refunded].enumerated() {
            if let data = try? transaction.jsonData() {
                documents.append(("built transaction \(index)", .transaction, data))
            }
        }
        for (index, notification) in member.notifications.prefix(2).enumerated() {
            if let data = try? notification.jsonData() {
                documents.append(("built notification \(index)", .notification, data))
            }
        }
        let renewalInfo = RenewalInfoBuilder.billingRetry(
            purchase, gracePeriodEnds: Date(timeIntervalSince1970: 1_769_000_000),
            signed: Date(timeIntervalSince1970: 1_768_500_000))
        if let data = try? renewalInfo.jsonData() { documents.append(("built renewal info", .renewalInfo, data)) }
        return documents
    }()

    static let cases: [MutationCase] = documents.flatMap { document in
        seedsPerDocument.map { seed in
            MutationCase(name: document.name, form: document.form, json: Array(document.json), seed: seed)
        }
    }

    @Test("the generated documents cover every form, and each has members to write twice")
    func coverage() {
        let forms = Set(Self.documents.map { "\($0.form)" })
        #expect(forms.count == 8, "\(forms.sorted())")
        for document in Self.documents {
            #expect(!JSONMembers.members(of: Array(document.json)).isEmpty, "\(document.name)")
        }
    }

    @Test("a member written twice at a random depth is refused by every reader, at its path", arguments: cases)
    func everyReaderRefuses(_ mutation: MutationCase) throws {
        let members = JSONMembers.members(of: mutation.json)
        var random = SeededRandom(seed: mutation.seed)
        let depths = Array(Set(members.map(\.depth))).sorted()
        let depth = try #require(depths.randomElement(using: &random))
        let member = try #require(members.filter { $0.depth == depth }.randomElement(using: &random))
        let mutated = Data(JSONMembers.writingTwice(member, in: mutation.json))
        let context = "\(mutation.testDescription): \(member.path) at depth \(depth)"
        for (reader, read) in Self.readers(of: mutation.form) {
            Self.expectRefusal(at: member.path, context: "\(reader), \(context)") { () throws(PayloadDecodingError) in
                try read(mutated)
            }
        }
        // The same member inside a signed string: an entry that cannot be read, at the string's path.
        guard let (body, path) = Self.signedBody(holding: mutated, form: mutation.form) else { return }
        let decoded = try History.decodeUnverified(body)
        let warning = try #require(decoded.warnings.first { $0.path == path }, "\(context): \(decoded.warnings)")
        #expect(warning.code == .undecodableSignedString, "\(context)")
        #expect(warning.message.contains("duplicate_member at \(member.path)"), "\(context): \(warning.message)")
        let report = rebuildEntitlements(
            history: decoded.history, asOf: Date(timeIntervalSince1970: 1_768_435_200),
            decodingWarnings: decoded.warnings)
        #expect(report.customer == .inactive(.undetermined), "\(context)")
        #expect(report.entitlements.values.allSatisfy { !$0 }, "\(context)")
    }

    /// Each reader of a form, by name.
    static func readers(of form: Form) -> [(String, @Sendable (Data) throws(PayloadDecodingError) -> Void)] {
        let unverified: (String, @Sendable (Data) throws(PayloadDecodingError) -> Void) = (
            "History.decodeUnverified",
            { (data) throws(PayloadDecodingError) in _ = try History.decodeUnverified(data) }
        )
        let document: (String, @Sendable (Data) throws(PayloadDecodingError) -> Void) = (
            "AppStoreDocument", { (data) throws(PayloadDecodingError) in _ = try AppStoreDocument(data: data) }
        )
        switch form {
        case .history:
            return [
                ("History(jsonData:)", { (data) throws(PayloadDecodingError) in _ = try History(jsonData: data) }),
                (
                    "History reference",
                    { (data) throws(PayloadDecodingError) in _ = try History(referenceJSONData: data) }
                ),
                unverified,
            ]
        case .ledger:
            return [
                ("CustomerLedger", { (data) throws(PayloadDecodingError) in _ = try CustomerLedger(jsonData: data) }),
                (
                    "History.decodeUnverifiedLedger",
                    { (data) throws(PayloadDecodingError) in _ = try History.decodeUnverifiedLedger(data) }
                ),
                unverified,
            ]
        case .catalog:
            return [
                ("ProductCatalog", { (data) throws(PayloadDecodingError) in _ = try ProductCatalog(jsonData: data) })
            ]
        case .report:
            return [
                (
                    "EntitlementReport",
                    { (data) throws(PayloadDecodingError) in _ = try EntitlementReport(jsonData: data) }
                )
            ]
        case .transaction:
            return [
                (
                    "TransactionPayload",
                    { (data) throws(PayloadDecodingError) in _ = try TransactionPayload(jsonData: data) }
                ),
                (
                    "TransactionPayload reference",
                    { (data) throws(PayloadDecodingError) in _ = try TransactionPayload(referenceJSONData: data) }
                ),
                document, unverified,
            ]
        case .renewalInfo:
            return [
                (
                    "RenewalInfoPayload",
                    { (data) throws(PayloadDecodingError) in _ = try RenewalInfoPayload(jsonData: data) }
                ),
                document,
            ]
        case .notification:
            return [
                (
                    "NotificationPayload",
                    { (data) throws(PayloadDecodingError) in _ = try NotificationPayload(jsonData: data) }
                ),
                (
                    "NotificationPayload reference",
                    { (data) throws(PayloadDecodingError) in _ = try NotificationPayload(referenceJSONData: data) }
                ),
                document, unverified,
            ]
        case .apiBody:
            return [document, unverified]
        }
    }

    /// Expects `read` to throw `duplicate_member` at `path`.
    static func expectRefusal(
        at path: String, context: String, _ read: () throws(PayloadDecodingError) -> Void
    ) {
        do throws(PayloadDecodingError) {
            try read()
            Issue.record("read without refusing the member written twice: \(context)")
        } catch {
            #expect(error.code == .duplicateMember, "\(context): \(error)")
            #expect(error.path == path, "\(context): \(error)")
        }
    }

    /// An API body holding `payload` as a signed string, and the string's path; nil for forms Apple never signs.
    static func signedBody(holding payload: Data, form: Form) -> (Data, String)? {
        let signed = FakeJWSSigner().sign(json: payload)
        switch form {
        case .transaction:
            return (Data(#"{"bundleId":"b","signedTransactions":["\#(signed)"]}"#.utf8), "signedTransactions[0]")
        case .notification:
            return (Data(#"{"signedPayload":"\#(signed)"}"#.utf8), "signedPayload")
        case .renewalInfo:
            let body =
                #"{"bundleId":"b","data":[{"subscriptionGroupIdentifier":"g","lastTransactions":"#
                + #"[{"originalTransactionId":"1","status":1,"signedRenewalInfo":"\#(signed)"}]}]}"#
            return (Data(body.utf8), "data[0].lastTransactions[0].signedRenewalInfo")
        default:
            return nil
        }
    }

    // MARK: - Named cases

    /// The cases the generated test stands for, named: each decides one way when the first is kept and the other way
    /// when the last is.
    struct NamedCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var json: String
        var path: String
        var read: @Sendable (Data) throws(PayloadDecodingError) -> Void
    }

    static let named: [NamedCase] = [
        NamedCase(
            testDescription: "a history naming notifications twice: a REVOKE under the second is never dropped",
            json: #"{"transactions":[],"notifications":[],"notifications":[{"notificationType":"REVOKE"}]}"#,
            path: "notifications", read: { (data) throws(PayloadDecodingError) in _ = try History(jsonData: data) }),
        NamedCase(
            testDescription: "a ledger naming version twice (1, then 99) is no ledger of version 1",
            json: #"{"version":1,"version":99}"#, path: "version",
            read: { (data) throws(PayloadDecodingError) in _ = try CustomerLedger(jsonData: data) }),
        NamedCase(
            testDescription: "a ledger naming notifications twice",
            json: #"{"version":1,"notifications":[],"notifications":[{"notificationType":"REVOKE"}]}"#,
            path: "notifications",
            read: { (data) throws(PayloadDecodingError) in _ = try History.decodeUnverified(data) }),
        NamedCase(
            testDescription: "a catalog listing a product twice",
            json: #"{"products":{"pro":{"entitlements":["pro"]},"pro":{"entitlements":[]}}}"#, path: "products.pro",
            read: { (data) throws(PayloadDecodingError) in _ = try ProductCatalog(jsonData: data) }),
        NamedCase(
            testDescription: "a catalog listing a product twice, once with a Kelvin sign (canonically the same id)",
            json: #"{"products":{"SKU":{"entitlements":["pro"]},"S\u212AU":{"entitlements":[]}}}"#,
            path: "products.S\u{212A}U",
            read: { (data) throws(PayloadDecodingError) in _ = try ProductCatalog(jsonData: data) }),
        NamedCase(
            testDescription: "a transaction naming revocationDate twice",
            json: #"{"transactionId":"1","revocationDate":1767225600000,"revocationDate":null}"#,
            path: "revocationDate",
            read: { (data) throws(PayloadDecodingError) in _ = try TransactionPayload(jsonData: data) }),
    ]

    @Test("a member written twice is refused, whichever occurrence a reader would keep", arguments: named)
    func namedCases(_ row: NamedCase) {
        Self.expectRefusal(at: row.path, context: row.testDescription) { () throws(PayloadDecodingError) in
            try row.read(Data(row.json.utf8))
        }
    }

    @Test("a catalog whose products are an array (listing an id twice or not) is refused as wrong_type")
    func catalogAsArray() {
        let json = #"{"products":[{"pro":{"entitlements":["pro"]}},{"pro":{"entitlements":[]}}]}"#
        #expect(throws: PayloadDecodingError.self) { try ProductCatalog(jsonData: Data(json.utf8)) }
    }
}

/// The members of a JSON text, found by a reader of the test's own (not the library's): each with its path in the
/// library's form (`transactions[3].price`), its depth, and the bytes from its name's opening quote to its value's end.
enum JSONMembers {
    struct Member {
        var path: String
        var depth: Int
        var range: Range<Int>
    }

    static func members(of bytes: [UInt8]) -> [Member] {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        reader.value(path: "", depth: 0)
        return reader.members
    }

    /// The text with `member` written again right after itself, so that the second occurrence has the same path.
    static func writingTwice(_ member: Member, in bytes: [UInt8]) -> [UInt8] {
        Array(bytes[..<member.range.upperBound]) + [UInt8(ascii: ",")] + Array(bytes[member.range])
            + Array(bytes[member.range.upperBound...])
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var members: [Member] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value(path: String, depth: Int) {
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                skipSpace()
                while index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    let start = index
                    let name = string()
                    skipSpace()
                    index += 1  // the colon
                    skipSpace()
                    let memberPath = path.isEmpty ? name : path + "." + name
                    value(path: memberPath, depth: depth + 1)
                    members.append(Member(path: memberPath, depth: depth, range: start..<index))
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        skipSpace()
                    }
                }
                index += 1  // the closing brace
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                var element = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
                    value(path: path + "[\(element)]", depth: depth + 1)
                    element += 1
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        skipSpace()
                    }
                }
                index += 1
            case UInt8(ascii: "\""):
                _ = string()
            default:
                while index < bytes.count, !",}] \n\r\t".utf8.contains(bytes[index]) { index += 1 }
            }
        }

        /// The string at `index`, decoded by Foundation, with `index` moved past it.
        mutating func string() -> String {
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            index += 1
            let text = try? JSONSerialization.jsonObject(with: Data(bytes[start..<index]), options: .fragmentsAllowed)
            return text as? String ?? ""
        }
    }
}
