/// Objects, arrays and values read whole: payload objects, `JSONValue`, and members skipped after a strict check.
extension FastJSONReader {
    /// Where the reader is in a payload object: which fields it has read, and which it expects next.
    struct ObjectMembers {
        fileprivate var seen: UInt64 = 0
        /// The field read last; past the end before the first, where the successor is the first field Apple writes.
        fileprivate var previous = Int.max
        fileprivate var isAtStart = true
    }

    /// How many absent fields in a row `nextMember` looks past in Apple's order before it looks a name up.
    static let fieldsSkippedAtMost = 4

    /// Enters a payload object whose opening brace is at `position`; read its members with `nextMember`.
    @inline(__always)
    mutating func enterObject() throws(PayloadDecodingError) -> ObjectMembers {
        try enterContainer()
        return ObjectMembers()
    }

    /// Reads an object member by member: `read` reads the value of each member the payload reads, with the reader at
    /// that value, and an error it throws is placed at the member. Where `keepsUnknown`, `unknown` reads each member whose
    /// name matches no field (see `nextMember`).
    @inline(__always)
    mutating func readMembers<Key>(
        _ fields: FastJSONFields<Key>,
        unknown: (String, inout FastJSONReader) throws(PayloadDecodingError) -> Void = { _, _ in },
        keepsUnknown: Bool = false,
        _ read: (Key, inout FastJSONReader) throws(PayloadDecodingError) -> Void
    ) throws(PayloadDecodingError) {
        var members = try enterObject()
        while let key = try nextMember(fields, &members, unknown: unknown, keepsUnknown: keepsUnknown) {
            do throws(PayloadDecodingError) {
                try read(key, &self)
            } catch {
                throw error.inMember(key.stringValue)
            }
        }
    }

    /// Moves to the value of the next member the payload reads and returns its key, or returns nil past the object.
    ///
    /// Unknown members are skipped after a strict check, or read by `unknown` where `keepsUnknown` (with the reader at
    /// the value, and errors placed at the member). Of duplicate names the first wins and later ones are skipped the
    /// same way, as `JSONDecoder` keeps the first.
    @inline(__always)
    mutating func nextMember<Key>(
        _ fields: FastJSONFields<Key>, _ members: inout ObjectMembers,
        unknown: (String, inout FastJSONReader) throws(PayloadDecodingError) -> Void = { _, _ in },
        keepsUnknown: Bool = false
    ) throws(PayloadDecodingError) -> Key? {
        while true {
            skipWhitespace()
            if members.isAtStart {
                members.isAtStart = false
                if current == ASCII.closeBrace {
                    position += 1
                    depth -= 1
                    return nil
                }
            } else if current == ASCII.comma {
                position += 1
                skipWhitespace()
                if current == ASCII.closeBrace { throw malformed("a trailing comma before } (RFC 8259 section 4)") }
            } else if current == ASCII.closeBrace {
                position += 1
                depth -= 1
                return nil
            } else {
                throw malformed("expected , or } after an object member")
            }
            guard current == ASCII.quote else { throw malformed("expected a member name in double quotes") }
            let nameStart = position
            // Apple leaves out absent fields: the member is likely the next field Apple writes, or one a few after.
            var guess = fields.successors[min(members.previous, fields.keys.count)]
            var isGuessed = fields.isNameAndColon(of: guess, at: position + 1, in: bytes)
            if !isGuessed {
                var candidate = guess
                for _ in 0..<Self.fieldsSkippedAtMost where candidate < fields.keys.count {
                    candidate = fields.successors[candidate]
                    if fields.isNameAndColon(of: candidate, at: position + 1, in: bytes) {
                        guess = candidate
                        isGuessed = true
                        break
                    }
                }
            }
            let field: Int?
            if isGuessed {
                field = guess
                position += fields.nameLength(of: guess) + 3
            } else {
                if fields.isName(of: guess, at: position + 1, in: bytes) {
                    field = guess
                    position += fields.nameLength(of: guess) + 2
                } else {
                    field = try scanMemberName(fields, guess: guess)
                }
                if current == ASCII.colon {
                    position += 1
                } else {
                    try expect(ASCII.colon, "a colon after a member name")
                }
            }
            skipWhitespace()
            if let field, members.seen & (1 << UInt64(field)) == 0 {
                members.seen |= 1 << UInt64(field)
                members.previous = field
                return fields.keys[field]
            }
            if keepsUnknown, field == nil {
                try readUnknownMember(from: nameStart, unknown)
                continue
            }
            try skipValue()
        }
    }

