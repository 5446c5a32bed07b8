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
    ///
    /// The text between them must be ASCII: it is refused at its first byte beyond ASCII (`invalid_base64`, naming
    /// the byte offset), without reading further.
    public init(compact: String) throws(PayloadDecodingError) {
        let segments = try Self.segments(of: compact)
        headerData = Data(segments.header)
        payloadData = Data(segments.payload)
        signature = Data(segments.signature)
    }

    /// Splits and decodes a compact JWS given as UTF-8 bytes, as `init(compact:)` does.
    init(compactUTF8 data: some DataProtocol) throws(PayloadDecodingError) {
        let result = FastJSON.withContiguousBytes(of: data) { bytes in
            Result { () throws(PayloadDecodingError) in try Self.segments(ofUTF8: bytes, decodesAll: true) }
        }
        let segments = try result.get()
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
        let result = compact.withUTF8 { bytes in
            Result { () throws(PayloadDecodingError) in try segments(ofUTF8: bytes, decodesAll: decodesAll) }
        }
        return try result.get()
    }

    /// The segments of a compact JWS, read as UTF-8 bytes.
    ///
    /// White space around the text (ASCII, and Unicode's White_Space such as a no-break space) and one pair of quotes
    /// are ignored; the rest is read byte by byte and refused at the first byte beyond ASCII, which neither base64url
    /// nor a dot can be.
    private static func segments(
        ofUTF8 bytes: UnsafeBufferPointer<UInt8>, decodesAll: Bool
    ) throws(PayloadDecodingError) -> (header: [UInt8], payload: [UInt8], signature: [UInt8]) {
        var (start, end) = trimmedRange(of: bytes)
        if end - start >= 2, bytes[start] == UInt8(ascii: "\""), bytes[end - 1] == UInt8(ascii: "\"") {
            start += 1
            end -= 1
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let (dots, dotCount, beyondASCII) = asciiDots(in: text)
        if let beyondASCII {
            let offset = start + beyondASCII
            throw PayloadDecodingError(
                code: .invalidBase64, path: "",
                message: "a compact JWS is base64url and dots, all ASCII; found the byte 0x"
                    + String(bytes[offset], radix: 16, uppercase: true) + " at byte offset \(offset)")
        }
        guard dotCount == 2 else {
            throw PayloadDecodingError(
                code: .malformedJWS, path: "",
                message: "a compact JWS has 3 dot-separated segments; this has \(dotCount + 1)")
        }
        let ranges = [0..<dots[0], (dots[0] + 1)..<dots[1], (dots[1] + 1)..<text.count]
        var decoded: [[UInt8]] = []
        for (index, range) in ranges.enumerated() {
            let segment = UnsafeBufferPointer(rebasing: text[range])
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

    /// The bytes between the white space at either end: ASCII white space, and scalars with Unicode's White_Space
    /// property, decoded from UTF-8 at the ends only.
    static func trimmedRange(of bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        var start = 0
        var end = bytes.count
        while start < end {
            if isASCIIWhitespace(bytes[start]) {
                start += 1
                continue
            }
            guard bytes[start] >= 0x80 else { break }
            var iterator = UnsafeBufferPointer(rebasing: bytes[start..<end]).makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            guard case .valid(let encoded) = parser.parseScalar(from: &iterator),
                Unicode.UTF8.decode(encoded).properties.isWhitespace
            else { break }
            start += encoded.count
        }
        while end > start {
            if isASCIIWhitespace(bytes[end - 1]) {
                end -= 1
                continue
            }
            guard bytes[end - 1] >= 0x80 else { break }
            var iterator = UnsafeBufferPointer(rebasing: bytes[start..<end]).reversed().makeIterator()
            var parser = Unicode.UTF8.ReverseParser()
            guard case .valid(let encoded) = parser.parseScalar(from: &iterator),
                Unicode.UTF8.decode(encoded).properties.isWhitespace
            else { break }
            end -= encoded.count
        }
        return (start, end)
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// Where the first two dots are in the text and how many there are, eight bytes at a time; or, where the text
    /// goes beyond ASCII, the offset of its first byte beyond ASCII, where the scan stops.
    private static func asciiDots(
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> (first: [Int], count: Int, beyondASCII: Int?) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawBufferPointer(bytes)
        var dots: [Int] = []
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if word & highs != 0 { return (dots, count, index + (word & highs).trailingZeroBitCount >> 3) }
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
            if bytes[index] >= 0x80 { return (dots, count, index) }
            if bytes[index] == UInt8(ascii: ".") {
                if count < 2 { dots.append(index) }
                count += 1
            }
            index += 1
        }
        return (dots, count, nil)
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
