// The C library, for `memchr`: every platform Swift builds for has one of these.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#elseif canImport(ucrt)
    import ucrt
#elseif canImport(WASILibc)
    import WASILibc
#endif

/// A single-pass reader of strict RFC 8259 JSON over UTF-8 bytes: the cursor of the fast decoding path.
///
/// Payload types read their members straight from the bytes into Swift values, with no intermediate tree. `position`
/// is a byte offset into `bytes`; reading past the end yields the byte 0, which no JSON token accepts. `depth` counts
/// the objects and arrays open at `position` and may not exceed 512, the limit of Foundation's `JSONDecoder`.
struct FastJSONReader {
    /// The deepest nesting of objects and arrays accepted, the same as Foundation's `JSONDecoder`.
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The index of the first byte from `index` on that a string cannot hold as it is: a quote, a backslash, a control
    /// character or a byte beyond ASCII; `bytes.count` if there is none.
    ///
    /// The first 32 bytes are read eight at a time. Past them the text is likely long (a signed JWS, a certificate):
    /// where the next quote ends it with nothing special before (`endOfLongPlainText`), that quote is the answer;
    /// otherwise it is passed over 64 and then 32 bytes at a time with vector compares, which find whether a block
    /// holds such a byte but not where, and the block that does is read eight bytes at a time.
    @inline(__always)
    func endOfPlainText(from index: Int) -> Int {
        endOfPlainText(from: index, leavingLongTextsToCaller: false).end
    }

    /// As `endOfPlainText(from:)`, except that where `leavingLongTextsToCaller` is true and a long text ends at a quote
    /// with no backslash before, its bytes are not checked further: the answer is that quote with `unchecked` true,
    /// and the caller checks the bytes up to it for control characters and bytes beyond ASCII, or reads the string
    /// again with `endOfPlainText(from:)`.
    ///
    /// A caller that builds a `String` of the text checks it as it copies it (`checkedString(_:)`), where the
    /// `String`'s own creation reads every byte to check its UTF-8, a pass no public API avoids.
    @inline(__always)
    func endOfPlainText(from index: Int, leavingLongTextsToCaller: Bool) -> (end: Int, unchecked: Bool) {
        var index = index
        var words = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let special = Self.specialBytes(in: word)
            if special != 0 { return (index + special.trailingZeroBitCount >> 3, false) }
            index += 8
            words += 1
            if words == 4 {
                if let end = endOfLongPlainText(from: index, checkingBytes: !leavingLongTextsToCaller) {
                    return (end, leavingLongTextsToCaller)
                }
                index = Self.skipPlainBlocks(in: raw, from: index)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 { return (index, false) }
            index += 1
        }
        return (index, false)
    }

    /// The index of the quote that ends a long string from `index` on when no backslash comes before it and, where
    /// `checkingBytes`, no control character or byte beyond ASCII either, as in a signed JWS; nil when one does, or no
    /// quote follows.
    ///
    /// The C library's `memchr` finds the quote and then any backslash before it, with the widest vector instructions
    /// the processor has (it chooses them when the program starts); where `checkingBytes`, one pass of vector compares
    /// then checks that every byte between lies from 0x20 to 0x7F (`isPrintableASCII(_:)`). The checks stop at the
    /// first quote, which is either the end of the string or an escaped quote inside it (with no quote, `memchr` reads
    /// to the end once), so no byte is read more than a few times whatever the input.
    @inline(__always)
    func endOfLongPlainText(from index: Int, checkingBytes: Bool) -> Int? {
        guard let base = bytes.baseAddress, index < bytes.count,
            let quote = memchr(base + index, Int32(ASCII.quote), bytes.count - index)
        else { return nil }
        let end = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
        guard memchr(base + index, Int32(ASCII.backslash), end - index) == nil else { return nil }
        guard !checkingBytes || Self.isPrintableASCII(UnsafeRawBufferPointer(rebasing: raw[index..<end])) else {
            return nil
        }
        return end
    }