    /// Reads again the name of an unknown member that starts at `nameStart` (its opening quote) as a string, then
    /// its value with `unknown`; the reader is at the value, and is left past it.
    private mutating func readUnknownMember(
        from nameStart: Int, _ unknown: (String, inout FastJSONReader) throws(PayloadDecodingError) -> Void
    ) throws(PayloadDecodingError) {
        let valueStart = position
        position = nameStart
        let name = try readStringContents()
        position = valueStart
        do throws(PayloadDecodingError) {
            try unknown(name, &self)
        } catch {
            throw error.inMember(name)
        }
    }

    /// Reads a member name at `position` (its opening quote) and returns the index of the field it names, if any.
    @inline(__always)
    private mutating func scanMemberName<Key>(
        _ fields: FastJSONFields<Key>, guess: Int
    ) throws(PayloadDecodingError) -> Int? {
        let start = position + 1
        let end = endOfPlainText(from: start)
        guard byte(at: end) == ASCII.quote else { return try scanUnusualMemberName(fields) }
        position = end + 1
        return fields.index(of: UnsafeBufferPointer(rebasing: bytes[start..<end]), guess: guess)
    }

    /// Reads a member name with escapes or bytes beyond ASCII, which must decode to Unicode text.
    ///
    /// Where its bytes match no field, the name is compared as `JSONDecoder` compares keys, by `String` equality
    /// (canonical equivalence): `S\u212AU`, with the Kelvin sign, is the field `SKU` to both paths.
    private mutating func scanUnusualMemberName<Key>(
        _ fields: FastJSONFields<Key>
    ) throws(PayloadDecodingError) -> Int? {
        let token = try scanString()
        let name = token.hasEscapes ? try unescape(token) : Array(bytes[token.start..<token.end])
        if let field = name.withUnsafeBufferPointer({ name in fields.index(of: name, guess: 0) }) { return field }
        let text = String(decoding: name, as: UTF8.self)
        return fields.keys.firstIndex { $0.stringValue == text }
    }

