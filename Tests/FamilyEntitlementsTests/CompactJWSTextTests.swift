import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Text around and inside a compact JWS beyond ASCII, and what every reader of a JWS must make of it.
///
/// White space at either end (ASCII, and Unicode's such as a no-break space) is ignored; inside, a JWS is ASCII, and
/// the first byte beyond ASCII is refused where it stands, before the rest is read.
struct JWSTextCase: CustomTestStringConvertible, Sendable {
    enum Outcome: Sendable {
        case decodes
        /// Refused with `invalid_base64` naming this byte offset.
        case refusedAt(Int)
    }

    var name: String
    var bytes: [UInt8]
    var outcome: Outcome
    var testDescription: String { name }

    static let jws = fakeJWS(#"{"transactionId":"1","productId":"a.b","price":1990}"#)

    init(_ name: String, _ text: String, _ outcome: Outcome) {
        self.init(name, bytes: Array(text.utf8), outcome)
    }

    init(_ name: String, bytes: [UInt8], _ outcome: Outcome) {
        self.name = name
        self.bytes = bytes
        self.outcome = outcome
    }

    static let all: [JWSTextCase] = {
        let first = Array(jws.utf8).firstIndex(of: UInt8(ascii: ".")) ?? 0
        let last = Array(jws.utf8).lastIndex(of: UInt8(ascii: ".")) ?? 0
        func inserting(_ text: String, at offset: Int) -> String {
            String(jws.prefix(offset)) + text + String(jws.dropFirst(offset))
        }
        return [
            .init("a plain JWS -> decodes", jws, .decodes),
            .init(
                "no-break spaces and an ideographic space around it -> decodes", "\u{A0}\u{3000}\(jws)\u{A0}", .decodes),
            .init("in quotes, then a line separator and a new line -> decodes", "\"\(jws)\"\u{2028}\n", .decodes),
            .init(
                "é in the payload segment -> refused at its first byte", inserting("é", at: first + 5),
                .refusedAt(first + 5)),
            .init("an emoji in the signature -> refused at its first byte", jws + "😀", .refusedAt(jws.utf8.count)),
            .init(
                "a combining accent on the second dot -> refused at the accent", inserting("\u{301}", at: last + 1),
                .refusedAt(last + 1)),
            .init(
                "a no-break space inside the header -> refused at it, inner space is no white space",
                inserting("\u{A0}", at: 3), .refusedAt(3)),
            .init(
                "a byte that is not UTF-8 (0xFF) in the header -> refused at it",
                bytes: Array(jws.utf8.prefix(4)) + [0xFF] + Array(jws.utf8.dropFirst(4)), .refusedAt(4)),
            .init(
                "beyond ASCII before five dots -> refused at the first byte, the segments never counted",
                "ab\u{E9}c.d.e.f.g.h", .refusedAt(2)),
            .init(
                "a megabyte of é holding a dot -> refused at byte 0",
                String(repeating: "é", count: 500_000) + "." + String(repeating: "é", count: 10), .refusedAt(0)),
            .init(
                "after a no-break space, a megabyte beyond ASCII -> refused at byte 2, after the space",
                "\u{A0}" + String(repeating: "日本", count: 200_000) + ".x", .refusedAt(2)),
        ]
    }()
}

/// One way to read a compact JWS from text or bytes.
struct JWSReader: CustomTestStringConvertible, Sendable {
    var name: String
    /// Whether it takes a `String`, which cannot hold bytes that are not UTF-8.
    var takesText = false
    var read: @Sendable ([UInt8]) throws -> Void
    var testDescription: String { name }

    static let all: [JWSReader] = [
        JWSReader(name: "UnverifiedJWS(compact:)", takesText: true) {
            _ = try UnverifiedJWS(compact: String(decoding: $0, as: UTF8.self))
        },
        JWSReader(name: "decodeUnverifiedJWS", takesText: true) {
            _ = try decodeUnverifiedJWS(String(decoding: $0, as: UTF8.self), as: TransactionPayload.self)
        },
        JWSReader(name: "AppStoreDocument(data:)") { _ = try AppStoreDocument(data: Data($0)) },
        JWSReader(name: "History.decodeUnverified") { _ = try History.decodeUnverified(Data($0)) },
    ]
}

@Suite("A compact JWS beyond ASCII is refused at its first such byte")
struct CompactJWSTextTests {
    @Test(arguments: JWSReader.all, JWSTextCase.all)
    func textBeyondASCII(_ reader: JWSReader, _ row: JWSTextCase) throws {
        if reader.takesText, String(validating: row.bytes, as: UTF8.self) == nil { return }
        switch row.outcome {
        case .decodes:
            try reader.read(row.bytes)
        case .refusedAt(let offset):
            let error = try #require(decodingError { try reader.read(row.bytes) }, "decoded without error")
            #expect(error.code == .invalidBase64, "\(error)")
            #expect(error.message.hasSuffix("at byte offset \(offset)"), "\(error.message)")
        }
    }
}
