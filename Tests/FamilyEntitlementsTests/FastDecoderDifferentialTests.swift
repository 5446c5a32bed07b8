import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The fast decoding path against the reference path (Foundation's `JSONDecoder` and the payloads' `init(from:)`).
///
/// Every input, whatever its source, is held to the same rules: where both paths accept, the values are equal (and
/// encode to the same bytes, which `String` equality alone would not show); the fast path accepts nothing the
/// reference rejects; where only the reference accepts, the input is not RFC 8259 JSON (an independent checker below
/// says so); and no input that breaks RFC 8259 is accepted by the fast path. Where both reject and the reference names
/// a member, the public error is the reference's.
struct FastDecoderDifferentialTests {
    // MARK: - The rules

    /// What the two paths made of one input, decoded as one payload type.
    struct Comparison {
        var referenceAccepts: Bool
        var fastAccepts: Bool
        /// Whether the values are equal, where both paths accept.
        var valuesAreEqual: Bool
        /// Whether the fast path on its own left the input to the reference (a number only `Decimal` reads alike).
        var fastPathDeferred: Bool
        /// Whether the fast path on its own, without the reference, disagrees with the reference.
        var fastPathAloneDisagrees: Bool
        var fastError: PayloadDecodingError?
        var referenceError: PayloadDecodingError?
    }

    /// The payload types both paths decode, each with a name for messages.
    static let kinds: [(name: String, compare: @Sendable (Data) -> Comparison)] = [
        ("transaction", { compare(TransactionPayload.self, $0) }),
        ("renewal info", { compare(RenewalInfoPayload.self, $0) }),
        ("notification", { compare(NotificationPayload.self, $0) }),
        ("app transaction", { compare(AppTransactionPayload.self, $0) }),
        ("transaction history", { compare(TransactionHistoryResponse.self, $0) }),
        ("subscription statuses", { compare(SubscriptionStatusesResponse.self, $0) }),
        ("notification request body", { compare(NotificationRequestBody.self, $0) }),
        ("transaction info", { compare(TransactionInfoResponse.self, $0) }),
        ("notification history", { compare(NotificationHistoryResponse.self, $0) }),
        ("renewal extension", { compare(ExtendRenewalDateResponse.self, $0) }),
        ("subscription status snapshot", { compare(SubscriptionStatusSnapshot.self, $0) }),
    ]

    static func compare<T: AppStorePayload>(_ type: T.Type, _ data: Data) -> Comparison {
        let reference = Result { () throws(PayloadDecodingError) in try T(referenceJSONData: data) }
        let fast = Result { () throws(PayloadDecodingError) in try T(jsonData: data) }
        let fastAlone = T.decodeWithFastPathOnly(data)
        var comparison = Comparison(
            referenceAccepts: false, fastAccepts: false, valuesAreEqual: false, fastPathDeferred: fastAlone == nil,
            fastPathAloneDisagrees: false)
        switch reference {
        case .success(let referenceValue):
            comparison.referenceAccepts = true
            if case .success(let fastValue) = fast {
                comparison.fastAccepts = true
                comparison.valuesAreEqual = same(fastValue, referenceValue)
            }
            if case .success(let aloneValue) = fastAlone {
                comparison.fastPathAloneDisagrees = !same(aloneValue, referenceValue)
            }
        case .failure(let error):
            comparison.referenceError = error
            if case .success = fast { comparison.fastAccepts = true }
            if case .success = fastAlone { comparison.fastPathAloneDisagrees = true }
        }
        if case .failure(let error) = fast { comparison.fastError = error }
        return comparison
    }