    /// Moves past any JSON value after checking it strictly against RFC 8259.
    ///
    /// Strings are checked for escapes, control characters and UTF-8, numbers against the grammar, and nesting against
    /// `maximumDepth`; an escaped unpaired surrogate passes (see `scanString`).
    mutating func skipValue() throws(PayloadDecodingError) {
        switch current {
        case ASCII.quote:
            _ = try scanString()
        case ASCII.openBrace:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBrace {
                position += 1
                depth -= 1
                return
            }
            while true {
                skipWhitespace()
                guard current == ASCII.quote else { throw malformed("expected a member name in double quotes") }
                _ = try scanString()
                try expect(ASCII.colon, "a colon after a member name")
                skipWhitespace()
                try skipValue()
                guard try closeOrContinue(ASCII.closeBrace, "a trailing comma before } (RFC 8259 section 4)") else {
                    return
                }
            }
        case ASCII.openBracket:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBracket {
                position += 1
                depth -= 1
                return
            }
            while true {
                skipWhitespace()
                try skipValue()
                guard try closeOrContinue(ASCII.closeBracket, "a trailing comma before ] (RFC 8259 section 5)") else {
                    return
                }
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBooleanLiteral()
        case UInt8(ascii: "n"):
            try readNull()
        default:
            guard isAtNumber else { throw malformed("expected a JSON value") }
            _ = try scanNumber()
        }
    }

    /// After a member or element: moves past a comma and returns true, or past `close` and returns false.
    @inline(__always)
    mutating func closeOrContinue(
        _ close: UInt8, _ trailingComma: String
    ) throws(PayloadDecodingError) -> Bool {
        skipWhitespace()
        if current == ASCII.comma {
            position += 1
            skipWhitespace()
            if current == close { throw malformed(trailingComma) }
            return true
        }
        guard current == close else {
            throw malformed(close == ASCII.closeBrace ? "expected , or } after an object member" : "expected , or ]")
        }
        position += 1
        depth -= 1
        return false
    }

    /// Reads any JSON value as `JSONValue` does: every string decoded, every number read as Int64 where it can be.
    ///
    /// Objects keep the first of duplicate names, after reading every value, as `[String: JSONValue]` does.
    mutating func readAnyValue() throws(PayloadDecodingError) -> JSONValue {
        switch current {
        case ASCII.quote:
            return .string(try readStringContents())
        case ASCII.openBrace:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBrace {
                position += 1
                depth -= 1
                return .object([:])
            }
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(8)
            while true {
                skipWhitespace()
                guard current == ASCII.quote else { throw malformed("expected a member name in double quotes") }
                let name = try readStringContents()
                try expect(ASCII.colon, "a colon after a member name")
                skipWhitespace()
                let valueStart = position
                let valueDepth = depth
                do throws(PayloadDecodingError) {
                    members.append((name, try readAnyValue()))
                } catch  where error.code != PayloadDecodingError.deferredToReference.code {
                    // `JSONDecoder` never reads the value of a repeated name: only a first occurrence may fail.
                    guard members.contains(where: { $0.0 == name }) else { throw error.inMember(name) }
                    position = valueStart
                    depth = valueDepth
                    try skipValue()
                }
                guard try closeOrContinue(ASCII.closeBrace, "a trailing comma before } (RFC 8259 section 4)") else {
                    return .object(Self.dictionary(consuming: &members))
                }
            }
        case ASCII.openBracket:
            try enterContainer()
            skipWhitespace()
            if current == ASCII.closeBracket {
                position += 1
                depth -= 1
                return .array([])
            }
            var array: [JSONValue] = []
            array.reserveCapacity(4)
            while true {
                skipWhitespace()
                do throws(PayloadDecodingError) {
                    array.append(try readAnyValue())
                } catch  where error.isAboutTheWholeDocument {
                    throw error
                } catch {
                    // `JSONValue` tries an array with `try?`, then fails as an object at the array's own path.
                    throw PayloadDecodingError(
                        code: .wrongType, path: "",
                        message: "an element of this array is no JSON value this library keeps: \(error)")
                }
                guard try closeOrContinue(ASCII.closeBracket, "a trailing comma before ] (RFC 8259 section 5)") else {
                    return .array(array)
                }
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return .bool(try readBooleanLiteral())
        case UInt8(ascii: "n"):
            try readNull()
            return .null
        default:
            guard isAtNumber else { throw malformed("expected a JSON value") }
            return try jsonNumber(scanNumber())
        }
    }

    /// The dictionary of an object's members, of duplicate names the first (name and value), sized once and hashing
    /// each name once.
    ///
    /// The members are moved out rather than copied, so that no name or value is retained and released on the way.
    @inline(__always)
    static func dictionary(consuming members: inout [(String, JSONValue)]) -> [String: JSONValue] {
        var object = [String: JSONValue](minimumCapacity: members.count)
        // From the last member to the first, so that the first of duplicate names is written last.
        while let (name, value) = members.popLast() {
            guard object.updateValue(value, forKey: name) != nil else { continue }
            // A later duplicate was there; its name may differ in bytes (canonical equivalence): keep this one's.
            object.removeValue(forKey: name)
            object[name] = value
        }
        return object
    }
}
