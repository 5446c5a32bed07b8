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
        let segments = try Self.segments(of: compact)
        headerData = Data(segments.header)
        payloadData = Data(segments.payload)
        signature = Data(segments.signature)
    }

    /// The three decoded segments of a compact JWS; `header` and `signature` are only checked when `decodesAll` is
    /// false, and come back empty.
    static func segments(
        of compact: String, decodesAll: Bool = true
    ) throws(PayloadDecodingError) -> (header: [UInt8], payload: [UInt8], signature: [UInt8]) {
        var compact = compact
        let fast = compact.withUTF8 { bytes in
            Result { () throws(PayloadDecodingError) in try asciiSegments(of: bytes, decodesAll: decodesAll) }
        }
        switch fast {
        case .success(.some(let segments)): return segments
        case .success(.none): return try textSegments(of: compact)
        case .failure(let error): throw error
        }
    }

    /// The segments of an all-ASCII compact JWS, read as bytes; nil for text beyond ASCII, which `textSegments`
    /// reads character by character.
    private static func asciiSegments(
        of bytes: UnsafeBufferPointer<UInt8>, decodesAll: Bool
    ) throws(PayloadDecodingError) -> (header: [UInt8], payload: [UInt8], signature: [UInt8])? {
        guard let (dots, dotCount) = asciiDots(in: bytes) else { return nil }
        var start = 0
        var end = bytes.count
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        if end - start >= 2, bytes[start] == UInt8(ascii: "\""), bytes[end - 1] == UInt8(ascii: "\"") {
            start += 1
            end -= 1
        }
        guard dotCount == 2 else {
            throw PayloadDecodingError(
                code: .malformedJWS, path: "",
                message: "a compact JWS has 3 dot-separated segments; this has \(dotCount + 1)")
        }
        let ranges = [start..<dots[0], (dots[0] + 1)..<dots[1], (dots[1] + 1)..<end]
        var decoded: [[UInt8]] = []
        for (index, range) in ranges.enumerated() {
            let segment = UnsafeBufferPointer(rebasing: bytes[range])
            if decodesAll || index == 1 {
                guard let value = Base64URL.decodedBytes(segment) else { throw invalidBase64(index) }
                decoded.append(value)
            } else {
                guard let count = Base64URL.decodedCount(segment) else { throw invalidBase64(index) }
                if count < 0, Base64URL.decodedBytes(segment) == nil { throw invalidBase64(index) }
                decoded.append([])
            }
        }
        guard !ranges[0].isEmpty, !ranges[1].isEmpty else { throw emptySegment }
        return (decoded[0], decoded[1], decoded[2])
    }

    /// Where the first two dots are in all-ASCII text and how many there are, or nil for text beyond ASCII; eight
    /// bytes at a time.
    private static func asciiDots(in bytes: UnsafeBufferPointer<UInt8>) -> (first: [Int], count: Int)? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawBufferPointer(bytes)
        var dots: [Int] = []
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if word & highs != 0 { return nil }
            let dotBytes = word ^ (ones &* UInt64(UInt8(ascii: ".")))
            if (dotBytes &- ones) & ~dotBytes & highs != 0 {
                for offset in 0..<8 where bytes[index + offset] == UInt8(ascii: ".") {
                    if count < 2 { dots.append(index + offset) }
                    count += 1
                }
            }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 { return nil }
            if bytes[index] == UInt8(ascii: ".") {
                if count < 2 { dots.append(index) }
                count += 1
            }
            index += 1
        }
        return (dots, count)
    }

    /// The segments of a compact JWS read as characters, for text beyond ASCII.
    private static func textSegments(
        of compact: String
    ) throws(PayloadDecodingError) -> (header: [UInt8], payload: [UInt8], signature: [UInt8]) {
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
        var decoded: [[UInt8]] = []
        for (index, part) in parts.enumerated() {
            guard let data = Base64URL.referenceDecode(part) else { throw invalidBase64(index) }
            decoded.append(Array(data))
        }
        guard !parts[0].isEmpty, !parts[1].isEmpty else { throw emptySegment }
        return (decoded[0], decoded[1], decoded[2])
    }

    private static func invalidBase64(_ index: Int) -> PayloadDecodingError {
        let names = ["header", "payload", "signature"]
        return PayloadDecodingError(
            code: .invalidBase64, path: "", message: "the JWS \(names[index]) segment is not base64url")
    }

    private static let emptySegment = PayloadDecodingError(
        code: .malformedJWS, path: "", message: "the JWS header or payload is empty")

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
///
/// Only the payload segment is decoded; the header and the signature are checked to be base64url, as
/// `UnverifiedJWS(compact:)` checks them.
public func decodeUnverifiedJWS<T: AppStorePayload>(
    _ compact: String, as type: T.Type, at path: String = ""
) throws(PayloadDecodingError) -> T {
    do throws(PayloadDecodingError) {
        return try T(jsonData: UnverifiedJWS.segments(of: compact, decodesAll: false).payload)
    } catch {
        throw error.nested(under: path)
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
