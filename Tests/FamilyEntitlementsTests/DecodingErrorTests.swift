import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// A compact JWS of `json`, written by the test-support signer (not signed by Apple).
func fakeJWS(_ json: String) -> String {
    FakeJWSSigner().sign(json: Data(json.utf8))
}

/// One bad input, with the error code and the exact path it must produce.
struct BadInput: CustomTestStringConvertible, Sendable {
    let name: String
    let code: PayloadDecodingError.Code
    let path: String
    let decode: @Sendable () throws -> Void

    var testDescription: String { "\(name) -> \(code) at \(path.isEmpty ? "the whole document" : path)" }

    static func decoding<T: AppStorePayload>(
        _ type: T.Type, _ name: String, _ json: String, _ code: PayloadDecodingError.Code, at path: String
    ) -> BadInput {
        BadInput(name: "\(T.self): \(name)", code: code, path: path) { _ = try T(jsonData: Data(json.utf8)) }
    }

    static func transaction(
        _ name: String, _ json: String, _ code: PayloadDecodingError.Code, at path: String
    ) -> BadInput {
        decoding(TransactionPayload.self, name, json, code, at: path)
    }

    /// A notification whose nested signed strings are decoded, unverified, after the notification itself.
    static func notificationContents(
        _ name: String, _ json: String, _ code: PayloadDecodingError.Code, at path: String
    ) -> BadInput {
        BadInput(name: "notification contents: \(name)", code: code, path: path) {
            _ = try NotificationPayload(jsonData: Data(json.utf8)).decodingNestedPayloadsUnverified()
        }
    }

    /// A history page whose signed transactions are decoded, unverified.
    static func historyTransactions(
        _ name: String, _ signedTransactions: [String], _ code: PayloadDecodingError.Code, at path: String
    ) -> BadInput {
        let list = signedTransactions.map { "\"\($0)\"" }.joined(separator: ",")
        let json = #"{"bundleId":"com.example","signedTransactions":[\#(list)]}"#
        return BadInput(name: "history transactions: \(name)", code: code, path: path) {
            _ = try TransactionHistoryResponse(jsonData: Data(json.utf8)).decodeTransactionsUnverified()
        }
    }

    /// A compact JWS decoded on its own as a transaction.
    static func compact(
        _ name: String, _ jws: String, _ code: PayloadDecodingError.Code, at path: String = ""
    ) -> BadInput {
        BadInput(name: "compact JWS: \(name)", code: code, path: path) {
            _ = try decodeUnverifiedJWS(jws, as: TransactionPayload.self)
        }
    }