    /// Equal as values, and encoded to the same bytes: `String` equality is canonical equivalence, bytes are not.
    static func same<T: AppStorePayload>(_ first: T, _ second: T) -> Bool {
        guard first == second else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(first)) == (try? encoder.encode(second))
    }

    /// Records an issue for every rule the comparison breaks.
    static func checkRules(_ comparison: Comparison, input: Data, _ label: String) {
        let isJSON = RFC8259.isJSONText(Array(input))
        let label = "\(label): \(String(decoding: input.prefix(600), as: UTF8.self).debugDescription)"
        if comparison.fastAccepts {
            #expect(comparison.referenceAccepts, "the fast path accepts what the reference rejects: \(label)")
        }
        if comparison.fastAccepts, comparison.referenceAccepts {
            #expect(comparison.valuesAreEqual, "the paths decode different values: \(label)")
        }
        if comparison.referenceAccepts, !comparison.fastAccepts {
            #expect(!isJSON, "only the reference accepts, yet the input is RFC 8259 JSON: \(label)")
        }
        if !isJSON {
            #expect(!comparison.fastAccepts, "the fast path accepts what breaks RFC 8259: \(label)")
        }
        #expect(!comparison.fastPathAloneDisagrees, "the fast path alone disagrees with the reference: \(label)")
        if let referenceError = comparison.referenceError, let fastError = comparison.fastError,
            referenceError.code != .malformedJSON || !referenceError.path.isEmpty
        {
            #expect(fastError == referenceError, "the error differs from the reference's: \(label)")
        }
    }

    /// Decodes `input` as every payload type and checks the rules for each.
    static func checkAllKinds(_ input: Data, _ label: String) {
        for kind in kinds {
            checkRules(kind.compare(input), input: input, "\(label), as \(kind.name)")
        }
    }

    // MARK: - Generated realistic payloads

    struct GeneratedBatch: CustomTestStringConvertible, Sendable {
        var kind: String
        var pretty: Bool
        var count: Int
        var testDescription: String {
            "\(count) generated \(kind) payloads, \(pretty ? "pretty-printed" : "compact") JSON: both paths agree"
        }

        static let all: [GeneratedBatch] = [
            "transaction", "renewal info", "notification", "app transaction",
            "transaction history", "subscription statuses", "notification request body",
        ].flatMap { kind in [false, true].map { GeneratedBatch(kind: kind, pretty: $0, count: 150) } }
    }

    @Test(arguments: GeneratedBatch.all)
    func generatedPayloadsDecodeAlike(_ batch: GeneratedBatch) throws {
        var generator = PayloadGenerator(seed: UInt64(batch.kind.utf8.count * 7919 + (batch.pretty ? 1 : 0)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = batch.pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
        let compare = try #require(Self.kinds.first { $0.name == batch.kind }).compare
        for index in 0..<batch.count {
            let data = try generator.payload(of: batch.kind, encoder: encoder)
            let comparison = compare(data)
            #expect(comparison.referenceAccepts, "the reference rejects generated \(batch.kind) \(index)")
            Self.checkRules(comparison, input: data, "generated \(batch.kind) \(index)")
        }
    }

    // MARK: - Long strings

    /// One special thing placed in a long string value: what it is, as the bytes written into the JSON.
    static let longStringSpecials: [(name: String, bytes: [UInt8])] = [
        ("nothing", []), ("an escaped quote", Array(#"\""#.utf8)), ("an escaped backslash", Array(#"\\"#.utf8)),
        ("an escaped solidus", Array(#"\/"#.utf8)), ("a line feed escape", Array(#"\n"#.utf8)),
        ("a \\u escape", Array(#"\u00e9"#.utf8)), ("a surrogate pair", Array(#"\ud83d\ude00"#.utf8)),
        ("half a surrogate pair", Array(#"\ud83d"#.utf8)), ("an unknown escape", Array(#"\x"#.utf8)),
        ("a raw control character", [0x01]), ("a raw tab", [0x09]), ("a raw DEL", [0x7F]),
        ("é in UTF-8", [0xC3, 0xA9]), ("a four-byte character", [0xF0, 0x9F, 0x98, 0x80]),
        ("a lone continuation byte", [0x80]), ("an overlong encoding", [0xC0, 0xAF]), ("the byte 0xFF", [0xFF]),
        ("a truncated sequence", [0xE2, 0x82]), ("a raw quote", [0x22]),
        // Three bytes that a `String` repairs into one U+FFFD, itself three bytes: the byte count alone does not show
        // the repair. Two were added together, so that the count (21) stays prime to the four members.
        ("a four-byte sequence cut after three", [0xF0, 0x9F, 0x98]), ("a surrogate in UTF-8", [0xED, 0xA0, 0x80]),
    ]

    /// Signed strings are long: past their first 32 bytes the reader finds their end with `memchr` and checks what lies
    /// before it with vector compares. Generated strings of 33 to 700 base64url bytes, each holding one special thing
    /// at a random offset (or at the very end, or none), in the two signed members of a notification, in a
    /// transaction's `bundleId` and in a member no payload declares, some left unclosed: both paths agree under the
    /// rules, a plain string reads back whole, and the document read from a slice of a larger buffer (quotes and
    /// backslashes around it) decodes exactly as it does alone.
    @Test func longStringsWithOneSpecialThingAnywhereDecodeAlike() throws {
        var random = SeededRandom(seed: 20_261_202)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        var plainStringsRead = 0
        for round in 0..<1_200 {
            let length = 33 + Int(random.next() % 668)
            var text = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let special = Self.longStringSpecials[round % Self.longStringSpecials.count]
            let offset = random.next() % 4 == 0 ? text.count : Int(random.next() % UInt64(text.count + 1))
            text.insert(contentsOf: special.bytes, at: offset)
            let closed = random.next() % 16 != 0
            let quote = UInt8(ascii: "\"")
            let value = [quote] + text + (closed ? [quote] : [])
            let member = round % 4
            let document: [UInt8]
            switch member {
            case 0:
                document =
                    Array(#"{"notificationType":"DID_RENEW","data":{"signedTransactionInfo":"#.utf8) + value
                    + Array(#","signedRenewalInfo":"a.b.c"},"version":"2.0"}"#.utf8)
            case 1:
                document =
                    Array(#"{"notificationType":"REVOKE","data":{"signedRenewalInfo":"#.utf8) + value
                    + Array("}}".utf8)
            case 2:
                document = Array(#"{"transactionId":"1","bundleId":"#.utf8) + value + Array("}".utf8)
            default:
                // A member no payload declares: the reader passes over its value, where JSONDecoder is lenient.
                document = Array(#"{"transactionId":"1","futureField":"#.utf8) + value + Array(#","price":1}"#.utf8)
            }
            let data = Data(document)
            let label =
                "round \(round), \(special.name) at offset \(offset) of \(length), \(closed ? "closed" : "unclosed")"
            let decode: (Data) -> String
            if member >= 2 {
                Self.checkRules(Self.compare(TransactionPayload.self, data), input: data, label)
                decode = { data in
                    "\(Result { () throws(PayloadDecodingError) in try TransactionPayload(jsonData: data) })"
                }
            } else {
                Self.checkRules(Self.compare(NotificationPayload.self, data), input: data, label)
                decode = { data in
                    "\(Result { () throws(PayloadDecodingError) in try NotificationPayload(jsonData: data) })"
                }
            }
            // The same document as a slice of a larger buffer whose bytes around it are quotes and backslashes: nothing
            // outside the slice may be read, so the outcome is the same.
            let around = Array(#""\""#.utf8)
            let padded = Data(around + document + around)
            let slice = padded[padded.startIndex + around.count..<padded.startIndex + around.count + document.count]
            #expect(decode(slice) == decode(data), "\(label), read from a slice")
            if special.bytes.isEmpty, closed, member == 0 {
                let decoded = try NotificationPayload(jsonData: data)
                #expect(decoded.data?.signedTransactionInfo == String(decoding: text, as: UTF8.self), "\(label)")
                plainStringsRead += 1
            }
        }
        #expect(plainStringsRead > 10)
    }

    // MARK: - Fixtures and Apple's samples

    struct DocumentFile: CustomTestStringConvertible, Sendable {
        var url: URL
        var testDescription: String

        /// Every *.json under Fixtures/ (recursively) and Apple's model samples, where they exist.
        static let all: [DocumentFile] = {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let fixtures = jsonFiles(under: root.appendingPathComponent("Fixtures")).map {
                DocumentFile(url: $0, testDescription: "fixture \($0.lastPathComponent): both paths agree, every kind")
            }
            let samples = jsonFiles(
                under: root.deletingLastPathComponent().appendingPathComponent("shared/apple-samples/swift/models")
            ).map {
                DocumentFile(url: $0, testDescription: "Apple sample \($0.lastPathComponent): both paths agree")
            }
            return fixtures + samples
        }()

        static func jsonFiles(under directory: URL) -> [URL] {
            guard
                let enumerator = FileManager.default.enumerator(
                    at: directory.resolvingSymlinksInPath(), includingPropertiesForKeys: nil)
            else { return [] }
            return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
                .sorted { $0.path < $1.path }
        }
    }

    @Test(arguments: DocumentFile.all)
    func fixturesAndSamplesDecodeAlike(_ file: DocumentFile) throws {
        let data = try Data(contentsOf: file.url)
        Self.checkAllKinds(data, file.url.lastPathComponent)
        let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data))
        Self.checkAllKinds(compact, "\(file.url.lastPathComponent), compacted")
        if let document = try? AppStoreDocument(data: data) {
            #expect(Self.referenceDocument(data, as: document.kind) == document, "recognised \(document.kind)")
        }
    }

    /// The document of `kind` decoded by the reference path.
    static func referenceDocument(_ data: Data, as kind: AppStoreDocument.Kind) -> AppStoreDocument? {
        switch kind {
        case .transaction: (try? TransactionPayload(referenceJSONData: data)).map { .transaction($0) }
        case .renewalInfo: (try? RenewalInfoPayload(referenceJSONData: data)).map { .renewalInfo($0) }
        case .appTransaction: (try? AppTransactionPayload(referenceJSONData: data)).map { .appTransaction($0) }
        case .notification: (try? NotificationPayload(referenceJSONData: data)).map { .notification($0) }
        case .transactionHistory:
            (try? TransactionHistoryResponse(referenceJSONData: data)).map { .transactionHistory($0) }
        case .subscriptionStatuses:
            (try? SubscriptionStatusesResponse(referenceJSONData: data)).map { .subscriptionStatuses($0) }
        case .notificationRequestBody:
            (try? NotificationRequestBody(referenceJSONData: data)).map { .notificationRequestBody($0) }
        case .transactionInfo: (try? TransactionInfoResponse(referenceJSONData: data)).map { .transactionInfo($0) }
        case .notificationHistory:
            (try? NotificationHistoryResponse(referenceJSONData: data)).map { .notificationHistory($0) }
        case .renewalExtension:
            (try? ExtendRenewalDateResponse(referenceJSONData: data)).map { .renewalExtension($0) }
        }
    }

    // MARK: - Tricky inputs

    /// What a tricky input should give.
    enum Expectation: Sendable, Equatable {
        case bothAccept
        case bothReject
        /// Only `JSONDecoder` on its own accepts it; the input breaks the RFC 8259 rule named, so the strict check
        /// that the reference path runs before `JSONDecoder` refuses it, as the fast path does.
        case onlyReferenceAccepts(String)
        /// An object names a member twice: `JSONDecoder` on its own keeps the first, where other readers keep the
        /// last; both paths refuse it as `duplicate_member` at the path of the second.
        case duplicate(path: String)
    }

    struct TrickyCase: CustomTestStringConvertible, Sendable {
        var bytes: [UInt8]
        var kind: String
        var expectation: Expectation
        var testDescription: String

        init(_ description: String, _ json: String, _ expectation: Expectation, kind: String = "transaction") {
            self.init(description, bytes: Array(json.utf8), expectation, kind: kind)
        }

        init(_ description: String, bytes: [UInt8], _ expectation: Expectation, kind: String = "transaction") {
            self.bytes = bytes
            self.kind = kind
            self.expectation = expectation
            testDescription = description
        }

        static func withByte(_ prefix: String, _ bytes: [UInt8], _ suffix: String) -> [UInt8] {
            Array(prefix.utf8) + bytes + Array(suffix.utf8)
        }

        static func nested(_ depth: Int, in member: String) -> String {
            #"{"\#(member)":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        }

        static let all: [TrickyCase] = strings + numbers + duplicatesAndNesting + syntax + types

        static let strings: [TrickyCase] = [
            .init(
                "escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t in a field -> both accept",
                #"{"productId":"a\"b\\c\/d\b\f\n\r\te"}"#, .bothAccept),
            .init(
                "\\u escapes of accented and CJK letters -> both accept", #"{"productId":"\u00e9\u4E2D"}"#, .bothAccept),
            .init("a \\u surrogate pair for an emoji -> both accept", #"{"productId":"\ud83d\ude00"}"#, .bothAccept),
            .init("\\u0000 in a field -> both accept", #"{"productId":"a\u0000b"}"#, .bothAccept),
            .init("a lone high surrogate in a field -> both reject", #"{"productId":"\ud800"}"#, .bothReject),
            .init("a lone low surrogate in a field -> both reject", #"{"productId":"\udc00x"}"#, .bothReject),
            .init(
                "a high surrogate followed by a non-surrogate escape -> both reject", #"{"productId":"\ud800\u0041"}"#,
                .bothReject),
            .init(
                "a lone surrogate in an unknown member's value (RFC 8259 8.2 allows it) -> both accept",
                #"{"price":1,"note":"\ud800"}"#, .bothAccept),
            .init(
                "a lone surrogate in an unknown member's name -> both reject", #"{"price":1,"\ud800":1}"#, .bothReject),
            .init("an unknown escape \\x in a field -> both reject", #"{"productId":"\x41"}"#, .bothReject),
            .init(
                "an unknown escape \\x in an unknown member", #"{"price":1,"note":"\x41"}"#,
                .onlyReferenceAccepts("section 7: an escape is one of \" \\ / b f n r t u")),
            .init("a short \\u escape in a field -> both reject", #"{"productId":"\u12"}"#, .bothReject),
            .init(
                "invalid UTF-8 (C3 28) in a field -> both reject",
                bytes: withByte(#"{"productId":""#, [0xC3, 0x28], #""}"#), .bothReject),
            .init(
                "invalid UTF-8 (C3 28) in an unknown member's value",
                bytes: withByte(#"{"price":1,"note":""#, [0xC3, 0x28], #""}"#),
                .onlyReferenceAccepts("section 8.1: JSON text is UTF-8")),
            .init(
                "invalid UTF-8 in an unknown member's name -> both reject",
                bytes: withByte(#"{"price":1,""#, [0xFF], #"":1}"#), .bothReject),
            .init(
                "an overlong UTF-8 encoding (C0 AF) -> both reject",
                bytes: withByte(#"{"productId":""#, [0xC0, 0xAF], #""}"#), .bothReject),
            .init(
                "a surrogate encoded in UTF-8 (ED A0 80) -> both reject",
                bytes: withByte(#"{"productId":""#, [0xED, 0xA0, 0x80], #""}"#), .bothReject),
            .init(
                "a code point beyond U+10FFFF (F4 90 80 80) -> both reject",
                bytes: withByte(#"{"productId":""#, [0xF4, 0x90, 0x80, 0x80], #""}"#), .bothReject),
            .init(
                "the noncharacter U+FFFF, valid UTF-8 -> both accept",
                bytes: withByte(#"{"productId":""#, [0xEF, 0xBF, 0xBF], #""}"#), .bothAccept),
            .init("a raw tab in a field -> both reject", "{\"productId\":\"a\tb\"}", .bothReject),
            .init(
                "a raw control character in an unknown member's value",
                bytes: withByte(#"{"price":1,"note":""#, [0x01], #""}"#),
                .onlyReferenceAccepts("section 7: control characters must be escaped")),
            .init(
                "DEL (0x7F) in a field, which needs no escape -> both accept", "{\"productId\":\"a\u{7F}\"}",
                .bothAccept),
            .init(
                "a member name written with escapes (\\u0070rice) is price -> both accept", #"{"\u0070rice":5}"#,
                .bothAccept),
            .init(
                "a UUID in upper case -> both accept", #"{"appAccountToken":"7E3FB20B-4CDB-47CC-936D-99D65F608138"}"#,
                .bothAccept),
            .init(
                "a UUID in braces -> both reject", #"{"appAccountToken":"{7e3fb20b-4cdb-47cc-936d-99d65f608138}"}"#,
                .bothReject),
            .init(
                "a UUID followed by \\u0000 and text (read as UUID(uuidString:) reads it) -> both agree",
                #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138\u0000xyz"}"#, .bothAccept),
            .init(
                "a UUID with a letter that is not hex -> both reject",
                #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f60813g"}"#, .bothReject),
        ]

        static let numbers: [TrickyCase] = [
            .init("an exponent 1e3 for an Int64 price -> both accept 1000", #"{"price":1e3}"#, .bothAccept),
            .init("1E+3 and 10e-1 for integers -> both accept", #"{"price":1E+3,"quantity":10e-1}"#, .bothAccept),
            .init("1.0 for an Int32 quantity -> both accept 1", #"{"quantity":1.0}"#, .bothAccept),
            .init("1.5 for an Int64 price -> both reject", #"{"price":1.5}"#, .bothReject),
            .init("1e-3 for an Int64 price -> both reject", #"{"price":1e-3}"#, .bothReject),
            .init("-0 and -0.0 for integers -> both accept 0", #"{"price":-0,"quantity":-0.0}"#, .bothAccept),
            .init("1e-400 for an integer rounds to 0 -> both accept", #"{"quantity":1e-400}"#, .bothAccept),
            .init("Int64.max for a price -> both accept", #"{"price":9223372036854775807}"#, .bothAccept),
            .init("Int64.min for a price -> both accept", #"{"price":-9223372036854775808}"#, .bothAccept),
            .init("one past Int64.max -> both reject", #"{"price":9223372036854775808}"#, .bothReject),
            .init("one past Int64.min -> both reject", #"{"price":-9223372036854775809}"#, .bothReject),
            .init(
                "Int64.max written 9223372036854775807.0 -> both reject", #"{"price":9223372036854775807.0}"#,
                .bothReject),
            .init("1e19 for an Int64 -> both reject", #"{"price":1e19}"#, .bothReject),
            .init(
                "1.0e16 for an Int64, beyond 2^53 (the fast path defers) -> both accept", #"{"price":1.0e16}"#,
                .bothAccept),
            .init(
                "12345678901234567.5, which JSONDecoder truncates through Decimal (deferred) -> both accept",
                #"{"price":12345678901234567.5}"#, .bothAccept),
            .init(
                "9007199254740993.0, which a Double rounds to 2^53 (deferred, read exactly) -> both accept",
                #"{"price":9007199254740993.0}"#, .bothAccept),
            .init(
                "an exponent past 2^64 (1e18446744073709551617) for a price -> both reject",
                #"{"price":1e18446744073709551617}"#, .bothReject),
            .init("Int32.max for a quantity -> both accept", #"{"quantity":2147483647}"#, .bothAccept),
            .init("one past Int32.max for a quantity -> both reject", #"{"quantity":2147483648}"#, .bothReject),
            .init("2.147483647e9 for an Int32 -> both accept", #"{"quantity":2.147483647e9}"#, .bothAccept),
            .init(
                "a fractional-millisecond date from Xcode -> both accept", #"{"purchaseDate":1697679936049.7297}"#,
                .bothAccept),
            .init("Xcode's year-1 date -> both accept", #"{"originalPurchaseDate":-62135769600000}"#, .bothAccept),
            .init(
                "the earliest date accepted (MillisecondDate.earliest) -> both accept",
                #"{"originalPurchaseDate":-62135942400000}"#, .bothAccept),
            .init(
                "one millisecond before the earliest date accepted -> both reject",
                #"{"originalPurchaseDate":-62135942400001}"#, .bothReject),
            .init("a date of 1e300 ms, past the year 9999 -> both reject", #"{"purchaseDate":1e300}"#, .bothReject),
            .init("a date of 1e400, beyond Double -> both reject", #"{"purchaseDate":1e400}"#, .bothReject),
            .init("a date of 1e-400, which rounds to zero -> both reject", #"{"purchaseDate":1e-400}"#, .bothReject),
            .init("a date of 0e99999 -> both accept", #"{"purchaseDate":0e99999}"#, .bothAccept),
            .init("a date of 0e0 -> both accept", #"{"purchaseDate":0e0}"#, .bothAccept),
            .init(
                "a date of 0e3, which JSONDecoder takes for an underflow -> both reject", #"{"purchaseDate":0e3}"#,
                .bothReject),
            .init("a date of -0e3, a zero to JSONDecoder -> both accept", #"{"purchaseDate":-0e3}"#, .bothAccept),
            .init(
                "a date with 400 digits -> both reject", #"{"purchaseDate":\#(String(repeating: "9", count: 400))}"#,
                .bothReject),
            .init("a leading zero in a field -> both reject", #"{"price":01}"#, .bothReject),
            .init(
                "a leading zero in an unknown member", #"{"price":1,"note":01}"#,
                .onlyReferenceAccepts("section 6: no leading zeros")),
            .init(
                "a bare minus in an unknown member", #"{"price":1,"note":-}"#,
                .onlyReferenceAccepts("section 6: a number has digits")),
            .init(
                "1. in an unknown member", #"{"price":1,"note":1.}"#,
                .onlyReferenceAccepts("section 6: a fraction has digits")),
            .init(
                "1e in an unknown member", #"{"price":1,"note":1e}"#,
                .onlyReferenceAccepts("section 6: an exponent has digits")),
            .init(
                "1.2.3 in an unknown member", #"{"price":1,"note":1.2.3}"#,
                .onlyReferenceAccepts("section 6: one fraction at most")),
            .init(".5 in an unknown member -> both reject", #"{"price":1,"note":.5}"#, .bothReject),
            .init("+1 in an unknown member -> both reject", #"{"price":1,"note":+1}"#, .bothReject),
            .init("NaN in an unknown member -> both reject", #"{"price":1,"note":NaN}"#, .bothReject),
            .init("1e999 in an unknown member -> both accept", #"{"price":1,"note":1e999}"#, .bothAccept),
            .init(
                "Advanced Commerce numbers: 1.5, 1e-400, 2^63, -0.0 -> both accept",
                #"{"advancedCommerceInfo":{"a":1.5,"b":1e-400,"c":9223372036854775808,"d":-0.0,"e":[0.1,-2]}}"#,
                .bothAccept),
            .init(
                "Advanced Commerce 1e400 -> both reject", #"{"advancedCommerceInfo":{"extra":[1e400]}}"#, .bothReject),
            .init(
                "an Advanced Commerce item that is a number -> both reject", #"{"advancedCommerceInfo":{"items":[1]}}"#,
                .bothReject),
            .init(
                "taxRate 0.15 -> both accept", #"{"advancedCommerceInfo":{"taxRate":"0.15"}}"#, .bothAccept),
            .init("taxRate 7 -> both accept", #"{"advancedCommerceInfo":{"taxRate":"7"}}"#, .bothAccept),
            .init("taxRate -0.5 -> both accept", #"{"advancedCommerceInfo":{"taxRate":"-0.5"}}"#, .bothAccept),
            .init(
                "taxRate with 38 digits -> both accept",
                #"{"advancedCommerceInfo":{"taxRate":"0.\#(String(repeating: "1", count: 37))"}}"#, .bothAccept),
            .init(
                "taxRate with 39 digits, leading zero included, beyond the 38 read -> both reject",
                #"{"advancedCommerceInfo":{"taxRate":"0.\#(String(repeating: "1", count: 38))"}}"#, .bothReject),
            .init(
                "taxRate as a number, not a string -> both reject", #"{"advancedCommerceInfo":{"taxRate":0.15}}"#,
                .bothReject),
            .init(
                "taxRate 1e-2 -> both reject", #"{"advancedCommerceInfo":{"taxRate":"1e-2"}}"#, .bothReject),
            .init("taxRate 15% -> both reject", #"{"advancedCommerceInfo":{"taxRate":"15%"}}"#, .bothReject),
            .init("taxRate .15 -> both reject", #"{"advancedCommerceInfo":{"taxRate":".15"}}"#, .bothReject),
            .init("taxRate 1. -> both reject", #"{"advancedCommerceInfo":{"taxRate":"1."}}"#, .bothReject),
            .init("taxRate \" 0.15\" -> both reject", #"{"advancedCommerceInfo":{"taxRate":" 0.15"}}"#, .bothReject),
            .init("taxRate -0 -> both accept", #"{"advancedCommerceInfo":{"taxRate":"-0"}}"#, .bothAccept),
            .init(
                "SKU written with the Kelvin sign (canonically K) is the field SKU to both paths -> both accept",
                #"{"advancedCommerceInfo":{"items":[{"S\u212AU":"x"}]}}"#, .bothAccept),
            .init(
                "SKU, then SKU with the Kelvin sign: one member named twice -> both refuse it",
                #"{"advancedCommerceInfo":{"items":[{"SKU":"a","S\u212AU":"b"}]}}"#,
                .duplicate(path: "advancedCommerceInfo.items[0].SKU")),
            .init(
                "dependentSKUs with the Kelvin sign in UTF-8 -> both accept",
                "{\"advancedCommerceInfo\":{\"items\":[{\"priceIncreaseInfo\":{\"dependentS\u{212A}Us\":[\"a\"]}}]}}",
                .bothAccept, kind: "renewal info"),
            .init(
                "an unknown Advanced Commerce member with an escaped name is kept -> both accept",
                #"{"advancedCommerceInfo":{"n\u0065w":{"a":[1,null]},"items":[{"SKU":"s","later":true}]}}"#,
                .bothAccept),
            .init(
                "Advanced Commerce 1.0e16 (deferred) -> both accept", #"{"advancedCommerceInfo":{"a":1.0e16}}"#,
                .bothAccept),
            .init(
                "Advanced Commerce null is an absent field -> both accept", #"{"advancedCommerceInfo":null}"#,
                .bothAccept),
        ]

        static let duplicatesAndNesting: [TrickyCase] = [
            .init("a duplicate price -> both refuse it", #"{"price":1,"price":2}"#, .duplicate(path: "price")),
            .init(
                "a duplicate price of another type after a good one -> both refuse it", #"{"price":1,"price":"x"}"#,
                .duplicate(path: "price")),
            .init(
                "a duplicate price of the wrong type first -> both reject", #"{"price":"x","price":1}"#, .bothReject),
            .init(
                "a duplicate null first -> both refuse it", #"{"type":null,"type":"Consumable"}"#,
                .duplicate(path: "type")),
            .init(
                "a duplicate name written with an escape -> both refuse it", #"{"price":1,"pric\u0065":2}"#,
                .duplicate(path: "price")),
            .init(
                "a duplicate unknown member -> both refuse it", #"{"later":1,"price":1,"later":2}"#,
                .duplicate(path: "later")),
            .init(
                "a duplicate inside an unknown member's object -> both refuse it at its path",
                #"{"later":[{"a":1},{"a":1,"a":2}]}"#, .duplicate(path: "later[1].a")),
            .init(
                "a duplicate Advanced Commerce name -> both refuse it", #"{"advancedCommerceInfo":{"a":1,"a":2}}"#,
                .duplicate(path: "advancedCommerceInfo.a")),
            .init(
                "canonically equivalent Advanced Commerce names (é and e + U+0301) -> both refuse them",
                "{\"advancedCommerceInfo\":{\"\u{E9}\":1,\"e\u{301}\":2}}",
                .duplicate(path: "advancedCommerceInfo.e\u{301}")),
            .init(
                "a duplicate Advanced Commerce name whose later value no JSONValue holds -> both refuse it",
                #"{"advancedCommerceInfo":{"a":1,"a":1e400}}"#, .duplicate(path: "advancedCommerceInfo.a")),
            .init(
                "a duplicate inside an Advanced Commerce member kept as a JSONValue -> both refuse it",
                #"{"advancedCommerceInfo":{"new":[{"b":true,"b":false}]}}"#,
                .duplicate(path: "advancedCommerceInfo.new[0].b")),
            .init(
                "511 nested arrays in an unknown member (depth 512) -> both accept", nested(511, in: "x"), .bothAccept),
            .init(
                "512 nested arrays in an unknown member (depth 513) -> both reject", nested(512, in: "x"), .bothReject),
            .init(
                "510 nested arrays in an unknown Advanced Commerce member (depth 512) -> both accept",
                #"{"advancedCommerceInfo":"# + nested(510, in: "x") + "}", .bothAccept),
            .init(
                "511 nested arrays in an unknown Advanced Commerce member (depth 513) -> both reject",
                #"{"advancedCommerceInfo":"# + nested(511, in: "x") + "}", .bothReject),
            .init(
                "5,000 nested arrays -> both reject, without exhausting the stack", nested(5_000, in: "x"),
                .bothReject),
            .init(
                "a notification's decoded transaction -> both accept",
                #"{"notificationType":"REVOKE","data":{"transactionInfo":{"price":1,"inAppOwnershipType":"FAMILY_SHARED"}}}"#,
                .bothAccept, kind: "notification"),
            .init(
                "a notification's decoded transaction with a wrong type -> both reject",
                #"{"data":{"transactionInfo":{"price":"1"}}}"#, .bothReject, kind: "notification"),
        ]

        static let syntax: [TrickyCase] = [
            .init(
                "a trailing comma in an object", #"{"price":1,}"#,
                .onlyReferenceAccepts("section 4: members are separated, not ended, by commas")),
            .init(
                "a trailing comma in an array", #"{"signedTransactions":["a",]}"#,
                .onlyReferenceAccepts("section 5: values are separated, not ended, by commas"),
                kind: "transaction history"),
            .init(
                "a trailing comma in an unknown member's array", #"{"price":1,"note":[1,2,]}"#,
                .onlyReferenceAccepts("section 5: values are separated, not ended, by commas")),
            .init("an empty array element -> both reject", #"{"price":1,"note":[,]}"#, .bothReject),
            .init(
                "a byte order mark before the object (a parser may ignore it, section 8.1) -> both accept",
                bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"price":1}"#.utf8), .bothAccept),
            .init(
                "a byte order mark after the object -> both reject",
                bytes: Array(#"{"price":1}"#.utf8) + [0xEF, 0xBB, 0xBF],
                .bothReject),
            .init(
                "UTF-16LE with a byte order mark",
                bytes: [0xFF, 0xFE] + #"{"price":1}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
                .onlyReferenceAccepts("section 8.1: JSON text exchanged between systems is UTF-8")),
            .init(
                "UTF-32BE with a byte order mark",
                bytes: [0, 0, 0xFE, 0xFF] + #"{"price":1}"#.utf8.flatMap { [0, 0, 0, $0] },
                .onlyReferenceAccepts("section 8.1: JSON text exchanged between systems is UTF-8")),
            .init(
                "UTF-16LE without a byte order mark",
                bytes: #"{"price":1}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
                .onlyReferenceAccepts("section 8.1: JSON text exchanged between systems is UTF-8")),
            .init(
                "space, tab, line feed and carriage return everywhere -> both accept",
                " \t\r\n{ \t\r\n\"price\" \t\r\n: \t\r\n1 \t\r\n, \"x\" : [ 1 , { } ] } \t\r\n", .bothAccept),
            .init("a form feed as white space -> both reject", "{\"price\":1\u{0C}}", .bothReject),
            .init("a no-break space as white space -> both reject", "{\"price\":1\u{A0}}", .bothReject),
            .init("an empty document -> both reject", "", .bothReject),
            .init("white space only -> both reject", "  \n", .bothReject),
            .init("null at the top -> both reject", "null", .bothReject),
            .init("an array at the top -> both reject", "[]", .bothReject),
            .init("a string at the top -> both reject", #""price""#, .bothReject),
            .init("text after the object -> both reject", #"{"price":1} x"#, .bothReject),
            .init("two objects -> both reject", #"{"price":1}{"price":2}"#, .bothReject),
            .init("a NUL byte after the object -> both reject", bytes: Array(#"{"price":1}"#.utf8) + [0], .bothReject),
            .init("an unclosed object -> both reject", #"{"price":1"#, .bothReject),
            .init("an unclosed string -> both reject", #"{"productId":"abc"#, .bothReject),
            .init("a member name without quotes -> both reject", #"{price:1}"#, .bothReject),
            .init("single quotes -> both reject", #"{'price':1}"#, .bothReject),
            .init("a comment -> both reject", #"{"price":1/* c */}"#, .bothReject),
            .init("a missing colon -> both reject", #"{"price" 1}"#, .bothReject),
            .init("a missing comma -> both reject", #"{"price":1 "quantity":1}"#, .bothReject),
            .init("tru for true -> both reject", #"{"isUpgraded":tru}"#, .bothReject),
            .init(
                "unknown members of every JSON type -> both accept",
                #"{"a":null,"b":true,"c":false,"d":-1.5e-3,"e":"x","f":[],"g":{},"h":[{"i":[null]}],"price":3}"#,
                .bothAccept),
            .init(
                "a syntax error after a wrong type -> both reject", #"{"price":"x","quantity":}"#, .bothReject),
        ]

        static let types: [TrickyCase] = [
            .init(
                "null for every field -> both accept",
                #"{"transactionId":null,"price":null,"quantity":null,"purchaseDate":null,"isUpgraded":null,"#
                    + #""type":null,"appAccountToken":null,"commitmentInfo":null,"offerType":null}"#, .bothAccept),
            .init("true for an Int64 -> both reject", #"{"price":true}"#, .bothReject),
            .init("a string for an Int64 -> both reject", #"{"price":"1"}"#, .bothReject),
            .init("1 for a Bool -> both reject", #"{"isUpgraded":1}"#, .bothReject),
            .init("a string for a date -> both reject", #"{"purchaseDate":"2024-01-01"}"#, .bothReject),
            .init("an object for a string -> both reject", #"{"productId":{}}"#, .bothReject),
            .init("an array for a nested object -> both reject", #"{"commitmentInfo":[]}"#, .bothReject),
            .init("a string for an Int32 open value -> both reject", #"{"offerType":"1"}"#, .bothReject),
            .init(
                "an unknown open value is kept -> both accept", #"{"inAppOwnershipType":"ASSIGNED","offerType":9}"#,
                .bothAccept),
            .init(
                "a null in signedTransactions -> both reject", #"{"signedTransactions":["a",null]}"#, .bothReject,
                kind: "transaction history"),
            .init(
                "a number in storefrontCountryCodes -> both reject", #"{"summary":{"storefrontCountryCodes":[1]}}"#,
                .bothReject, kind: "notification"),
            .init(
                "a null group in statuses -> both reject", #"{"data":[null]}"#, .bothReject,
                kind: "subscription statuses"),
            .init(
                "a long string of 100,000 letters -> both accept",
                #"{"productId":"\#(String(repeating: "ab", count: 50_000))"}"#, .bothAccept),
        ]
    }

    @Test(arguments: TrickyCase.all)
    func trickyInputs(_ row: TrickyCase) throws {
        let compare = try #require(Self.kinds.first { $0.name == row.kind }).compare
        let input = Data(row.bytes)
        let comparison = compare(input)
        Self.checkRules(comparison, input: input, row.testDescription)
        switch row.expectation {
        case .bothAccept:
            #expect(comparison.referenceAccepts && comparison.fastAccepts)
        case .bothReject:
            #expect(!comparison.referenceAccepts && !comparison.fastAccepts)
        case .onlyReferenceAccepts:
            #expect(Self.jsonDecoderAloneAccepts(input, as: row.kind), "JSONDecoder on its own tolerates it")
            #expect(!comparison.referenceAccepts && !comparison.fastAccepts)
            #expect(!RFC8259.isJSONText(row.bytes))
        case .duplicate(let path):
            #expect(Self.jsonDecoderAloneAccepts(input, as: row.kind), "JSONDecoder on its own keeps the first")
            for error in [comparison.referenceError, comparison.fastError] {
                #expect(error?.code == .duplicateMember, "\(String(describing: error))")
                #expect(error?.path == path, "\(String(describing: error))")
            }
        }
    }

    /// Whether Foundation's `JSONDecoder`, without the strict check before it, decodes the input as the kind; only
    /// for the table's fixed inputs, none of which nests deep enough to trap it (see `PayloadJSON`).
    static func jsonDecoderAloneAccepts(_ data: Data, as kind: String) -> Bool {
        let decoder = JSONDecoder()
        switch kind {
        case "transaction": return (try? decoder.decode(TransactionPayload.self, from: data)) != nil
        case "renewal info": return (try? decoder.decode(RenewalInfoPayload.self, from: data)) != nil
        case "notification": return (try? decoder.decode(NotificationPayload.self, from: data)) != nil
        case "transaction history": return (try? decoder.decode(TransactionHistoryResponse.self, from: data)) != nil
        case "subscription statuses":
            return (try? decoder.decode(SubscriptionStatusesResponse.self, from: data)) != nil
        default: return false
        }
    }

    // MARK: - Errors

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        var json: String
        var kind: String
        var code: PayloadDecodingError.Code
        var path: String
        var testDescription: String

        init(
            _ description: String, _ json: String, _ code: PayloadDecodingError.Code, at path: String,
            kind: String = "transaction"
        ) {
            self.json = json
            self.kind = kind
            self.code = code
            self.path = path
            testDescription = description
        }

        static let all: [ErrorCase] = [
            .init(
                "a price past Int64 -> number_out_of_range at price", #"{"price":9223372036854775808}"#,
                .numberOutOfRange, at: "price"),
            .init(
                "a quantity of 1.5 -> number_out_of_range at quantity", #"{"quantity":1.5}"#, .numberOutOfRange,
                at: "quantity"),
            .init(
                "a nested price of 1e400 -> number_out_of_range at commitmentInfo.commitmentPrice",
                #"{"commitmentInfo":{"commitmentPrice":1e400}}"#, .numberOutOfRange,
                at: "commitmentInfo.commitmentPrice"),
            .init(
                "a date of 1e400 -> invalid_date at purchaseDate", #"{"purchaseDate":1e400}"#, .invalidDate,
                at: "purchaseDate"),
            .init(
                "a date past the year 9999 -> invalid_date at expiresDate", #"{"expiresDate":1e300}"#, .invalidDate,
                at: "expiresDate"),
            .init("a string for a price -> wrong_type at price", #"{"price":"1"}"#, .wrongType, at: "price"),
            .init(
                "a lone surrogate -> invalid_value at productId", #"{"productId":"\ud800"}"#, .invalidValue,
                at: "productId"),
            .init(
                "a token that is no UUID -> invalid_uuid at appAccountToken", #"{"appAccountToken":"x"}"#, .invalidUUID,
                at: "appAccountToken"),
            .init("a trailing comma -> malformed_json for the document", #"{"price":1,}"#, .malformedJSON, at: ""),
            .init("an empty document -> malformed_json", "", .malformedJSON, at: ""),
            .init(
                "a null signed transaction -> missing_value at signedTransactions[1]",
                #"{"signedTransactions":["a",null]}"#,
                .missingValue, at: "signedTransactions[1]", kind: "transaction history"),
            .init(
                "a wrong type in a notification's transaction -> wrong_type at data.transactionInfo.price",
                #"{"data":{"transactionInfo":{"price":"x"}}}"#, .wrongType, at: "data.transactionInfo.price",
                kind: "notification"),
        ]
    }

    /// Rejections name the member and the rule, with the reference's code where the reference names a member.
    @Test(arguments: ErrorCase.all)
    func errorsNameTheMember(_ row: ErrorCase) throws {
        let compare = try #require(Self.kinds.first { $0.name == row.kind }).compare
        let comparison = compare(Data(row.json.utf8))
        #expect(!comparison.fastAccepts)
        #expect(comparison.fastError?.code == row.code)
        #expect(comparison.fastError?.path == row.path)
    }

    // MARK: - Seeded mutations

    struct MutationBatch: CustomTestStringConvertible, Sendable {
        var seed: UInt64
        var count: Int
        var testDescription: String { "\(count) seeded mutations of realistic payloads (seed \(seed)): the rules hold" }

        static let all = (1...4).map { MutationBatch(seed: UInt64($0), count: 1_000) }
    }

    @Test(arguments: MutationBatch.all)
    func seededMutationsKeepTheRules(_ batch: MutationBatch) throws {
        var random = SeededRandom(seed: batch.seed)
        var generator = PayloadGenerator(seed: batch.seed &* 31)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var seeds: [[UInt8]] = try ["transaction", "renewal info", "notification", "transaction history"].flatMap {
            kind in try (0..<10).map { _ in Array(try generator.payload(of: kind, encoder: encoder)) }
        }
        seeds += DocumentFile.all.compactMap { try? Array(Data(contentsOf: $0.url)) }
        seeds += TrickyCase.all.map(\.bytes).filter { $0.count < 4_000 }
        let compareKinds = Self.kinds.prefix(3) + Self.kinds.dropFirst(4).prefix(1)
        for index in 0..<batch.count {
            let seed = seeds[Int(random.next() % UInt64(seeds.count))]
            let mutant = Mutator.mutate(seed, rounds: 1 + Int(random.next() % 3), random: &random)
            let input = Data(mutant)
            for kind in compareKinds {
                Self.checkRules(
                    kind.compare(input), input: input, "mutation \(index) of seed \(batch.seed) as \(kind.name)")
            }
        }
    }

    /// Small edits that move an input around the boundaries of JSON and of each field's type.
    enum Mutator {
        static let tokens: [String] = [
            ",", ":", "[", "]", "{", "}", "\"", "\\", "null", "true", "-", "0", "1e400", "-0", "1.5", "1e3", "\\ud800",
            "\\u0041", "\\x", "9223372036854775808", "-9223372036854775808", "2147483648", "\"a\":1,", "01", " ", "\t",
            "\u{E9}", "e\u{301}", "{\"price\":1}", "[1,]", "1.0e16", "\"7e3fb20b-4cdb-47cc-936d-99d65f608138\"",
        ]
        static let bytes: [UInt8] = [
            0x00, 0x01, 0x09, 0x20, 0x22, 0x2C, 0x2E, 0x30, 0x5C, 0x7F, 0x80, 0xBF, 0xC3, 0xED, 0xEF, 0xFF,
        ]

        static func mutate(_ input: [UInt8], rounds: Int, random: inout SeededRandom) -> [UInt8] {
            var bytes = input
            for _ in 0..<rounds {
                let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
                switch random.next() % 6 {
                case 0 where !bytes.isEmpty:
                    bytes[position] = Self.bytes[Int(random.next() % UInt64(Self.bytes.count))]
                case 1 where !bytes.isEmpty:
                    bytes.remove(at: position)
                case 2:
                    bytes.insert(contentsOf: tokens[Int(random.next() % UInt64(tokens.count))].utf8, at: position)
                case 3 where bytes.count > 2:
                    let end = min(bytes.count, position + 1 + Int(random.next() % 40))
                    bytes.insert(contentsOf: bytes[position..<end], at: end)
                case 4 where !bytes.isEmpty:
                    let end = min(bytes.count, position + 1 + Int(random.next() % 12))
                    bytes.removeSubrange(position..<end)
                default:
                    if let digit = bytes.indices.dropFirst(position).first(where: {
                        bytes[$0] >= 0x30 && bytes[$0] <= 0x39
                    }) {
                        bytes.insert(
                            contentsOf: ["e3", ".0", "0000000000", "e-400", "5"][Int(random.next() % 5)].utf8,
                            at: digit + 1)
                    }
                }
            }
            return bytes
        }
    }

    // MARK: - JWS and base64url

    struct JWSCase: CustomTestStringConvertible, Sendable {
        var seed: UInt64
        var count: Int
        var testDescription: String {
            "\(count) generated and mutated compact JWS strings (seed \(seed)): the fast JWS reading equals Foundation's, "
                + "and text beyond ASCII is refused at its first such byte"
        }

        static let all = (1...2).map { JWSCase(seed: UInt64($0) * 97, count: 1_500) }
    }

    @Test(arguments: JWSCase.all)
    func compactJWSReadsLikeFoundation(_ row: JWSCase) throws {
        var random = SeededRandom(seed: row.seed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=. \t\n\"+/é")
        for index in 0..<row.count {
            var text: String
            if index % 2 == 0 {
                let payload = Data((0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                text = [Data("{}".utf8), payload, Data([1, 2])].map(Base64URL.encode).joined(separator: ".")
                if random.next() % 2 == 0 {
                    var characters = Array(text)
                    let position = characters.isEmpty ? 0 : Int(random.next() % UInt64(characters.count))
                    characters.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                    text = String(characters)
                }
            } else {
                text = String(
                    (0..<Int(random.next() % 24)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            }
            #expect(Base64URL.decode(text) == Base64URL.referenceDecode(text), "base64url \(text.debugDescription)")
            let fast = Result { () throws(PayloadDecodingError) in try UnverifiedJWS(compact: text) }
            let reference = Result { () throws(PayloadDecodingError) in try ReferenceJWS.read(text) }
            // Text beyond ASCII (the alphabet's white space is ASCII) is refused at its first such byte, before the
            // segments are counted; the reference, reading characters, refuses it too, for its own reason.
            if let beyondASCII = Array(text.utf8).firstIndex(where: { $0 >= 0x80 }) {
                guard case .failure(let error) = fast, case .failure = reference else {
                    Issue.record("compact JWS beyond ASCII accepted: \(text.debugDescription)")
                    continue
                }
                #expect(error.code == .invalidBase64, "compact JWS \(text.debugDescription)")
                #expect(error.message.hasSuffix("at byte offset \(beyondASCII)"), "\(error.message)")
                continue
            }
            #expect(fast == reference, "compact JWS \(text.debugDescription)")
        }
    }
}

// MARK: - Realistic payloads

extension FastDecoderDifferentialTests {
    /// Payloads of every kind with each field present or not, at random but the same on every run: identifiers, the
    /// open values Apple documents and some it does not, dates with and without fractions, prices up to Int64's limits,
    /// text with escapes and letters beyond ASCII, and Advanced Commerce trees.
    struct PayloadGenerator {
        var random: SeededRandom

        init(seed: UInt64) {
            random = SeededRandom(seed: seed)
        }

        mutating func payload(of kind: String, encoder: JSONEncoder) throws -> Data {
            switch kind {
            case "transaction": try encoder.encode(transaction())
            case "renewal info": try encoder.encode(renewalInfo())
            case "notification": try encoder.encode(notification())
            case "app transaction": try encoder.encode(appTransaction())
            case "transaction history":
                try encoder.encode(
                    TransactionHistoryResponse(
                        revision: text(), hasMore: maybe(flag()), bundleId: text(), appAppleId: maybe(integer()),
                        environment: maybe(pick([.production, .sandbox, Environment(rawValue: "LocalTestingxxx")])),
                        signedTransactions: maybe((0..<Int(random.next() % 5)).map { _ in text() ?? "" })))
            case "subscription statuses":
                try encoder.encode(
                    SubscriptionStatusesResponse(
                        environment: .sandbox, bundleId: text(), appAppleId: maybe(integer()),
                        data: maybe(
                            (0..<Int(random.next() % 3)).map { _ in
                                SubscriptionGroupStatus(
                                    subscriptionGroupIdentifier: text(),
                                    lastTransactions: [
                                        LastTransactionsItem(
                                            status: maybe(SubscriptionStatus(rawValue: Int32(random.next() % 7))),
                                            originalTransactionId: text(), signedTransactionInfo: text(),
                                            signedRenewalInfo: text())
                                    ])
                            })))
            default: try encoder.encode(NotificationRequestBody(signedPayload: text()))
            }
        }

        mutating func maybe<T>(_ value: T) -> T? {
            random.next() % 3 == 0 ? nil : value
        }

        mutating func flag() -> Bool { random.next() % 2 == 0 }

        mutating func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }

        mutating func integer() -> Int64 {
            pick([0, 1, -1, 9_990, 1_234_567_890, Int64.max, Int64.min, Int64(random.next() % 1_000_000)])
        }

        mutating func text() -> String? {
            maybe(
                pick([
                    "2000000123456789", "com.example.familyapp", "é", "日本語", "quote \" and backslash \\", "tab\tline\n",
                    "emoji 😀", "", "P1M", "a/b", "nul\u{0}", String(random.next() % 100_000),
                ]))
        }

        mutating func date() -> Date? {
            maybe(
                Date(
                    timeIntervalSince1970: pick([
                        1_698_148_900, 1_697_679_936.0497297, -62_135_769_600, 0, Double(random.next() % 2_000_000_000),
                    ])))
        }

        mutating func jsonValue(depth: Int = 0) -> JSONValue {
            switch random.next() % (depth > 2 ? 5 : 7) {
            case 0: .null
            case 1: .bool(flag())
            case 2: .integer(integer())
            case 3: .number(pick([0.15, -2.5, 1e300, Double.leastNonzeroMagnitude]))
            case 4: .string(text() ?? "")
            case 5: .array((0..<Int(random.next() % 4)).map { _ in jsonValue(depth: depth + 1) })
            default:
                .object(
                    Dictionary(
                        (0..<Int(random.next() % 4)).map { ("k\($0)\(text() ?? "")", jsonValue(depth: depth + 1)) },
                        uniquingKeysWith: { first, _ in first }))
            }
        }

        mutating func transaction() -> TransactionPayload {
            TransactionPayload(
                originalTransactionId: text(), transactionId: text(), webOrderLineItemId: text(), bundleId: text(),
                productId: text(), subscriptionGroupIdentifier: text(), purchaseDate: date(),
                originalPurchaseDate: date(), expiresDate: date(),
                quantity: maybe(Int32(truncatingIfNeeded: integer())),
                type: maybe(pick([.autoRenewable, .nonConsumable, .consumable, ProductType(rawValue: "Bundle")])),
                appAccountToken: maybe(UUID()), inAppOwnershipType: maybe(pick([.purchased, .familyShared])),
                signedDate: date(), revocationReason: maybe(RevocationReason(rawValue: Int32(random.next() % 3))),
                revocationDate: date(), isUpgraded: maybe(flag()),
                offerType: maybe(OfferType(rawValue: Int32(random.next() % 6))), offerIdentifier: text(),
                environment: maybe(pick([.production, .sandbox, .xcode])), storefront: text(), storefrontId: text(),
                transactionReason: maybe(pick([.purchase, .renewal])), currency: text(), price: maybe(integer()),
                offerDiscountType: maybe(pick([.freeTrial, .payAsYouGo, .payUpFront])), appTransactionId: text(),
                offerPeriod: text(),
                revocationType: maybe(
                    pick([.refundFull, .refundProrated, .familyRevoke, RevocationType(rawValue: "X")])),
                revocationPercentage: maybe(Int32(random.next() % 100_001)), billingPlanType: text(),
                commitmentInfo: maybe(
                    TransactionCommitmentInfo(
                        billingPeriodNumber: 3, commitmentExpiresDate: date(), commitmentPrice: maybe(integer()),
                        totalBillingPeriods: 12)),
                advancedCommerceInfo: maybe(commerceTransaction()))
        }

        /// Members Apple may add one day, kept by the Advanced Commerce objects.
        mutating func unknownMembers() -> [String: JSONValue] {
            guard flag() else { return [:] }
            return Dictionary(
                (0..<Int(random.next() % 3)).map { ("new\($0)\(text() ?? "")", jsonValue()) },
                uniquingKeysWith: { first, _ in first })
        }

        mutating func taxRate() -> Decimal? {
            maybe(
                pick([
                    Decimal(sign: .plus, exponent: -2, significand: 15), Decimal(0), Decimal(7),
                    Decimal(sign: .minus, exponent: -1, significand: 5),
                    Decimal(sign: .plus, exponent: -6, significand: Decimal(random.next() % 1_000_000)),
                ]))
        }

        mutating func commerceDescriptors() -> AdvancedCommerceDescriptors {
            AdvancedCommerceDescriptors(description: text(), displayName: text(), unknownMembers: unknownMembers())
        }

        mutating func commerceOffer() -> AdvancedCommerceOffer {
            AdvancedCommerceOffer(
                period: maybe(pick([.threeDays, .oneMonth, AdvancedCommerceOfferPeriod(rawValue: "P5D")])),
                periodCount: maybe(Int32(random.next() % 12)), price: maybe(integer()),
                reason: maybe(pick([.acquisition, .winBack, AdvancedCommerceOfferReason(rawValue: "NEW")])),
                unknownMembers: unknownMembers())
        }

        mutating func commerceTransaction() -> AdvancedCommerceTransactionInfo {
            AdvancedCommerceTransactionInfo(
                descriptors: maybe(commerceDescriptors()), estimatedTax: maybe(integer()),
                items: maybe(
                    (0..<Int(random.next() % 3)).map { _ in
                        AdvancedCommerceTransactionItem(
                            sku: text(), description: text(), displayName: text(), offer: maybe(commerceOffer()),
                            price: maybe(integer()),
                            refunds: maybe(
                                (0..<Int(random.next() % 3)).map { _ in
                                    AdvancedCommerceRefund(
                                        refundAmount: maybe(integer()), refundDate: date(),
                                        refundReason: maybe(
                                            pick([
                                                .fulfillmentIssue, .other, AdvancedCommerceRefundReason(rawValue: "X"),
                                            ])),
                                        refundType: maybe(pick([.full, .prorated, .custom])),
                                        unknownMembers: unknownMembers())
                                }),
                            revocationDate: date(), unknownMembers: unknownMembers())
                    }),
                period: maybe(pick([.oneMonth, .oneYear, AdvancedCommercePeriod(rawValue: "P2Y")])),
                requestReferenceId: text(), taxCode: text(), taxExclusivePrice: maybe(integer()), taxRate: taxRate(),
                unknownMembers: unknownMembers())
        }

        mutating func commerceRenewal() -> AdvancedCommerceRenewalInfo {
            AdvancedCommerceRenewalInfo(
                consistencyToken: text(), descriptors: maybe(commerceDescriptors()),
                items: maybe(
                    (0..<Int(random.next() % 3)).map { _ in
                        AdvancedCommerceRenewalItem(
                            sku: text(), description: text(), displayName: text(), offer: maybe(commerceOffer()),
                            price: maybe(integer()),
                            priceIncreaseInfo: maybe(
                                AdvancedCommercePriceIncreaseInfo(
                                    dependentSKUs: maybe([text() ?? "", "sku.2"]), price: maybe(integer()),
                                    status: maybe(pick([.scheduled, .pending, .accepted])),
                                    unknownMembers: unknownMembers())),
                            unknownMembers: unknownMembers())
                    }),
                period: maybe(pick([.oneWeek, .sixMonths])), requestReferenceId: text(), taxCode: text(),
                unknownMembers: unknownMembers())
        }

        mutating func renewalInfo() -> RenewalInfoPayload {
            RenewalInfoPayload(
                originalTransactionId: text(), productId: text(), autoRenewProductId: text(),
                autoRenewStatus: maybe(pick([.on, .off])),
                expirationIntent: maybe(ExpirationIntent(rawValue: Int32(random.next() % 7))),
                isInBillingRetryPeriod: maybe(flag()), gracePeriodExpiresDate: date(),
                priceIncreaseStatus: maybe(PriceIncreaseStatus(rawValue: Int32(random.next() % 2))),
                offerType: maybe(OfferType(rawValue: 2)), offerIdentifier: text(), offerDiscountType: nil,
                offerPeriod: text(), signedDate: date(), environment: maybe(.sandbox),
                recentSubscriptionStartDate: date(), renewalDate: date(), currency: text(),
                renewalPrice: maybe(integer()),
                eligibleWinBackOfferIds: maybe([text() ?? "", "winback"]), appAccountToken: maybe(UUID()),
                appTransactionId: text(), renewalBillingPlanType: text(),
                commitmentInfo: maybe(
                    RenewalCommitmentInfo(
                        commitmentAutoRenewProductId: text(), commitmentAutoRenewStatus: .on,
                        commitmentRenewalBillingPlanType: text(), commitmentRenewalDate: date(),
                        commitmentRenewalPrice: maybe(integer()))),
                advancedCommerceInfo: maybe(commerceRenewal()))
        }

        mutating func notification() -> NotificationPayload {
            NotificationPayload(
                notificationType: maybe(
                    pick([.revoke, .didRenew, .subscribed, NotificationType(rawValue: "NEW_TYPE")])),
                subtype: maybe(pick([.initialBuy, .gracePeriod])), notificationUUID: text(), version: "2.0",
                signedDate: date(),
                data: maybe(
                    NotificationData(
                        environment: .production, appAppleId: maybe(integer()), bundleId: text(), bundleVersion: text(),
                        signedTransactionInfo: text(), signedRenewalInfo: text(),
                        transactionInfo: maybe(transaction()), renewalInfo: maybe(renewalInfo()),
                        status: maybe(.active), consumptionRequestReason: maybe(ConsumptionRequestReason(rawValue: "X"))
                    )),
                summary: maybe(
                    NotificationSummary(
                        requestIdentifier: text(), environment: .sandbox, appAppleId: maybe(integer()),
                        bundleId: text(), productId: text(), storefrontCountryCodes: ["USA", "FRA"],
                        failedCount: maybe(integer()), succeededCount: 5)),
                externalPurchaseToken: maybe(
                    ExternalPurchaseToken(
                        externalPurchaseId: text(), tokenCreationDate: date(), appAppleId: 1, bundleId: text())),
                appData: maybe(
                    NotificationAppData(
                        appAppleId: 1, bundleId: text(), environment: .sandbox, signedAppTransactionInfo: text())))
        }

        mutating func appTransaction() -> AppTransactionPayload {
            AppTransactionPayload(
                receiptType: maybe(.xcode), appAppleId: maybe(integer()), bundleId: text(), applicationVersion: text(),
                versionExternalIdentifier: maybe(integer()), receiptCreationDate: date(), originalPurchaseDate: date(),
                originalApplicationVersion: text(), deviceVerification: text(), deviceVerificationNonce: maybe(UUID()),
                preorderDate: date(), appTransactionId: text(), originalPlatform: text())
        }
    }
}