    /// The bytes read, untyped.
    @inline(__always)
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(bytes) }

    /// A `String` of `text`, a string's contents with no quote or backslash, when every byte of it lies from 0x20 to
    /// 0x7F; nil otherwise.
    ///
    /// Where the system has `String(unsafeUninitializedCapacity:initializingUTF8With:)` (every Linux; macOS 11, iOS 14
    /// and later), the bytes are checked as they are copied (`stringCheckedAsCopied(_:)`); before, they are checked
    /// and then copied (`stringCheckedThenCopied(_:)`). Both give the same answer for every text.
    @inline(__always)
    static func checkedString(_ text: UnsafeRawBufferPointer) -> String? {
        if #available(macOS 11, iOS 14, tvOS 14, watchOS 7, *) {
            return stringCheckedAsCopied(text)
        }
        return stringCheckedThenCopied(text)
    }

    /// `checkedString(_:)` with one pass of our own: the bytes are copied into the `String`'s storage and checked for
    /// control characters in the same pass (`copyReportingControlCharacters`).
    ///
    /// The `String`'s creation then checks them once more, as UTF-8, and records whether all are ASCII; a native
    /// `String` that is all ASCII knows its UTF-16 count without reading its bytes, and any other has fewer UTF-16
    /// code units than bytes (a scalar beyond ASCII takes two to four bytes and one or two code units), or more bytes
    /// than `text` (an invalid sequence is replaced by U+FFFD, three bytes and one code unit). Text beyond ASCII is
    /// rare in the strings that reach here and costs one more pass, to count its code units.
    @available(macOS 11, iOS 14, tvOS 14, watchOS 7, *)
    @inline(__always)
    static func stringCheckedAsCopied(_ text: UnsafeRawBufferPointer) -> String? {
        var hasControlCharacters = false
        let string = String(unsafeUninitializedCapacity: text.count) { storage in
            hasControlCharacters = copyReportingControlCharacters(
                from: text, to: UnsafeMutableRawBufferPointer(storage))
            return text.count
        }
        guard !hasControlCharacters, string.utf8.count == text.count, string.utf16.count == text.count else {
            return nil
        }
        return string
    }

    /// `checkedString(_:)` in two passes: every byte checked for 0x20 to 0x7F, then the `String` made.
    static func stringCheckedThenCopied(_ text: UnsafeRawBufferPointer) -> String? {
        guard isPrintableASCII(text) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether every byte lies from 0x20 to 0x7F.
    ///
    /// Read as signed bytes, those below 0x20 and those beyond ASCII are both less than 0x20: one compare a vector
    /// finds them. The text ends at a quote found before, so the compares are gathered over all of it (64 bytes a
    /// step, then 16, then the last few one by one) and tested once at the end, with no test inside the loop.
    @inline(__always)
    static func isPrintableASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        let space = SIMD16<Int8>(repeating: Int8(ASCII.space))
        var below = SIMDMask<SIMD16<Int8>>(repeating: false)
        var offset = 0
        while offset + 64 <= raw.count {
            below .|= raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self) .< space
            below .|= raw.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<Int8>.self) .< space
            below .|= raw.loadUnaligned(fromByteOffset: offset + 32, as: SIMD16<Int8>.self) .< space
            below .|= raw.loadUnaligned(fromByteOffset: offset + 48, as: SIMD16<Int8>.self) .< space
            offset += 64
        }
        while offset + 16 <= raw.count {
            below .|= raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self) .< space
            offset += 16
        }
        while offset < raw.count {
            guard raw[offset] >= ASCII.space, raw[offset] < 0x80 else { return false }
            offset += 1
        }
        return !hasLane(below)
    }

    /// Copies `source` to the start of `target` and returns whether any byte of it is a control character (below
    /// 0x20).
    ///
    /// The least byte of each lane is kept as the bytes pass (an unsigned minimum, one instruction a vector on every
    /// x86-64 and ARM64 processor), 64 bytes a step, then 16, then the last few one by one, and compared with 0x20
    /// once at the end: a load, a store and a minimum for 16 bytes.
    @inline(__always)
    static func copyReportingControlCharacters(
        from source: UnsafeRawBufferPointer, to target: UnsafeMutableRawBufferPointer
    ) -> Bool {
        let count = source.count
        var least = SIMD16<UInt8>(repeating: 0xFF)
        var offset = 0
        while offset &+ 64 <= count {
            let first = source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
            let second = source.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD16<UInt8>.self)
            let third = source.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD16<UInt8>.self)
            let fourth = source.loadUnaligned(fromByteOffset: offset &+ 48, as: SIMD16<UInt8>.self)
            target.storeBytes(of: first, toByteOffset: offset, as: SIMD16<UInt8>.self)
            target.storeBytes(of: second, toByteOffset: offset &+ 16, as: SIMD16<UInt8>.self)
            target.storeBytes(of: third, toByteOffset: offset &+ 32, as: SIMD16<UInt8>.self)
            target.storeBytes(of: fourth, toByteOffset: offset &+ 48, as: SIMD16<UInt8>.self)
            least = minimum(least, minimum(minimum(first, second), minimum(third, fourth)))
            offset &+= 64
        }
        while offset &+ 16 <= count {
            let block = source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
            target.storeBytes(of: block, toByteOffset: offset, as: SIMD16<UInt8>.self)
            least = minimum(least, block)
            offset &+= 16
        }
        var leastByte: UInt8 = 0xFF
        while offset < count {
            let byte = source[offset]
            target[offset] = byte
            leastByte = Swift.min(leastByte, byte)
            offset &+= 1
        }
        // Every lane is at least 0x20 where its minimum with 0x20 is 0x20: compared as two words, since an unsigned
        // `.<` of bytes is read lane by lane.
        let space = SIMD16<UInt8>(repeating: ASCII.space)
        let clipped = unsafeBitCast(minimum(least, space), to: SIMD2<UInt64>.self)
        let spaces = unsafeBitCast(space, to: SIMD2<UInt64>.self)
        return leastByte < ASCII.space || clipped[0] != spaces[0] || clipped[1] != spaces[1]
    }

    /// The lane-wise unsigned minimum of two vectors, written so that the compiler emits one instruction
    /// (`pointwiseMin` is not inlined into the library).
    @inline(__always)
    private static func minimum(_ first: SIMD16<UInt8>, _ second: SIMD16<UInt8>) -> SIMD16<UInt8> {
        first.replacing(with: second, where: second .< first)
    }

    /// Whether two byte sequences are equal, compared eight bytes at a time.
    @inline(__always)
    static func bytesEqual(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = first.count
        guard second.count == count else { return false }
        let left = UnsafeRawBufferPointer(first)
        let right = UnsafeRawBufferPointer(second)
        var offset = 0
        while offset + 8 <= count {
            guard
                left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        if offset + 4 <= count {
            guard
                left.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    == right.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            else { return false }
            offset += 4
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The start of the first block of 32 bytes from `offset` on that holds a quote, a backslash, a byte below 0x20
    /// or beyond ASCII, or of the last bytes, fewer than 32.
    ///
    /// Read as signed bytes, both the control characters and the bytes beyond ASCII are less than 0x20: one compare
    /// finds them. Blocks of 64 bytes are passed with one test for the four vectors of 16 bytes together, which is where
    /// a signed string spends its time; the block of 64 that holds a special byte is then read 32 bytes at a time.
    @inline(__always)
    static func skipPlainBlocks(in raw: UnsafeRawBufferPointer, from offset: Int) -> Int {
        var offset = offset
        while offset + 64 <= raw.count {
            let special =
                specialLanes(raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self))
                .| specialLanes(raw.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<Int8>.self))
                .| specialLanes(raw.loadUnaligned(fromByteOffset: offset + 32, as: SIMD16<Int8>.self))
                .| specialLanes(raw.loadUnaligned(fromByteOffset: offset + 48, as: SIMD16<Int8>.self))
            if hasLane(special) { break }
            offset += 64
        }
        while offset + 32 <= raw.count {
            let special =
                specialLanes(raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self))
                .| specialLanes(raw.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<Int8>.self))
            if hasLane(special) { return offset }
            offset += 32
        }
        return offset
    }

    /// The lanes of `bytes` that hold a quote, a backslash, or a byte below 0x20 or beyond ASCII (negative as `Int8`).
    @inline(__always)
    private static func specialLanes(_ bytes: SIMD16<Int8>) -> SIMDMask<SIMD16<Int8>> {
        (bytes .== SIMD16(repeating: Int8(ASCII.quote))) .| (bytes .== SIMD16(repeating: Int8(ASCII.backslash)))
            .| (bytes .< SIMD16(repeating: Int8(ASCII.space)))
    }

    /// Whether any lane of a mask is set.
    ///
    /// The lanes of a mask are all ones or all zeros; the two halves of the mask, as words, are both zero where no
    /// lane is set (`any(_:)` reduces lane by lane where the compiler does not inline it).
    @inline(__always)
    private static func hasLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        let words = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// The high bit of each byte of `word` that is a quote, a backslash, below 0x20 or beyond ASCII; exact for the
    /// lowest such byte, which is the only one used.
    @inline(__always)
    static func specialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(ASCII.quote))
        let backslashes = word ^ (ones &* UInt64(ASCII.backslash))
        let quoteBytes = (quotes &- ones) & ~quotes
        let backslashBytes = (backslashes &- ones) & ~backslashes
        let controlBytes = word &- ones &* 0x20
        return (quoteBytes | backslashBytes | controlBytes | word) & (ones &* 0x80)
    }

    /// The byte at `index`, or 0 past the end.
    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// The byte at `position`, or 0 past the end.
    @inline(__always)
    var current: UInt8 { byte(at: position) }

    /// Skips RFC 8259 white space: space, tab, line feed and carriage return.
    @inline(__always)
    mutating func skipWhitespace() {
        while true {
            let byte = current
            guard byte == ASCII.space || byte == ASCII.lineFeed || byte == ASCII.carriageReturn || byte == ASCII.tab
            else { return }
            position += 1
        }
    }

    /// Skips white space and then `byte`, or fails naming what was expected.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ expectation: @autoclosure () -> String) throws(PayloadDecodingError) {
        skipWhitespace()
        guard current == byte else { throw malformed("expected \(expectation())") }
        position += 1
    }

    /// Skips a byte order mark at the start, which RFC 8259 section 8.1 lets a parser ignore (as `JSONDecoder` does).
    mutating func skipByteOrderMark() {
        if position == 0, byte(at: 0) == 0xEF, byte(at: 1) == 0xBB, byte(at: 2) == 0xBF {
            position = 3
        }
    }

    /// Checks that only white space follows the top-level value.
    mutating func expectEnd() throws(PayloadDecodingError) {
        skipWhitespace()
        guard position >= bytes.count else { throw malformed("expected the end of the document after its value") }
    }

    /// Enters an object or array whose opening byte is at `position`.
    @inline(__always)
    mutating func enterContainer() throws(PayloadDecodingError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw malformed("objects and arrays nest deeper than \(Self.maximumDepth) levels")
        }
        position += 1
    }

    /// Reads the literal `null` at `position`.
    mutating func readNull() throws(PayloadDecodingError) {
        try readLiteral(UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l"), name: "null")
    }

    /// Reads `true` or `false` at `position`, the first byte being `t` or `f`.
    mutating func readBooleanLiteral() throws(PayloadDecodingError) -> Bool {
        if current == UInt8(ascii: "t") {
            try readLiteral(UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e"), name: "true")
            return true
        }
        try readLiteral(UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), name: "false")
        guard current == UInt8(ascii: "e") else { throw malformed("expected the literal false") }
        position += 1
        return false
    }

    /// Reads four bytes of a literal.
    @inline(__always)
    private mutating func readLiteral(
        _ first: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8, name: String
    ) throws(PayloadDecodingError) {
        guard
            byte(at: position) == first, byte(at: position + 1) == second, byte(at: position + 2) == third,
            byte(at: position + 3) == fourth
        else { throw malformed("expected the literal \(name)") }
        position += 4
    }
}

