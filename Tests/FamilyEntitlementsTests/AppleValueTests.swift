import FamilyEntitlements
import Foundation
import Testing

/// One Apple value type with the raw values Apple documents for it, written out here independently of the library.
struct AppleValueType: CustomTestStringConvertible, Sendable {
    let name: String
    /// Apple's documented raw values, as JSON literals (`"SUBSCRIBED"`, `1`).
    let documentedJSON: [String]
    /// A raw value Apple has not documented, as a JSON literal.
    let unknownJSON: String
    /// The library's `documentedValues`, each encoded as a JSON literal.
    let libraryDocumentedJSON: @Sendable () throws -> [String]
    /// Decodes a one-element JSON array of the type and reports what came out.
    let decode: @Sendable (Data) throws -> DecodedAppleValue

    var testDescription: String { "\(name): documentedValues are Apple's \(documentedJSON.count), each listed once" }

    static func strings<T: AppleValue>(_ type: T.Type, _ documented: [String]) -> AppleValueType
    where T.RawValue == String {
        AppleValueType(type, documented: documented.map { "\"\($0)\"" }, unknown: "\"SOMETHING_NEW\"")
    }

    static func integers<T: AppleValue>(_ type: T.Type, _ documented: [Int32]) -> AppleValueType
    where T.RawValue == Int32 {
        AppleValueType(type, documented: documented.map { "\($0)" }, unknown: "99")
    }

    private init<T: AppleValue>(_ type: T.Type, documented: [String], unknown: String) {
        name = "\(T.self)"
        documentedJSON = documented
        unknownJSON = unknown
        libraryDocumentedJSON = {
            try T.documentedValues.map { value in String(decoding: try JSONEncoder().encode(value), as: UTF8.self) }
        }
        decode = { data in
            let values = try JSONDecoder().decode([T].self, from: data)
            return DecodedAppleValue(
                rawValueJSON: try values.map { String(decoding: try JSONEncoder().encode($0.rawValue), as: UTF8.self) },
                isKnown: values.map(\.isKnown),
                reencoded: try JSONEncoder().encode(values))
        }
    }

    /// A row per documented value and one for the unknown value.
    var cases: [AppleValueCase] {
        documentedJSON.map { AppleValueCase(type: self, json: $0, isDocumented: true) }
            + [AppleValueCase(type: self, json: unknownJSON, isDocumented: false)]
    }

    static let all: [AppleValueType] = [
        .strings(OwnershipType.self, ["PURCHASED", "FAMILY_SHARED"]),
        .strings(
            SendAttemptResult.self,
            [
                "SUCCESS", "TIMED_OUT", "TLS_ISSUE", "CIRCULAR_REDIRECT", "NO_RESPONSE", "SOCKET_ISSUE",
                "UNSUPPORTED_CHARSET", "INVALID_RESPONSE", "PREMATURE_CLOSE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE",
                "OTHER",
            ]),
        .strings(
            NotificationType.self,
            [
                "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED", "DID_RENEW",
                "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED",
                "REFUND_REVERSED", "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "REVOKE", "TEST",
                "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION",
                "PRICE_CHANGE",
            ]),
        .strings(
            NotificationSubtype.self,
            [
                "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED",
                "VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE", "GRACE_PERIOD",
                "BILLING_RECOVERY", "PENDING", "ACCEPTED", "SUMMARY", "FAILURE", "UNREPORTED", "CREATED",
                "ACTIVE_TOKEN_REMINDER",
            ]),
        .strings(
            ProductType.self,
            ["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"]),
        .strings(Environment.self, ["Production", "Sandbox", "Xcode", "LocalTesting"]),
        .integers(OfferType.self, [1, 2, 3, 4]),
        .strings(OfferDiscountType.self, ["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME"]),
        .integers(RevocationReason.self, [0, 1]),
        .strings(RevocationType.self, ["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE", "ASSIGNMENT_REVOKE"]),
        .strings(TransactionReason.self, ["PURCHASE", "RENEWAL"]),
        .integers(AutoRenewStatus.self, [0, 1]),
        .integers(ExpirationIntent.self, [1, 2, 3, 4, 5]),
        .integers(PriceIncreaseStatus.self, [0, 1]),
        .integers(SubscriptionStatus.self, [1, 2, 3, 4, 5]),
        .strings(
            ConsumptionRequestReason.self,
            ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]),
    ]
}

/// What decoding `[json]` produced.
struct DecodedAppleValue {
    var rawValueJSON: [String]
    var isKnown: [Bool]
    var reencoded: Data
}

/// One raw value of one Apple type.
struct AppleValueCase: CustomTestStringConvertible, Sendable {
    let type: AppleValueType
    let json: String
    let isDocumented: Bool

    var testDescription: String {
        isDocumented
            ? "\(type.name) \(json): documented, isKnown, same JSON back"
            : "\(type.name) \(json): unknown, kept with isKnown false, same JSON back"
    }
}

@Suite("Apple's open values")
struct AppleValueTests {
    @Test(
        "a raw value decodes, keeps its raw value, answers isKnown and re-encodes to the same bytes",
        arguments: AppleValueType.all.flatMap(\.cases))
    func roundTrip(_ row: AppleValueCase) throws {
        let input = Data("[\(row.json)]".utf8)
        let decoded = try row.type.decode(input)
        #expect(decoded.rawValueJSON == [row.json])
        #expect(decoded.isKnown == [row.isDocumented])
        #expect(String(decoding: decoded.reencoded, as: UTF8.self) == "[\(row.json)]")
    }

    @Test("documentedValues lists exactly Apple's documented raw values, none twice", arguments: AppleValueType.all)
    func documentedValues(_ type: AppleValueType) throws {
        let listed = try type.libraryDocumentedJSON()
        #expect(listed.count == Set(listed).count, "duplicates in \(listed)")
        #expect(Set(listed) == Set(type.documentedJSON))
        #expect(!listed.contains(type.unknownJSON))
    }

    @Test("an unknown value inside a payload decodes and is kept, not dropped")
    func unknownValueInPayload() throws {
        let json = #"{"inAppOwnershipType":"ASSIGNED","offerType":99,"type":"Subscription Bundle"}"#
        let transaction = try TransactionPayload(jsonData: Data(json.utf8))
        #expect(transaction.inAppOwnershipType == OwnershipType(rawValue: "ASSIGNED"))
        #expect(transaction.inAppOwnershipType?.isKnown == false)
        #expect(transaction.offerType?.rawValue == 99)
        #expect(transaction.type?.isKnown == false)
        #expect(String(decoding: try transaction.jsonData(), as: UTF8.self) == json)
    }
}
