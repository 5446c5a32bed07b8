// Shared by the differential tests and by the differential fuzz target (Fuzz/run.sh compiles this file into it), so
// that both hold the fast JWS reading to the same former one. It uses the library and Foundation only.
import FamilyEntitlements
import Foundation

/// How `UnverifiedJWS(compact:)` read a compact JWS before the fast path: character by character, through
/// Foundation's base64.
enum ReferenceJWS {
    static func read(_ compact: String) throws(PayloadDecodingError) -> UnverifiedJWS {
        var text = Substring(compact)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw PayloadDecodingError(
                code: .malformedJWS, path: "",
                message: "a compact JWS has 3 dot-separated segments; this has \(parts.count)")
        }
        let names = ["header", "payload", "signature"]
        var decoded: [Data] = []
        for (index, part) in parts.enumerated() {
            guard let data = Base64URL.referenceDecode(part) else {
                throw PayloadDecodingError(
                    code: .invalidBase64, path: "", message: "the JWS \(names[index]) segment is not base64url")
            }
            decoded.append(data)
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else {
            throw PayloadDecodingError(code: .malformedJWS, path: "", message: "the JWS header or payload is empty")
        }
        var jws = try UnverifiedJWS(compact: "e30.e30.")
        jws.headerData = decoded[0]
        jws.payloadData = decoded[1]
        jws.signature = decoded[2]
        return jws
    }
}