// MARK: - Errors

extension FastJSONReader {
    /// The error for bytes that are not RFC 8259 JSON at `index` (by default, `position`).
    func malformed(_ problem: String, at index: Int? = nil) -> PayloadDecodingError {
        let index = index ?? position
        return PayloadDecodingError(
            code: .malformedJSON, path: "",
            message: "not RFC 8259 JSON: \(problem); found \(describeByte(at: index)) at byte offset \(index)")
    }

    /// The error for a value of another JSON type than the field takes; the path is added by the enclosing object.
    func wrongType(expected: String) -> PayloadDecodingError {
        PayloadDecodingError(code: .wrongType, path: "", message: "expected \(expected), found \(describeValue())")
    }

    /// Names the byte at `index` for an error message.
    func describeByte(at index: Int) -> String {
        guard index < bytes.count else { return "the end of the document" }
        let byte = bytes[index]
        if byte >= 0x20, byte < 0x7F {
            return "\"\(Character(Unicode.Scalar(byte)))\""
        }
        return "the byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// Names the JSON type of the value starting at `position`, for an error message.
    func describeValue() -> String {
        switch current {
        case ASCII.quote: "a string"
        case ASCII.openBrace: "an object"
        case ASCII.openBracket: "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case ASCII.minus, UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: describeByte(at: position)
        }
    }
}

extension PayloadDecodingError {
    /// The same error found inside the member `name`; malformed JSON stays an error of the whole document.
    func inMember(_ name: String) -> PayloadDecodingError {
        isAboutTheWholeDocument ? self : nested(under: name)
    }

