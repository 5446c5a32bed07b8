#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Base64url without padding (RFC 7515 section 2), as JWS segments are written.
///
/// Decoding accepts what `referenceDecode` accepts: the base64url alphabet, optional trailing `=`, any length but
/// one more than a multiple of four, and unused low bits that are not zero (as `Data(base64Encoded:)` does). The fast
/// path decodes a table lookup at a time; text with `=` before its end goes to `referenceDecode`, to keep
/// Foundation's handling of it.
package enum Base64URL {
    package static func decode(_ text: some StringProtocol) -> Data? {
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in
            decodedBytes(bytes).map { Data($0) }
        }
        switch fast {
        case .some(.some(let data)): return data
        case .some(.none): return nil
        case .none: return referenceDecode(text)
        }
    }

    /// The decoded bytes of base64url text, or nil where it is not base64url.
    static func decodedBytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let count = decodedCount(text) else { return nil }
        guard count >= 0 else {
            return referenceDecode(String(decoding: text, as: UTF8.self)).map { Array($0) }
        }
        return decodingTable.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                var input = 0
                var index = 0
                while index + 3 <= count {
                    let quad =
                        UInt32(table[Int(text[input])]) << 18 | UInt32(table[Int(text[input + 1])]) << 12
                        | UInt32(table[Int(text[input + 2])]) << 6 | UInt32(table[Int(text[input + 3])])
                    output[index] = UInt8(truncatingIfNeeded: quad >> 16)
                    output[index + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                    output[index + 2] = UInt8(truncatingIfNeeded: quad)
                    input += 4
                    index += 3
                }
                if index < count {
                    var quad = UInt32(table[Int(text[input])]) << 18 | UInt32(table[Int(text[input + 1])]) << 12
                    if count - index == 2 { quad |= UInt32(table[Int(text[input + 2])]) << 6 }
                    output[index] = UInt8(truncatingIfNeeded: quad >> 16)
                    if count - index == 2 { output[index + 1] = UInt8(truncatingIfNeeded: quad >> 8) }
                }
                initialized = count
            }
        }
    }

    /// How many bytes base64url text decodes to; nil where it is not base64url, and -1 where it holds `=` before
    /// its trailing padding (left to `referenceDecode`).
    static func decodedCount(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        var length = text.count
        while length > 0, text[length - 1] == UInt8(ascii: "=") { length -= 1 }
        // Every byte's table entry ORed together: 0x80 marks a byte outside the alphabet, 0x40 an inner `=`.
        let marks = decodingTable.withUnsafeBufferPointer { table in
            var marks: UInt8 = 0
            for byte in text[..<length] { marks |= table[Int(byte)] }
            return marks
        }
        if marks & invalid != 0 { return nil }
        if marks & padding != 0 { return -1 }
        guard length % 4 != 1 else { return nil }
        return length / 4 * 3 + max(length % 4 - 1, 0)
    }

    /// The 6-bit value of each base64url byte; `padding` for `=`, `invalid` for bytes outside the alphabet.
    private static let decodingTable: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(byte) - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(byte) - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        case UInt8(ascii: "="): padding
        default: invalid
        }
    }

    private static let padding: UInt8 = 0x40
    private static let invalid: UInt8 = 0x80

    /// The reference decoding, through Foundation's `Data(base64Encoded:)`.
    package static func referenceDecode(_ text: some StringProtocol) -> Data? {
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
