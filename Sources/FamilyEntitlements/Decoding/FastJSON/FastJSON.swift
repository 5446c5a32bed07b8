#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// This folder holds the reader over the bytes and what every payload type shares; each payload type's own decoding
// (its `FastJSONDecodable` conformance, a switch over its `CodingKeys`) lies beside the type, in
// `Payloads/<Type>+FastJSON.swift` and `History/History+FastJSON.swift`, with the objects nested in it.

/// A payload type the fast path reads straight from UTF-8 bytes: its fields, its value with none, and how it reads
/// each member (a switch over its `CodingKeys`, exhaustive so that a new field will not compile until it is read).
protocol FastJSONDecodable {
    /// The names of the members the type reads.
    associatedtype FastJSONKey: CodingKey & CaseIterable

    /// The members, with the order Apple writes them in where it is known.
    static var fastJSONFields: FastJSONFields<FastJSONKey> { get }

    /// Every field absent: each optional stored property starts as nil, with none of the public initialiser's
    /// arguments to copy in (which costs more than the decoding of a small payload's fields).
    init(fieldsAbsent: ())

    /// Reads the value of the member `key`, at the reader's position, into `value`.
    ///
    /// The value is filled in place rather than returned: returning a payload of thirty-odd fields costs a copy.
    static func readFastJSONMember(
        _ key: FastJSONKey, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError)

    /// Whether the type keeps the members it does not know (`keepUnknownMember`) rather than skipping them.
    static var keepsUnknownMembers: Bool { get }

    /// Reads the value of a member named `name` that matches no key, at the reader's position, into `value`.
    static func keepUnknownMember(
        named name: String, from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError)
}

extension FastJSONDecodable {
    /// A value with every field absent.
    static var empty: Self { Self(fieldsAbsent: ()) }

    /// Reads the members of the object whose opening brace is at the reader's position into `value`.
    @inline(__always)
    static func decodeFastJSON(from reader: inout FastJSONReader, into value: inout Self) throws(PayloadDecodingError) {
        guard keepsUnknownMembers else {
            return try reader.readMembers(fastJSONFields) { key, reader throws(PayloadDecodingError) in
                try readFastJSONMember(key, from: &reader, into: &value)
            }
        }
        try reader.readMembers(
            fastJSONFields,
            unknown: { name, reader throws(PayloadDecodingError) in
                try keepUnknownMember(named: name, from: &reader, into: &value)
            }, keepsUnknown: true
        ) { key, reader throws(PayloadDecodingError) in
            try readFastJSONMember(key, from: &reader, into: &value)
        }
    }

    /// Most payloads skip the members they do not know, as Apple asks.
    static var keepsUnknownMembers: Bool { false }

    static func keepUnknownMember(
        named _: String, from reader: inout FastJSONReader, into _: inout Self
    ) throws(PayloadDecodingError) {
        try reader.skipValue()
    }
}

extension FastJSONDecodable where Self: AppStorePayload {
    /// The body of each payload type's `init(jsonData:)`: the fast path, and the reference path where it defers or
    /// rejects the document (see `FastJSON.settle`).
    ///
    /// Inlined into each public initialiser, so that the payload type's own decoding is called directly. Each type
    /// therefore declares its `init(jsonData:)` as this one line: a single implementation in `AppStorePayload`, which
    /// reached this through a dynamic cast to `FastJSONDecodable`, is generic over the payload type when called from
    /// another module, and measured slower (`entitlements-bench --decode`, two alternating runs of each build: a
    /// typical transaction in 1.53 and 1.42 us against 1.16 and 1.14 us, a notification 6.05x and 5.78x
    /// `JSONDecoder` against 7.16x and 7.05x).
    @inline(__always)
    init(fastJSONData data: some DataProtocol) throws(PayloadDecodingError) {
        self = .empty
        let outcome = FastJSON.decode(data, into: &self)
        if case .decoded = outcome { return }
        self = try FastJSON.settle(outcome, as: Self.self, from: data)
    }
}

/// The fast decoding path: one pass over the bytes, strict RFC 8259, the same values as the reference path.
///
/// `PayloadJSON` (Foundation's `JSONDecoder` and the payloads' `Codable` initialisers) stays the reference: whatever
/// both accept decodes to equal values, and the fast path accepts nothing the reference rejects. It rejects what breaks
/// RFC 8259 even where `JSONDecoder` tolerates it (a trailing comma, for one); `docs/performance.md` lists the cases.
enum FastJSON {
    /// What the fast path made of a document.
    enum Outcome {
        case decoded
        case rejected(PayloadDecodingError)
        /// The document is RFC 8259 JSON but holds a number only the reference reads the same way.
        case deferred
    }

    /// Settles a document the fast path did not decode: the reference path reads what the fast path defers.
    ///
    /// A rejected document gets the reference's error where the reference rejects it too and names a member, so
    /// codes and paths match the reference's; otherwise (the reference only says "not valid JSON", or accepts what
    /// breaks RFC 8259) the error is the fast path's own, which says what is wrong and where.
    static func settle<Payload: AppStorePayload>(
        _ outcome: Outcome, as _: Payload.Type, from data: some DataProtocol
    ) throws(PayloadDecodingError) -> Payload {
        try settle(outcome) { () throws(PayloadDecodingError) in try Payload(referenceJSONData: data) }
    }

    /// Settles a document the fast path did not decode, with `reference` reading it as the reference path does.
    static func settle<Value>(
        _ outcome: Outcome, reference: () throws(PayloadDecodingError) -> Value
    ) throws(PayloadDecodingError) -> Value {
        switch outcome {
        case .decoded, .deferred:
            return try reference()
        case .rejected(let fastError):
            do throws(PayloadDecodingError) {
                _ = try reference()
            } catch let reference where reference.code != .malformedJSON || !reference.path.isEmpty {
                throw reference
            } catch {
                throw fastError
            }
            throw fastError
        }
    }

