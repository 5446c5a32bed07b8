#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A compact JWS (`header.payload.signature`) split and base64url-decoded WITHOUT checking its signature.
///
/// Use it to inspect payloads and in tests. Nothing read through this type is proven to come from Apple: a service
/// must verify every signed string (the notification, and its `signedTransactionInfo` and `signedRenewalInfo` each on
/// its own) with a verifier before it trusts the contents.
public struct UnverifiedJWS: Hashable, Sendable {
    /// The JOSE header as JSON bytes.
    public var headerData: Data
    /// The payload as JSON bytes.
    public var payloadData: Data
    /// The signature bytes, unchecked.
    public var signature: Data

    /// Splits and decodes a compact JWS; surrounding white space and JSON string quotes are ignored.
    public init(compact: String) throws(PayloadDecodingError) {
        var text = Substring(compact).trimmingWhitespace()
        if text.count >= 2, text.first == "\"", text.last == "\"" {
            text = text.dropFirst().dropLast()
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw PayloadDecodingError(
                code: .malformedJWS, path: "",
                message: "a compact JWS has 3 dot-separated segments; this has \(parts.count)")
        }
        let names = ["header", "payload", "signature"]
        var decoded: [Data] = []
        for (index, part) in parts.enumerated() {
            guard let data = Base64URL.decode(part) else {
                throw PayloadDecodingError(
                    code: .invalidBase64, path: "",
                    message: "the JWS \(names[index]) segment is not base64url")
            }
            decoded.append(data)
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else {
            throw PayloadDecodingError(code: .malformedJWS, path: "", message: "the JWS header or payload is empty")
        }
        headerData = decoded[0]
        payloadData = decoded[1]
        signature = decoded[2]
    }

    /// Decodes the payload as `type`; errors name JSON paths inside the payload.
    public func decodePayload<T: AppStorePayload>(as type: T.Type) throws(PayloadDecodingError) -> T {
        try T(jsonData: payloadData)
    }

    /// The header's `alg`, `kid` and `x5c` members, where the header is JSON.
    public func header() throws(PayloadDecodingError) -> Header {
        try PayloadJSON.decode(Header.self, from: headerData)
    }

    /// The members of a JOSE header that matter for App Store payloads.
    public struct Header: Codable, Hashable, Sendable {
        /// The signing algorithm; Apple signs with `ES256`.
        public var alg: String?
        /// The key identifier; Xcode signs with `Apple_Xcode_Key`.
        public var kid: String?
        /// The certificate chain, base64 DER, leaf first.
        public var x5c: [String]?
        /// The token type.
        public var typ: String?

        public init(alg: String? = nil, kid: String? = nil, x5c: [String]? = nil, typ: String? = nil) {
            self.alg = alg
            self.kid = kid
            self.x5c = x5c
            self.typ = typ
        }
    }
}

/// Decodes a compact JWS string without checking its signature, naming the field it was found in on error.
public func decodeUnverifiedJWS<T: AppStorePayload>(
    _ compact: String, as type: T.Type, at path: String = ""
) throws(PayloadDecodingError) -> T {
    do {
        return try UnverifiedJWS(compact: compact).decodePayload(as: type)
    } catch {
        throw error.nested(under: path)
    }
}

/// Base64url without padding (RFC 7515 section 2), as JWS segments are written.
package enum Base64URL {
    package static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = String(text)
        guard
            base64.utf8.allSatisfy({ byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x5F || byte == 0x3D
            })
        else { return nil }
        base64 = base64.replacing("-", with: "+").replacing("_", with: "/")
        while base64.utf8.last == 0x3D { base64.removeLast() }
        switch base64.utf8.count % 4 {
        case 1: return nil
        case 2: base64 += "=="
        case 3: base64 += "="
        default: break
        }
        return Data(base64Encoded: base64)
    }

    package static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return text.replacing("+", with: "-").replacing("/", with: "_")
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