    /// The same error found at `index` of an array.
    func inElement(_ index: Int) -> PayloadDecodingError {
        isAboutTheWholeDocument ? self : nested(under: "[\(index)]")
    }

    /// Whether the error concerns the document rather than one value: malformed JSON, or a deferral.
    var isAboutTheWholeDocument: Bool {
        code == .malformedJSON || code == Self.deferredToReference.code
    }

    /// Not an error in the document: the fast path leaves this value to the reference decoder.
    ///
    /// Foundation's `JSONDecoder` reads an integer written with a fraction or exponent whose magnitude is 2^53 or more
    /// (such as `1.0e16`) through `Decimal`, with rounding rules of its own; the fast path defers those documents.
    static let deferredToReference = PayloadDecodingError(
        code: Code(rawValue: "deferred_to_reference"), path: "",
        message: "an integer written with a fraction or exponent beyond 2^53 is read by the reference decoder")
}

// MARK: - Bytes

/// The bytes of JSON's grammar (RFC 8259) that the reader compares with, by name: `ASCII.zero` is the digit `0`
/// (0x30), not the integer zero.
enum ASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}

extension UInt8 {
    /// Whether the byte is an ASCII digit.
    @inline(__always)
    var isDigit: Bool { self &- ASCII.zero < 10 }
}
