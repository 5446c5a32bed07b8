import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// A history file, in any of its forms, and what `History.decodeUnverified` must make of it.
struct HistoryFileCase: CustomTestStringConvertible, Sendable {
    enum Outcome: Sendable {
        case error(PayloadDecodingError.Code, path: String, messageContains: String = "")
        case history(transactions: Int, renewalInfos: Int = 0, notifications: Int = 0)
    }

    var name: String
    var bytes: [UInt8]
    var outcome: Outcome
    var testDescription: String { name }

    init(_ name: String, _ json: String, _ outcome: Outcome) {
        self.init(name, bytes: Array(json.utf8), outcome)
    }

    init(_ name: String, bytes: [UInt8], _ outcome: Outcome) {
        self.name = name
        self.bytes = bytes
        self.outcome = outcome
    }

    static let transaction = #"{"transactionId":"1","price":1990}"#

    static let all: [HistoryFileCase] = [
        .init(
            "history object -> its entries", #"{"transactions":[\#(transaction)],"renewalInfos":[{}]}"#,
            .history(transactions: 1, renewalInfos: 1)),
        .init(
            "history object with null lists -> empty lists, as JSONDecoder reads them",
            #"{"transactions":null,"notifications":[]}"#, .history(transactions: 0)),
        .init(
            "history object, duplicate transactions member -> duplicate_member, neither list read",
            #"{"transactions":[\#(transaction)],"transactions":[\#(transaction),\#(transaction)]}"#,
            .error(.duplicateMember, path: "transactions", messageContains: "appears twice")),
        .init(
            "bare array of transactions -> the transactions", "[\(transaction), \(transaction)]",
            .history(transactions: 2)),
        .init(
            "bare array after a byte order mark -> the transactions",
            bytes: [0xEF, 0xBB, 0xBF] + Array("[\(transaction)]".utf8), .history(transactions: 1)),
        .init(
            "bare array after tab, carriage return, line feed and space -> the transactions",
            "\t\r\n [\(transaction)]", .history(transactions: 1)),
        .init(
            "history object, trailing comma in transactions -> malformed_json at its byte offset",
            #"{"transactions":[\#(transaction),]}"#,
            .error(.malformedJSON, path: "", messageContains: "byte offset 52")),
        .init(
            "history object, trailing comma after its last member -> malformed_json",
            #"{"transactions":[],}"#, .error(.malformedJSON, path: "", messageContains: "trailing comma")),
        .init(
            "bare array, trailing comma -> malformed_json at its byte offset", "[\(transaction),]",
            .error(.malformedJSON, path: "", messageContains: "byte offset 36")),
        .init(
            "history object in UTF-16LE -> malformed_json at byte 0",
            bytes: [0xFF, 0xFE] + #"{"transactions":[]}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            .error(.malformedJSON, path: "", messageContains: "byte offset 0")),
        .init(
            "bare array in UTF-16LE without a byte order mark -> malformed_json",
            bytes: "[\(transaction)]".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            .error(.malformedJSON, path: "")),
        .init(
            "history object, wrong type -> wrong_type at transactions[1].price",
            #"{"transactions":[{},{"price":"1.99"}]}"#, .error(.wrongType, path: "transactions[1].price")),
        .init(
            "history object, bad renewal date -> invalid_date at renewalInfos[0].renewalDate",
            #"{"renewalInfos":[{"renewalDate":1e300}]}"#, .error(.invalidDate, path: "renewalInfos[0].renewalDate")),
        .init(
            "history object, bad nested transaction -> wrong_type at notifications[0].data.transactionInfo.quantity",
            #"{"notifications":[{"data":{"transactionInfo":{"quantity":"2"}}}]}"#,
            .error(.wrongType, path: "notifications[0].data.transactionInfo.quantity")),
        .init(
            "history object, transactions not a list -> wrong_type at transactions", #"{"transactions":{}}"#,
            .error(.wrongType, path: "transactions")),
        .init(
            "history object, a null transaction -> missing_value at transactions[0]", #"{"transactions":[null]}"#,
            .error(.missingValue, path: "transactions[0]")),
        .init(
            "bare array, wrong type -> wrong_type at [1].price", #"[{}, {"price":"1.99"}]"#,
            .error(.wrongType, path: "[1].price")),
        .init(
            "bare array of numbers -> wrong_type at [0]", "[1]", .error(.wrongType, path: "[0]")),
        .init(
            "history object, a wrong type before a syntax error -> malformed_json, the syntax first",
            #"{"transactions":[{"price":"x"}],"renewalInfos":[,]}"#, .error(.malformedJSON, path: "")),
        .init(
            "history object, a misspelt notifications key -> unknown_key naming it, never a history without it",
            #"{"transactions":[\#(transaction)],"notifcations":[{"notificationType":"REVOKE"}]}"#,
            .error(.unknownKey, path: "notifcations", messageContains: "a history has no key \"notifcations\"")),
        .init(
            "history object, a key in another case -> unknown_key naming it",
            #"{"Notifications":[],"transactions":[]}"#, .error(.unknownKey, path: "Notifications")),
        .init(
            "a stored ledger (it has version) -> the history it holds",
            #"{"version":1,"transactions":[\#(transaction)]}"#, .history(transactions: 1)),
        .init(
            "a ledger of a version this release does not know -> unsupported_version, never a history",
            #"{"version":99,"transactions":[],"revocations":[]}"#, .error(.unsupportedVersion, path: "version")),
        .init(
            "a later ledger with a history's key beside a key a notification has -> a ledger, unsupported_version",
            #"{"version":99,"transactions":[],"notificationType":"REVOKE"}"#,
            .error(.unsupportedVersion, path: "version")),
        .init(
            "a ledger whose version is not a number -> wrong_type at version", #"{"version":"x","transactions":[]}"#,
            .error(.wrongType, path: "version")),
        .init(
            "a version 1 ledger holding statuses, which came in version 2 -> unknown_key",
            #"{"version":1,"subscriptionStatuses":[]}"#, .error(.unknownKey, path: "subscriptionStatuses")),
        .init(
            "a ledger with a misspelt notifications key -> unknown_key naming it",
            #"{"version":2,"notifcations":[]}"#, .error(.unknownKey, path: "notifcations")),
    ]
}

@Suite("History files are read as strictly as payloads")
struct HistoryDecodingTests {
    @Test(arguments: HistoryFileCase.all)
    func historyFile(_ row: HistoryFileCase) throws {
        let data = Data(row.bytes)
        switch row.outcome {
        case .history(let transactions, let renewalInfos, let notifications):
            let history = try History.decodeUnverified(data).history
            #expect(history.transactions.count == transactions)
            #expect(history.renewalInfos.count == renewalInfos)
            #expect(history.notifications.count == notifications)
        case .error(let code, let path, let messageContains):
            let error = try #require(decodingError { try History.decodeUnverified(data) }, "decoded without error")
            #expect(error.code == code, "\(error)")
            #expect(error.path == path, "\(error)")
            if !messageContains.isEmpty {
                #expect(error.message.contains(messageContains), "\(error.message)")
            }
        }
    }

    /// The history is the library's own document: an unknown key is refused on both decoding paths, never read as a
    /// history without what it held; Apple's payloads inside it stay lenient.
    @Test("an unknown key in a history is unknown_key on both decoding paths; one in a payload is ignored")
    func unknownKeysInAHistory() throws {
        let misspelt = Data(#"{"transactions":[],"notifcations":[{"notificationType":"REVOKE"}]}"#.utf8)
        let fast = try #require(decodingError { try History(jsonData: misspelt) }, "decoded without error")
        #expect(fast.code == .unknownKey, "\(fast)")
        #expect(fast.path == "notifcations", "\(fast)")
        let reference = try #require(
            decodingError { try PayloadJSON.decode(History.self, from: misspelt) }, "decoded without error")
        #expect(reference == fast)
        let lenient = Data(#"{"transactions":[{"transactionId":"1","fieldAppleAddsNextYear":true}]}"#.utf8)
        #expect(try History(jsonData: lenient).transactions.map(\.transactionId) == ["1"])
    }

    /// A kind named for the document (`--kind`) is how it is read, even where it looks like a bare array.
    @Test("a bare array read as a named kind is that kind's document, not an array of transactions")
    func namedKindOverridesTheArrayShape() throws {
        let data = Data(#"[{"transactionId":"1","productId":"p"}]"#.utf8)
        #expect(try History.decodeUnverified(data).history.transactions.count == 1)
        let error = try #require(
            decodingError { try History.decodeUnverified(data, as: .transactionHistory) }, "read as an array")
        #expect(error.code == .wrongType, "\(error)")
    }

    /// A kind named for the document is how it is read, even where its keys look like a history's or a ledger's.
    @Test("an object read as a named kind is that kind's document, not a history or a ledger")
    func namedKindOverridesTheObjectKeys() throws {
        for json in [#"{"transactions":[],"transactionId":"7"}"#, #"{"version":1,"transactionId":"7"}"#] {
            let data = Data(json.utf8)
            #expect(decodingError { try History.decodeUnverified(data) } != nil, "\(json) read as a history or ledger")
            let named = try History.decodeUnverified(data, as: .transaction).history
            #expect(named.transactions.map(\.transactionId) == ["7"], "\(json)")
        }
    }

    struct ScenarioCase: CustomTestStringConvertible, Sendable {
        var scenario: Scenario
        var testDescription: String { "\(scenario.rawValue): the strict reader gives what JSONDecoder gives" }
    }

    /// Every shipped history decodes to the same value through the single-pass reader as through `JSONDecoder`.
    @Test(arguments: Scenario.allCases.map(ScenarioCase.init))
    func shippedHistoriesDecodeAlike(_ row: ScenarioCase) throws {
        let data = try row.scenario.historyData()
        let strict = try History.decodeUnverified(data).history
        #expect(strict == (try History(referenceJSONData: data)))
        #expect(try History(jsonData: data) == strict)
    }
}