    static let validTransaction = fakeJWS(#"{"transactionId":"1","price":1990}"#)

    static let wholeDocument: [BadInput] = [
        .transaction("text that is not JSON", "price: 1990", .malformedJSON, at: ""),
        .transaction("JSON cut off inside the object", #"{"price": "#, .malformedJSON, at: ""),
        .transaction("no bytes at all", "", .malformedJSON, at: ""),
        .transaction("a JSON array where the transaction object belongs", "[]", .wrongType, at: ""),
        BadInput(name: "a document whose keys name no kind", code: .unrecognisedDocument, path: "") {
            _ = try AppStoreDocument(data: Data(#"{"hello":"world"}"#.utf8))
        },
    ]

    static let fields: [BadInput] = [
        .transaction("price written as a string", #"{"price": "1990"}"#, .wrongType, at: "price"),
        .transaction(
            "transactionId written as a number", #"{"transactionId": 23456}"#, .wrongType, at: "transactionId"),
        .transaction("isUpgraded written as a string", #"{"isUpgraded": "true"}"#, .wrongType, at: "isUpgraded"),
        .transaction(
            "inAppOwnershipType written as a number", #"{"inAppOwnershipType": 1}"#, .wrongType,
            at: "inAppOwnershipType"),
        .transaction("offerType written as a string", #"{"offerType": "1"}"#, .wrongType, at: "offerType"),
        .transaction(
            "purchaseDate written as a string", #"{"purchaseDate": "1698148900000"}"#, .wrongType, at: "purchaseDate"),
        .transaction("purchaseDate of 1e300 ms", #"{"purchaseDate": 1e300}"#, .invalidDate, at: "purchaseDate"),
        .transaction(
            "purchaseDate of 1e20 ms, 3 billion years on (JSON cannot write NaN)", #"{"purchaseDate": 1e20}"#,
            .invalidDate, at: "purchaseDate"),
        .transaction("revocationDate of -1e20 ms", #"{"revocationDate": -1e20}"#, .invalidDate, at: "revocationDate"),
        .transaction(
            "expiresDate of 1e400, beyond any Double", #"{"expiresDate": 1e400}"#, .invalidDate, at: "expiresDate"),
        .transaction(
            "signedDate in the year 10000", #"{"signedDate": 253402300800000}"#, .invalidDate, at: "signedDate"),
        .transaction(
            "appAccountToken that is not a UUID", #"{"appAccountToken": "user-42"}"#, .invalidUUID,
            at: "appAccountToken"),
        .decoding(
            RenewalInfoPayload.self, "empty appAccountToken", #"{"appAccountToken": ""}"#, .invalidUUID,
            at: "appAccountToken"),
        .decoding(
            AppTransactionPayload.self, "deviceVerificationNonce that is not a UUID",
            #"{"deviceVerificationNonce": "123"}"#, .invalidUUID, at: "deviceVerificationNonce"),
        .transaction(
            "price one beyond Int64", #"{"price": 9223372036854775808}"#, .numberOutOfRange, at: "price"),
        .transaction(
            "price one below Int64", #"{"price": -9223372036854775809}"#, .numberOutOfRange, at: "price"),
        .transaction(
            "price with a fraction of a milliunit", #"{"price": 19.9}"#, .numberOutOfRange, at: "price"),
        .transaction("quantity beyond Int32", #"{"quantity": 2147483648}"#, .numberOutOfRange, at: "quantity"),
        .transaction(
            "offerType beyond its Int32 raw value", #"{"offerType": 4294967297}"#, .numberOutOfRange,
            at: "offerType"),
        .decoding(
            RenewalInfoPayload.self, "renewalPrice of 1e19", #"{"renewalPrice": 1e19}"#, .numberOutOfRange,
            at: "renewalPrice"),
    ]

    static let nestedObjects: [BadInput] = [
        .transaction(
            "commitmentPrice written as a string", #"{"commitmentInfo": {"commitmentPrice": "x"}}"#, .wrongType,
            at: "commitmentInfo.commitmentPrice"),
        .transaction(
            "commitmentPrice beyond Int64", #"{"commitmentInfo": {"commitmentPrice": 9223372036854775808}}"#,
            .numberOutOfRange, at: "commitmentInfo.commitmentPrice"),
        .decoding(
            RenewalInfoPayload.self, "win-back offer ids written as one string", #"{"eligibleWinBackOfferIds": "a"}"#,
            .wrongType, at: "eligibleWinBackOfferIds"),
        .decoding(
            RenewalInfoPayload.self, "a number among the win-back offer ids",
            #"{"eligibleWinBackOfferIds": ["a", 2]}"#, .wrongType, at: "eligibleWinBackOfferIds[1]"),
        .decoding(
            NotificationPayload.self, "a decoded transaction's price written as a string",
            #"{"data": {"transactionInfo": {"price": "x"}}}"#, .wrongType, at: "data.transactionInfo.price"),
        .decoding(
            NotificationPayload.self, "status written as a string", #"{"data": {"status": "1"}}"#, .wrongType,
            at: "data.status"),
        .decoding(
            NotificationPayload.self, "summary failedCount with a fraction", #"{"summary": {"failedCount": 1.5}}"#,
            .numberOutOfRange, at: "summary.failedCount"),
        .decoding(
            SubscriptionStatusesResponse.self, "a status written as a string",
            #"{"data": [{"lastTransactions": [{"status": 1}, {"status": "x"}]}]}"#, .wrongType,
            at: "data[0].lastTransactions[1].status"),
    ]

    static let nestedSignedStrings: [BadInput] = [
        .notificationContents(
            "signedTransactionInfo cut to two segments",
            #"{"data": {"signedTransactionInfo": "eyJhIjoxfQ.eyJhIjoxfQ"}}"#,
            .malformedJWS, at: "data.signedTransactionInfo"),
        .notificationContents(
            "signedTransactionInfo with a segment that is not base64url",
            #"{"data": {"signedTransactionInfo": "eyJhIjoxfQ.not*base64.c2ln"}}"#, .invalidBase64,
            at: "data.signedTransactionInfo"),
        .notificationContents(
            "signedTransactionInfo whose payload is not JSON",
            #"{"data": {"signedTransactionInfo": "\#(fakeJWS("not json"))"}}"#, .malformedJSON,
            at: "data.signedTransactionInfo"),
        .notificationContents(
            "signedRenewalInfo whose renewalPrice is a string",
            #"{"data": {"signedRenewalInfo": "\#(fakeJWS(#"{"renewalPrice":"x"}"#))"}}"#, .wrongType,
            at: "data.signedRenewalInfo.renewalPrice"),
        .historyTransactions(
            "the fourth of four is cut short",
            [validTransaction, validTransaction, validTransaction, "eyJhIjoxfQ.eyJhIjoxfQ"], .malformedJWS,
            at: "signedTransactions[3]"),
        .historyTransactions(
            "the second has a price beyond Int64",
            [validTransaction, fakeJWS(#"{"price":9223372036854775808}"#)], .numberOutOfRange,
            at: "signedTransactions[1].price"),
        BadInput(
            name: "subscription statuses: the second group's renewal info is not a JWS", code: .malformedJWS,
            path: "data[1].lastTransactions[0].signedRenewalInfo"
        ) {
            let body = SubscriptionStatusesResponse(data: [
                SubscriptionGroupStatus(lastTransactions: [
                    LastTransactionsItem(signedTransactionInfo: validTransaction)
                ]),
                SubscriptionGroupStatus(lastTransactions: [
                    LastTransactionsItem(signedTransactionInfo: validTransaction, signedRenewalInfo: "renewal")
                ]),
            ])
            _ = try body.decodeLastTransactionsUnverified()
        },
        BadInput(
            name: "request body: the notification's transaction has a bad appAccountToken", code: .invalidUUID,
            path: "signedPayload.data.signedTransactionInfo.appAccountToken"
        ) {
            let transaction = fakeJWS(#"{"appAccountToken":"user-42"}"#)
            let notification = fakeJWS(
                #"{"notificationType":"REFUND","data":{"signedTransactionInfo":"\#(transaction)"}}"#)
            let body = #"{"signedPayload":"\#(notification)"}"#
            _ = try NotificationRequestBody(jsonData: Data(body.utf8)).decodeNotificationUnverified()
        },
        BadInput(name: "request body without signedPayload", code: .missingValue, path: "signedPayload") {
            _ = try NotificationRequestBody(jsonData: Data("{}".utf8)).decodeNotificationUnverified()
        },
    ]

    static let compactJWS: [BadInput] = [
        .compact("cut to two segments", "eyJhbGciOiJFUzI1NiJ9.eyJwcmljZSI6MX0", .malformedJWS),
        .compact("four segments", "eyJhbGciOiJFUzI1NiJ9.eyJwcmljZSI6MX0.c2ln.c2ln", .malformedJWS),
        .compact(
            "a payload segment with a character outside base64url", "eyJhbGciOiJFUzI1NiJ9.eyJw+cmljZSI6MX0.c2ln",
            .invalidBase64),
        .compact("a payload segment of impossible length", "eyJhbGciOiJFUzI1NiJ9.eyJwc.c2ln", .invalidBase64),
        .compact("an empty payload segment", "eyJhbGciOiJFUzI1NiJ9..c2ln", .malformedJWS),
        .compact("a payload that is not JSON", fakeJWS("price=1990"), .malformedJSON),
        .compact("a valid JWS whose price is a string", fakeJWS(#"{"price":"1990"}"#), .wrongType, at: "price"),
    ]

    static let all: [BadInput] = wholeDocument + fields + nestedObjects + nestedSignedStrings + compactJWS
}

/// A renewal-info document with a value of the wrong JSON type, and the words the error must use for the type expected.
struct WrongTypeMessageCase: CustomTestStringConvertible, Sendable {
    let json: String
    let expected: String

    var testDescription: String { "\(json) -> message says \"expected \(expected)\"" }

    static let all: [WrongTypeMessageCase] = [
        WrongTypeMessageCase(json: "[]", expected: "an object"),
        WrongTypeMessageCase(json: #"{"commitmentInfo": 1}"#, expected: "an object"),
        WrongTypeMessageCase(json: #"{"eligibleWinBackOfferIds": "a"}"#, expected: "an array"),
        WrongTypeMessageCase(json: #"{"renewalPrice": "1990"}"#, expected: "a number"),
        WrongTypeMessageCase(json: #"{"productId": 1}"#, expected: "a string"),
        WrongTypeMessageCase(json: #"{"isInBillingRetryPeriod": 1}"#, expected: "a boolean"),
    ]
}

/// A payload that must come back equal through a JWS written by `FakeJWSSigner`.
struct FakeSignedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let check: @Sendable () throws -> Void

    var testDescription: String { "\(name) -> FakeJWSSigner -> UnverifiedJWS gives an equal value" }

    static func of<T: AppStorePayload>(_ name: String, _ value: T) -> FakeSignedCase {
        FakeSignedCase(name: name) {
            let compact = try FakeJWSSigner().sign(value)
            let jws = try UnverifiedJWS(compact: compact)
            #expect(try jws.decodePayload(as: T.self) == value)
            #expect(try jws.header().kid == FakeJWSSigner.keyIdentifier)
            #expect(jws.signature == FakeJWSSigner.signatureMarker)
            #expect(try decodeUnverifiedJWS("  \"\(compact)\"\n", as: T.self) == value)
        }
    }

    static let all: [FakeSignedCase] = [
        .of("transaction", Examples.transaction),
        .of("renewal info", Examples.renewalInfo),
        .of("app transaction", Examples.appTransaction),
        .of("notification", Examples.notification),
        .of("empty transaction", TransactionPayload()),
    ]
}

/// A document with keys this library does not know, and the value it must decode to regardless.
struct UnknownKeysCase: CustomTestStringConvertible, Sendable {
    let name: String
    let check: @Sendable () throws -> Void

    var testDescription: String { "\(name): unknown keys are ignored" }

    static func of<T: AppStorePayload>(_ name: String, _ json: String, _ expected: T) -> UnknownKeysCase {
        UnknownKeysCase(name: name) { () throws -> Void in
            #expect(try T(jsonData: Data(json.utf8)) == expected)
        }
    }

    static let all: [UnknownKeysCase] = [
        .of(
            "transaction with a future scalar and object",
            #"{"transactionId":"1","futureFlag":true,"futureObject":{"a":[1,2.5,null]},"price":1990}"#,
            TransactionPayload(transactionId: "1", price: 1990)),
        .of(
            "notification with an unknown key inside data",
            #"{"notificationType":"TEST","data":{"bundleId":"com.example","futureField":"x"}}"#,
            NotificationPayload(notificationType: .test, data: NotificationData(bundleId: "com.example"))),
        .of(
            "renewal info with Xcode's device verification keys",
            #"{"autoRenewStatus":1,"deviceVerification":"abc","deviceVerificationNonce":"n"}"#,
            RenewalInfoPayload(autoRenewStatus: .on)),
        .of(
            "commitment info with an unknown key",
            #"{"commitmentInfo":{"commitmentPrice":1,"futureKey":2}}"#,
            TransactionPayload(commitmentInfo: TransactionCommitmentInfo(commitmentPrice: 1))),
        .of(
            "history page with a future paging key",
            #"{"hasMore":false,"nextCursor":"abc","signedTransactions":[]}"#,
            TransactionHistoryResponse(hasMore: false, signedTransactions: [])),
    ]
}

/// A payload type read from `{}`, or from a document whose every field is null.
struct AbsentFieldsCase: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    let check: @Sendable (Data) throws -> Bool

    var testDescription: String { "\(name) from \(json) -> every field absent" }

    static func of<T: AppStorePayload>(_ value: T, from json: String = "{}") -> AbsentFieldsCase {
        AbsentFieldsCase(name: "\(T.self)", json: json) { data in try T(jsonData: data) == value }
    }

    static let all: [AbsentFieldsCase] = [
        .of(TransactionPayload()),
        .of(RenewalInfoPayload()),
        .of(AppTransactionPayload()),
        .of(NotificationPayload()),
        .of(TransactionHistoryResponse()),
        .of(SubscriptionStatusesResponse()),
        .of(NotificationRequestBody()),
        .of(TransactionPayload(), from: #"{"price":null,"purchaseDate":null,"appAccountToken":null,"type":null}"#),
    ]
}

@Suite("Decoding errors name where they are")
struct DecodingErrorTests {
    @Test("a bad input fails with its code at its exact path", arguments: BadInput.all)
    func badInput(_ row: BadInput) throws {
        let error = try #require(decodingError { try row.decode() }, "decoded without error")
        #expect(error.code == row.code)
        #expect(error.path == row.path)
        #expect(!error.message.isEmpty)
        if !row.path.isEmpty {
            #expect(error.description.hasPrefix("\(row.code) at \(row.path): "))
        }
    }

    @Test("a wrong JSON type is named in JSON's words, not Swift's", arguments: WrongTypeMessageCase.all)
    func wrongTypeMessage(_ row: WrongTypeMessageCase) throws {
        let error = try #require(decodingError { try RenewalInfoPayload(jsonData: Data(row.json.utf8)) })
        #expect(error.code == .wrongType)
        #expect(error.message.hasPrefix("expected \(row.expected);"), "\(error.message)")
    }

    @Test("a payload signed by FakeJWSSigner reads back unverified", arguments: FakeSignedCase.all)
    func fakeSigned(_ row: FakeSignedCase) throws {
        try row.check()
    }

    @Test("nested strings signed by FakeJWSSigner decode into the notification's slots")
    func nestedFakeSigned() throws {
        let signer = FakeJWSSigner()
        let notification = NotificationPayload(
            notificationType: .revoke,
            data: NotificationData(
                signedTransactionInfo: try signer.sign(Examples.transaction),
                signedRenewalInfo: try signer.sign(Examples.renewalInfo)))
        let decoded = try notification.decodingNestedPayloadsUnverified()
        #expect(decoded.data?.transactionInfo == Examples.transaction)
        #expect(decoded.data?.renewalInfo == Examples.renewalInfo)
        #expect(decoded.data?.signedTransactionInfo == notification.data?.signedTransactionInfo)
    }

    @Test("unknown keys are ignored", arguments: UnknownKeysCase.all)
    func unknownKeys(_ row: UnknownKeysCase) throws {
        try row.check()
    }

    @Test("a document with every field absent decodes", arguments: AbsentFieldsCase.all)
    func absentFields(_ row: AbsentFieldsCase) throws {
        #expect(try row.check(Data(row.json.utf8)))
    }
}
