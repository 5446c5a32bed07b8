// Shared by the differential tests and by the differential fuzz target (Fuzz/run.sh compiles this file into it),
// so that both hold the fast path to the same independent checker. It uses the standard library only.

/// Whether bytes are one JSON text by RFC 8259: the grammar of sections 2 to 7, in UTF-8 (section 8.1), with a
/// leading byte order mark allowed (section 8.1 lets a parser ignore one). Written plainly and separately from the
/// fast path, so that the two do not share a mistake. Escaped unpaired surrogates pass: the grammar allows them
/// (section 8.2).
enum RFC8259 {
    static func isJSONText(_ input: [UInt8]) -> Bool {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard Array(String(decoding: bytes, as: UTF8.self).utf8) == Array(bytes) else { return false }
        var parser = Parser(bytes: Array(bytes))
        parser.skipWhitespace()
        guard parser.value(depth: 0) else { return false }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count
    }

    struct Parser {
        var bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func literal(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected
            else { return false }
            index += expected.count
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < 10_000, let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return true }
                repeat {
                    skipWhitespace()
                    guard string() else { return false }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipWhitespace()
                    guard value(depth: depth + 1) else { return false }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    skipWhitespace()
                    guard value(depth: depth + 1) else { return false }
                    skipWhitespace()
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func string() -> Bool {
            guard take(UInt8(ascii: "\"")) else { return false }
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return true
                case UInt8(ascii: "\\"):
                    guard let escape = current else { return false }
                    index += 1
                    if escape == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current, Array("0123456789abcdefABCDEF".utf8).contains(hex) else {
                                return false
                            }
                            index += 1
                        }
                    } else if !Array("\"\\/bfnrt".utf8).contains(escape) {
                        return false
                    }
                case 0..<0x20: return false
                default: break
                }
            }
            return false
        }

        mutating func digits() -> Int {
            var count = 0
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                index += 1
                count += 1
            }
            return count
        }

        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                if let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { return false }
            } else if digits() == 0 {
                return false
            }
            if take(UInt8(ascii: ".")), digits() == 0 { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }
    }
}
