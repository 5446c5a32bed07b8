import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Get Transaction Info, Get Notification History and renewal-date extension bodies; how a document's kind is
/// recognised from its members; and documents whose nested signed strings do not decode.
struct APIBodyTests {
    // MARK: - Recognising the kind by the members it requires

    struct RecognitionCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var members: Set<String>
        /// Nil where the document must be refused as unrecognised.
        var kind: AppStoreDocument.Kind?
    }

    @Test(arguments: [
        RecognitionCase(
            testDescription: "renewal-extension response -> renewalExtension, not a transaction that drops success",
            members: ["originalTransactionId", "webOrderLineItemId", "success", "effectiveDate"],
            kind: .renewalExtension),
        RecognitionCase(
            testDescription: "renewal-extension response with a new member -> unrecognised, never a transaction",
            members: ["originalTransactionId", "webOrderLineItemId", "success", "effectiveDate", "newMember"],
            kind: nil),
        RecognitionCase(
            testDescription: "Advanced Commerce modify request (transactionId, currency, taxCode) -> unrecognised",
            members: ["requestInfo", "transactionId", "retainBillingCycle", "descriptors", "taxCode", "currency"],
            kind: nil),
        RecognitionCase(
            testDescription: "Look Up Order ID (status, signedTransactions) -> unrecognised, not a history",
            members: ["status", "signedTransactions"], kind: nil),
        RecognitionCase(
            testDescription: "Get Refund History page (no bundleId, appAppleId or environment) -> unrecognised",
            members: ["signedTransactions", "revision", "hasMore"], kind: nil),
        RecognitionCase(
            testDescription: "Get Transaction History page -> transactionHistory",
            members: ["revision", "hasMore", "bundleId", "appAppleId", "environment", "signedTransactions"],
            kind: .transactionHistory),
        RecognitionCase(
            testDescription: "Get All Subscription Statuses -> subscriptionStatuses, not an AppTransaction",
            members: ["environment", "bundleId", "appAppleId", "data"], kind: .subscriptionStatuses),
        RecognitionCase(
            testDescription: "Get Transaction Info -> transactionInfo", members: ["signedTransactionInfo"],
            kind: .transactionInfo),
        RecognitionCase(
            testDescription: "Advanced Commerce response with renewal info too -> unrecognised",
            members: ["signedTransactionInfo", "signedRenewalInfo"], kind: nil),
        RecognitionCase(
            testDescription: "Get Notification History page -> notificationHistory",
            members: ["paginationToken", "hasMore", "notificationHistory"], kind: .notificationHistory),
        RecognitionCase(
            testDescription: "test notification status (signedPayload, sendAttempts) -> unrecognised, not a body",
            members: ["signedPayload", "sendAttempts"], kind: nil),
        RecognitionCase(
            testDescription: "notification request body -> notificationRequestBody", members: ["signedPayload"],
            kind: .notificationRequestBody),
        RecognitionCase(
            testDescription: "transaction with transactionId and productId -> transaction",
            members: ["transactionId", "productId"], kind: .transaction),
        RecognitionCase(
            testDescription: "transaction with a member Apple added later -> transaction",
            members: ["transactionId", "productId", "somethingNew"], kind: .transaction),
        RecognitionCase(
            testDescription: "transactionId alone: one member never names a kind -> unrecognised",
            members: ["transactionId"], kind: nil),
        RecognitionCase(
            testDescription: "renewal info with autoRenewStatus and originalTransactionId -> renewalInfo",
            members: ["autoRenewStatus", "originalTransactionId"], kind: .renewalInfo),
        RecognitionCase(
            testDescription: "members of a transaction and of renewal info at once -> unrecognised, ambiguous",
            members: ["transactionId", "productId", "autoRenewStatus", "originalTransactionId"], kind: nil),
        RecognitionCase(
            testDescription: "AppTransaction -> appTransaction", members: ["receiptType", "bundleId"],
            kind: .appTransaction),
        RecognitionCase(
            testDescription: "a notification's appData alone (signedAppTransactionInfo) -> unrecognised",
            members: ["appAppleId", "bundleId", "environment", "signedAppTransactionInfo"], kind: nil),
        RecognitionCase(
            testDescription: "notification -> notification", members: ["notificationType", "notificationUUID"],
            kind: .notification),
    ])
    func recognition(_ row: RecognitionCase) {
        do {
            let kind = try AppStoreDocument.Kind.recognise(row.members)
            #expect(kind == row.kind)
            #expect(kind.fits(row.members))
        } catch {
            #expect(row.kind == nil, "refused: \(error)")
            #expect(error.code == .unrecognisedDocument)
            #expect(error.path == "")
            for kind in AppStoreDocument.Kind.allCases {
                #expect(error.message.contains(kind.rawValue), "the message names \(kind)")
            }
        }
    }

    /// A document named as a kind of API body lacks a member that kind always has: refused at that member.
    struct MissingMemberCase: CustomTestStringConvertible, Sendable {
        var kind: AppStoreDocument.Kind
        var json: String
        var path: String
        var testDescription: String { "--kind \(kind.rawValue) of \(json) -> missing_value at \(path)" }
    }

    static let missingMemberCases: [MissingMemberCase] = [
        MissingMemberCase(
            kind: .transactionHistory, json: #"{"bundleId":"b","hasMore":false}"#, path: "signedTransactions"),
        MissingMemberCase(kind: .transactionHistory, json: "{}", path: "signedTransactions"),
        MissingMemberCase(
            kind: .subscriptionStatuses, json: #"{"bundleId":"b","environment":"Production"}"#, path: "data"),
        MissingMemberCase(kind: .notificationRequestBody, json: #"{"signedTransactions":[]}"#, path: "signedPayload"),
        MissingMemberCase(kind: .transactionInfo, json: "{}", path: "signedTransactionInfo"),
        MissingMemberCase(kind: .notificationHistory, json: #"{"notificationHistory":[]}"#, path: "hasMore"),
        MissingMemberCase(kind: .notificationHistory, json: #"{"hasMore":false}"#, path: "notificationHistory"),
        MissingMemberCase(kind: .renewalExtension, json: #"{"success":true}"#, path: "originalTransactionId"),
    ]

    @Test(
        "a document named as an API body that lacks a member its kind requires is refused, never read as empty",
        arguments: missingMemberCases)
    func namedKindLacksARequiredMember(_ row: MissingMemberCase) {
        let data = Data(row.json.utf8)
        Self.expectMissing(row.path) { () throws(PayloadDecodingError) in
            _ = try AppStoreDocument(data: data, as: row.kind)
        }
        Self.expectMissing(row.path) { () throws(PayloadDecodingError) in
            _ = try History.decodeUnverified(data, as: row.kind).history
        }
    }

    /// Expects `read` to throw `missing_value` at `path`.
    static func expectMissing(_ path: String, _ read: () throws(PayloadDecodingError) -> Void) {
        do throws(PayloadDecodingError) {
            try read()
            Issue.record("read as an empty document of its kind")
        } catch {
            #expect(error.code == .missingValue, "\(error)")
            #expect(error.path == path, "\(error)")
        }
    }

    @Test(
        "every kind of API body: its required members alone read, and each one left out is refused at its name",
        arguments: AppStoreDocument.Kind.allCases)
    func everyRequiredMember(_ kind: AppStoreDocument.Kind) throws {
        let required = kind.requiredMembers.sorted()
        func document(_ members: [String]) -> Data {
            Data(("{" + members.map { #""\#($0)":null"# }.joined(separator: ",") + "}").utf8)
        }
        #expect(try AppStoreDocument(data: document(required), as: kind).kind == kind)
        for member in required {
            let error = #expect(throws: PayloadDecodingError.self) {
                try AppStoreDocument(data: document(required.filter { $0 != member }), as: kind)
            }
            #expect(error?.code == .missingValue && error?.path == member, "\(String(describing: error))")
        }
        let isAPIBody: Set<AppStoreDocument.Kind> = [
            .transactionHistory, .subscriptionStatuses, .notificationRequestBody, .transactionInfo,
            .notificationHistory, .renewalExtension,
        ]
        #expect(required.isEmpty != isAPIBody.contains(kind), "\(required)")
    }

    @Test("a document of no kind is an error that names every kind known")
    func unrecognisedNamesTheKinds() {
        let error = decodingError { try AppStoreDocument(data: Data(#"{"success": true}"#.utf8)) }
        #expect(error?.code == .unrecognisedDocument)
        #expect(error?.message.contains("renewalExtension, transactionInfo") == false)
        #expect(error?.message.contains("transaction, renewalInfo, appTransaction, notification") == true)
        #expect(error?.message.contains("name the kind") == true)
    }

    // MARK: - The fixtures, through the library

    static let renewedNotifications: [NotificationFixture] = [.subscribedInitialBuyPurchased, .didRenewPurchased]

    @Test("a Get Notification History page with more to come: two notifications, each the fixture Apple signed")
    func notificationHistoryFirstPage() throws {
        let data = try FixtureFiles.data("APIResponses/NotificationHistory.page-1.hasMore.json")
        let document = try AppStoreDocument(data: data)
        let page = try #require(document.value(as: NotificationHistoryResponse.self))
        #expect(page.hasMore == true)
        #expect(page.nextPaginationToken == "9b2d5f0e-3c41-4a7e-8f16-2e8d7c0a5b31")
        #expect(page.notificationHistory?.count == 2)
        #expect(
            page.notificationHistory?.first?.sendAttempts?.map(\.sendAttemptResult) == [.timedOut, .success])
        #expect(page.notificationHistory?.last?.sendAttempts?.count == 3)
        let notifications = try page.decodeNotificationsUnverified()
        let expected = try Self.renewedNotifications.map { try $0.payload() }
        #expect(notifications.map(\.notificationUUID) == expected.map(\.notificationUUID))
        #expect(notifications.map { $0.data?.transactionInfo } == expected.map { $0.data?.transactionInfo })
        #expect(notifications.map { $0.data?.renewalInfo } == expected.map { $0.data?.renewalInfo })
        let decoded = try History.decodeUnverified(data)
        #expect(decoded.history.notifications == notifications)
        #expect(decoded.unverifiedJWSCount == 6, "two notifications with a transaction and renewal info each")
        #expect(decoded.warnings == [])
    }

    @Test("the last Get Notification History page: hasMore false, no next page, the refund inside")
    func notificationHistoryLastPage() throws {
        let data = try FixtureFiles.data("APIResponses/NotificationHistory.page-2.last.json")
        let page = try NotificationHistoryResponse(jsonData: data)
        #expect(page.hasMore == false)
        #expect(page.nextPaginationToken == nil)
        let notifications = try page.decodeNotificationsUnverified()
        #expect(notifications.map(\.notificationType) == [.refund])
        #expect(notifications.first?.data?.transactionInfo?.revocationType == .refundFull)
    }

    @Test("a Get Transaction Info body: the renewed transaction, unverified")
    func transactionInfo() throws {
        let data = try FixtureFiles.data("APIResponses/TransactionInfo.json")
        let body = try #require(try AppStoreDocument(data: data).value(as: TransactionInfoResponse.self))
        let transaction = try body.decodeTransactionUnverified()
        #expect(transaction == (try NotificationFixture.didRenewPurchased.payload()).data?.transactionInfo)
        let decoded = try History.decodeUnverified(data)
        #expect(decoded.history.transactions == [transaction])
        #expect(decoded.unverifiedJWSCount == 1, "the one signed transaction, read without verification")
    }

    /// A body whose signedTransactionInfo is absent holds no signed string: none is counted as read unverified.
    @Test("a Get Transaction Info body without its signed string counts none, and holds no transaction")
    func transactionInfoWithoutSignedString() throws {
        let decoded = try History.decodeUnverified(Data(#"{"signedTransactionInfo":null}"#.utf8), as: .transactionInfo)
        #expect(decoded.unverifiedJWSCount == 0)
        #expect(decoded.history.transactions == [])
    }

    @Test("a notification body without its signed payload counts none, and holds no notification")
    func notificationBodyWithoutSignedPayload() throws {
        let decoded = try History.decodeUnverified(Data(#"{"signedPayload":null}"#.utf8), as: .notificationRequestBody)
        #expect(decoded.unverifiedJWSCount == 0)
        #expect(decoded.history.notifications == [])
    }

    @Test("a renewal-date extension response keeps success and effectiveDate, and is no history")
    func renewalExtension() throws {
        let data = try FixtureFiles.data("APIResponses/ExtendRenewalDate.json")
        let response = try #require(try AppStoreDocument(data: data).value(as: ExtendRenewalDateResponse.self))
        #expect(response.originalTransactionId == "510090000000001")
        #expect(response.webOrderLineItemId == "520090000000002")
        #expect(response.success == true)
        #expect(wholeMilliseconds(response.effectiveDate) == 1_778_321_700_000)
        #expect(decodingError { try History.decodeUnverified(data) }?.code == .unrecognisedDocument)
    }

    // MARK: - A bad nested string does not hide the document around it

    struct NestedFailureCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var json: String
        var kind: AppStoreDocument.Kind
        /// The paths of the strings that do not decode.
        var paths: [String]
        /// How many transactions, renewal infos (notifications' included) and notifications the rest of the document
        /// gives a history.
        var rest: (transactions: Int, renewalInfos: Int, notifications: Int)
    }

    static let good = FakeJWSSigner().sign(json: Data(#"{"transactionId":"1","productId":"p"}"#.utf8))
    static let goodRenewal = FakeJWSSigner().sign(
        json: Data(#"{"originalTransactionId":"1","autoRenewStatus":1}"#.utf8))
    static let notJWS = "signed_transaction_info_value"
    static let badPayload = FakeJWSSigner().sign(json: Data(#"{"transactionId":"1","price":"free"}"#.utf8))

    static func body(_ notification: String) -> String {
        FakeJWSSigner().sign(json: Data(notification.utf8))
    }

    @Test(arguments: [
        NestedFailureCase(
            testDescription: "notification whose signedTransactionInfo is a placeholder: kept, renewal info read",
            json:
                #"{"notificationType":"DID_RENEW","notificationUUID":"u1","data":{"signedTransactionInfo":"\#(notJWS)","signedRenewalInfo":"\#(goodRenewal)","transactionInfo":{"transactionId":"unsigned"}}}"#,
            kind: .notification, paths: ["data.signedTransactionInfo"], rest: (0, 1, 1)),
        NestedFailureCase(
            testDescription: "history page with one placeholder among two: the other transaction read",
            json: #"{"bundleId":"b","signedTransactions":["\#(notJWS)","\#(good)"]}"#, kind: .transactionHistory,
            paths: ["signedTransactions[0]"], rest: (1, 0, 0)),
        NestedFailureCase(
            testDescription: "status response whose transaction has a price that is no number: renewal info read",
            json:
                #"{"bundleId":"b","data":[{"lastTransactions":[{"signedTransactionInfo":"\#(badPayload)","signedRenewalInfo":"\#(goodRenewal)"}]}]}"#,
            kind: .subscriptionStatuses, paths: ["data[0].lastTransactions[0].signedTransactionInfo"],
            rest: (0, 1, 0)),
        NestedFailureCase(
            testDescription: "notification body whose signedPayload is a placeholder: nothing taken",
            json: #"{"signedPayload":"signed_payload"}"#, kind: .notificationRequestBody,
            paths: ["signedPayload"], rest: (0, 0, 0)),
        NestedFailureCase(
            testDescription: "notification history item with a placeholder, then a good one: the good one read",
            json:
                #"{"hasMore":false,"notificationHistory":[{"signedPayload":"signed_payload_one"},{"signedPayload":"\#(body(#"{"notificationType":"TEST","notificationUUID":"u2"}"#))"}]}"#,
            kind: .notificationHistory, paths: ["notificationHistory[0].signedPayload"], rest: (0, 0, 1)),
        NestedFailureCase(
            testDescription: "notification history item whose notification nests a placeholder transaction",
            json:
                #"{"hasMore":false,"notificationHistory":[{"signedPayload":"\#(body(#"{"notificationType":"DID_RENEW","notificationUUID":"u3","data":{"signedTransactionInfo":"x.y"}}"#))"}]}"#,
            kind: .notificationHistory, paths: ["notificationHistory[0].signedPayload.data.signedTransactionInfo"],
            rest: (0, 0, 1)),
        NestedFailureCase(
            testDescription: "Get Transaction Info with a placeholder: nothing taken",
            json: #"{"signedTransactionInfo":"\#(notJWS)"}"#, kind: .transactionInfo,
            paths: ["signedTransactionInfo"], rest: (0, 0, 0)),
    ])
    func nestedFailure(_ row: NestedFailureCase) throws {
        try checkNestedFailure(row)
    }

    /// Every signed string the body holds is counted once as read without verification, and only those it holds.
    @Test("Get All Subscription Statuses: the signed strings counted are those present, item by item")
    func statusesCountTheirSignedStrings() throws {
        let json =
            #"{"bundleId":"b","data":[{"lastTransactions":[{"signedTransactionInfo":"\#(Self.good)","signedRenewalInfo":"\#(Self.goodRenewal)"},{"signedTransactionInfo":"\#(Self.good)"},{"signedRenewalInfo":"\#(Self.goodRenewal)"}]}]}"#
        let decoded = try History.decodeUnverified(Data(json.utf8))
        #expect(decoded.unverifiedJWSCount == 4)
        #expect(decoded.warnings == [])
    }

    private func checkNestedFailure(_ row: NestedFailureCase) throws {
        let data = Data(row.json.utf8)
        let document = try AppStoreDocument(data: data)
        #expect(document.kind == row.kind)
        let decoded = try History.decodeUnverified(data)
        let undecodable = decoded.warnings.filter { $0.code == .undecodableSignedString }
        #expect(undecodable.map(\.path) == row.paths)
        let notifications = decoded.history.notifications
        let taken = notifications.compactMap { $0.data?.transactionInfo } + decoded.history.transactions
        #expect(taken.count == row.rest.transactions)
        #expect(
            notifications.compactMap { $0.data?.renewalInfo }.count + decoded.history.renewalInfos.count
                == row.rest.renewalInfos)
        #expect(notifications.count == row.rest.notifications)
        #expect(
            !taken.contains { $0.transactionId == "unsigned" }, "unsigned contents beside a bad string are not taken")
    }

    @Test("the throwing forms still refuse a document whose nested string does not decode, naming its path")
    func strictFormsRefuse() throws {
        let page = TransactionHistoryResponse(signedTransactions: [Self.good, Self.notJWS])
        let error = decodingError { try page.decodeTransactionsUnverified() }
        #expect(error?.code == .malformedJWS)
        #expect(error?.path == "signedTransactions[1]")
        let history = NotificationHistoryResponse(
            hasMore: false, notificationHistory: [NotificationHistoryResponseItem(signedPayload: "signed_payload")])
        let historyError = decodingError { try history.decodeNotificationsUnverified() }
        #expect(historyError?.code == .malformedJWS)
        #expect(historyError?.path == "notificationHistory[0].signedPayload")
    }
}

/// The new API bodies through the `entitlements` tool: `decode`, `--kind`, and `rebuild`.
@Suite(
    "API bodies through the entitlements tool",
    .enabled(if: EntitlementsTool.executable != nil, "the entitlements executable is built"))
struct APIBodyCommandLineTests {
    struct ToolCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var arguments: [String]
        /// A fixture read as standard input, or literal input.
        var fixture: String? = nil
        var input: String? = nil
        var status: Int32 = 0
        var standardOutput: [String] = []
        var standardError: [String] = []
    }

    @Test(arguments: [
        ToolCase(
            testDescription:
                "decode of a notification history page prints kind notificationHistory and each notification",
            arguments: ["decode", "-"], fixture: "APIResponses/NotificationHistory.page-1.hasMore.json",
            standardOutput: [#""kind" : "notificationHistory""#, #""notifications" : ["#, "DID_RENEW", "TIMED_OUT"],
            standardError: ["NOT verified"]),
        ToolCase(
            testDescription: "decode of Get Transaction Info prints kind transactionInfo and the transaction",
            arguments: ["decode", "-"], fixture: "APIResponses/TransactionInfo.json",
            standardOutput: [#""kind" : "transactionInfo""#, #""transactionId" : "510090000000002""#]),
        ToolCase(
            testDescription: "decode of a renewal-extension response keeps success and effectiveDate",
            arguments: ["decode", "-"], fixture: "APIResponses/ExtendRenewalDate.json",
            standardOutput: [#""kind" : "renewalExtension""#, #""success" : true"#, "1778321700000"]),
        ToolCase(
            testDescription: "decode of a document of no kind: bad input that names the kinds and --kind",
            arguments: ["decode", "-"], input: #"{"signedTransactions":[],"revision":"r","hasMore":false}"#,
            status: 1, standardError: ["unrecognised_document", "transactionHistory", "--kind NAME"]),
        ToolCase(
            testDescription: "decode --kind transactionHistory reads a Get Refund History page",
            arguments: ["decode", "--kind", "transactionHistory", "-"],
            input: #"{"signedTransactions":[],"revision":"r","hasMore":false}"#,
            standardOutput: [#""kind" : "transactionHistory""#, #""revision" : "r""#]),
        ToolCase(
            testDescription: "decode --kind with a name decode never prints: usage error listing the names",
            arguments: ["decode", "--kind", "history", "-"], input: "{}", status: 2,
            standardError: ["--kind takes one of transaction, renewalInfo", "renewalExtension"]),
        ToolCase(
            testDescription:
                "decode of a notification whose nested string is a placeholder: the notification, a warning",
            arguments: ["decode", "-"],
            input: #"{"notificationType":"DID_RENEW","notificationUUID":"u","data":{"signedTransactionInfo":"x"}}"#,
            standardOutput: [#""notificationType" : "DID_RENEW""#, #""signedTransactionInfo" : "x""#],
            standardError: ["undecodable_signed_string at data.signedTransactionInfo", "malformed_jws"]),
        ToolCase(
            testDescription: "rebuild of the last notification history page: the refund, unverified notice",
            arguments: ["rebuild", "-", "--as-of", "2026-04-20T00:00:00Z", "--format", "json"],
            fixture: "APIResponses/NotificationHistory.page-2.last.json",
            standardOutput: [#""state":"revoked""#], standardError: ["3 JWS signature(s) were NOT verified"]),
        ToolCase(
            testDescription: "rebuild of a history page with a placeholder among the transactions: a warning",
            arguments: ["rebuild", "-", "--as-of", "2026-04-20T00:00:00Z"],
            input: #"{"bundleId":"b","signedTransactions":["signed_transaction_value"]}"#,
            standardOutput: ["(no products)"], standardError: ["undecodable_signed_string at signedTransactions[0]"]),
        ToolCase(
            testDescription: "rebuild of a renewal-extension response: bad input, it is no history",
            arguments: ["rebuild", "-"], fixture: "APIResponses/ExtendRenewalDate.json", status: 1,
            standardError: ["no history"]),
    ])
    func tool(_ row: ToolCase) throws {
        let input = try row.fixture.map { try FixtureFiles.data($0) } ?? row.input.map { Data($0.utf8) }
        let result = try EntitlementsTool.run(row.arguments, input: input)
        #expect(result.status == row.status, "\(result.standardError)")
        for text in row.standardOutput {
            #expect(result.standardOutput.contains(text), "standard output has \(text)")
        }
        for text in row.standardError {
            #expect(result.standardError.contains(text), "standard error has \(text)")
        }
    }
}