    /// Decodes a payload with the fast path alone into `value`, from any bytes; inlined into each payload type's
    /// initialiser, so that only the bytes depend on the data's type.
    ///
    /// `Data`, the usual input, is read through its own `withUnsafeBytes`: the public initialisers are generic and
    /// not specialised for their callers, and `withContiguousStorageIfAvailable` reached through `DataProtocol`
    /// costs more than the decoding of a small payload's fields.
    @inline(__always)
    static func decode<Value: FastJSONDecodable>(_ data: some DataProtocol, into value: inout Value) -> Outcome {
        if let data = data as? Data {
            return data.withUnsafeBytes { raw in decode(from: raw.assumingMemoryBound(to: UInt8.self), into: &value) }
        }
        var outcome = Outcome.deferred
        let done: Void? = data.withContiguousStorageIfAvailable { bytes in outcome = decode(from: bytes, into: &value) }
        guard done == nil else { return outcome }
        return Array(data).withUnsafeBufferPointer { bytes in decode(from: bytes, into: &value) }
    }

    /// Decodes a payload with the fast path alone into `value`.
    static func decode<Value: FastJSONDecodable>(
        from bytes: UnsafeBufferPointer<UInt8>, into value: inout Value
    ) -> Outcome {
        var reader = FastJSONReader(bytes: bytes)
        do throws(PayloadDecodingError) {
            reader.skipByteOrderMark()
            reader.skipWhitespace()
            guard reader.current == ASCII.openBrace else {
                if reader.current == UInt8(ascii: "n") {
                    try reader.readNull()
                    try reader.expectEnd()
                    throw PayloadDecodingError(
                        code: .missingValue, path: "", message: "expected an object, found null or nothing")
                }
                throw reader.wrongType(expected: "an object")
            }
            try Value.decodeFastJSON(from: &reader, into: &value)
            try reader.expectEnd()
            return .decoded
        } catch {
            return outcome(of: error, in: bytes)
        }
    }

    /// Decodes a top-level array of payloads with the fast path alone into `values`.
    static func decodeArray<Value: FastJSONDecodable>(
        from bytes: UnsafeBufferPointer<UInt8>, into values: inout [Value]
    ) -> Outcome {
        var reader = FastJSONReader(bytes: bytes)
        do throws(PayloadDecodingError) {
            reader.skipByteOrderMark()
            reader.skipWhitespace()
            guard reader.current == ASCII.openBracket else {
                if reader.current == UInt8(ascii: "n") {
                    try reader.readNull()
                    try reader.expectEnd()
                    throw PayloadDecodingError(
                        code: .missingValue, path: "", message: "expected an array, found null or nothing")
                }
                throw reader.wrongType(expected: "an array")
            }
            values = try reader.readArray(of: Value.self) ?? []
            try reader.expectEnd()
            return .decoded
        } catch {
            return outcome(of: error, in: bytes)
        }
    }

    /// What a failure of the fast path means for the document.
    private static func outcome(of error: PayloadDecodingError, in bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        // The reference checks the whole document before it reads a member: so does the fast path, on failure.
        if error.code != .malformedJSON, let syntaxError = firstSyntaxError(in: bytes) {
            return .rejected(syntaxError)
        }
        return error.code == PayloadDecodingError.deferredToReference.code ? .deferred : .rejected(error)
    }

    /// The member names of a top-level object, for recognising a document's kind; nil where the bytes are not one
    /// RFC 8259 object, or name a member twice, which the reference path then reads (and reports on).
    static func topLevelNames(in bytes: UnsafeBufferPointer<UInt8>) -> Set<String>? {
        var reader = FastJSONReader(bytes: bytes)
        var names = Set<String>()
        do throws(PayloadDecodingError) {
            reader.skipByteOrderMark()
            reader.skipWhitespace()
            guard reader.current == ASCII.openBrace else { return nil }
            try reader.enterContainer()
            reader.skipWhitespace()
            if reader.current == ASCII.closeBrace {
                reader.position += 1
            } else {
                repeat {
                    reader.skipWhitespace()
                    guard reader.current == ASCII.quote, names.insert(try reader.readStringContents()).inserted
                    else { return nil }
                    try reader.expect(ASCII.colon, "a colon after a member name")
                    reader.skipWhitespace()
                    try reader.skipValue()
                } while try reader.closeOrContinue(ASCII.closeBrace, "a trailing comma before }")
            }
            try reader.expectEnd()
            return names
        } catch {
            return nil
        }
    }

    /// The first place the bytes break RFC 8259 or name a member of an object twice (`duplicate_member`, at its
    /// path), or nil when they are one JSON text whose every object names each member once.
    static func firstSyntaxError(in bytes: UnsafeBufferPointer<UInt8>) -> PayloadDecodingError? {
        var reader = FastJSONReader(bytes: bytes)
        do throws(PayloadDecodingError) {
            reader.skipByteOrderMark()
            reader.skipWhitespace()
            try reader.skipValue()
            try reader.expectEnd()
            return nil
        } catch {
            return error
        }
    }

    /// Calls `body` with the bytes of `data`, copying them only when they are not contiguous.
    ///
    /// The result comes back through a local variable, not through `withContiguousStorageIfAvailable`'s generic
    /// result, which would copy a payload through its value witnesses where Foundation's method is not specialised.
    @inline(__always)
    static func withContiguousBytes<Result>(
        of data: some DataProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var result: Result?
        let done: Void? = data.withContiguousStorageIfAvailable { bytes in result = body(bytes) }
        if done != nil, let result { return result }
        return Array(data).withUnsafeBufferPointer(body)
    }
}
