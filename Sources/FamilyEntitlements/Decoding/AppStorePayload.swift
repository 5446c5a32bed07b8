#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value this library reads from JSON: a signed payload's contents, an App Store Server API body, or the
/// library's own history and catalog files.
public protocol AppStorePayload: Codable, Hashable, Sendable {
    /// Decodes the value from JSON bytes, naming the JSON path of anything wrong.
    ///
    /// Unknown keys are ignored and every field may be absent; values of the wrong JSON type, dates outside the years
    /// 1 to 9999, numbers out of range and `appAccountToken` values that are not UUIDs are errors. The bytes must be
    /// RFC 8259 JSON in UTF-8, and no object may name a member twice (`duplicate_member`, at the path of the second,
    /// where readers that keep the first and readers that keep the last would disagree). The library's own payload
    /// types decode in a
    /// single pass over the bytes (see `docs/performance.md`), with the same results as `JSONDecoder`; the default
    /// implementation, for other conforming types, checks the bytes with the same strict reader (syntax, UTF-8 and
    /// nesting depth) and only then decodes them with `JSONDecoder` and `init(from:)`.
    init(jsonData: some DataProtocol) throws(PayloadDecodingError)
}

extension AppStorePayload {
    /// Decodes the value with `JSONDecoder` and `init(from:)` once the strict reader has accepted the bytes, naming
    /// the JSON path of anything wrong; a type that conforms later inherits the check (see `PayloadJSON`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        self = try Self(referenceJSONData: jsonData)
    }

    /// Decodes the value with the reference path: the strict check, then Foundation's `JSONDecoder` and the `Codable`
    /// initialisers.
    package init(referenceJSONData: some DataProtocol) throws(PayloadDecodingError) {
        self = try PayloadJSON.decode(Self.self, from: Data(referenceJSONData))
    }

    /// Decodes the value with the fast path alone: nil where it defers a document to the reference path.
    package static func decodeWithFastPathOnly(
        _ jsonData: some DataProtocol
    ) -> Result<Self, PayloadDecodingError>? {
        guard let fast = Self.self as? any FastJSONDecodable.Type else { return nil }
        return fastPathOutcome(fast, jsonData)
    }

    private static func fastPathOutcome<Fast: FastJSONDecodable>(
        _: Fast.Type, _ jsonData: some DataProtocol
    ) -> Result<Self, PayloadDecodingError>? {
        var value = Fast.empty
        let outcome = FastJSON.withContiguousBytes(of: jsonData) { bytes in FastJSON.decode(from: bytes, into: &value) }
        switch outcome {
        case .decoded: return (value as? Self).map { .success($0) }
        case .rejected(let error): return .failure(error)
        case .deferred: return nil
        }
    }

    /// Encodes the value as compact JSON in Apple's format: dates in milliseconds, keys sorted.
    public func jsonData() throws(PayloadEncodingError) -> Data {
        try PayloadJSON.encode(self)
    }
}

extension TransactionPayload: AppStorePayload {}
extension RenewalInfoPayload: AppStorePayload {}
extension AppTransactionPayload: AppStorePayload {}
extension NotificationPayload: AppStorePayload {}
extension TransactionHistoryResponse: AppStorePayload {}
extension SubscriptionStatusesResponse: AppStorePayload {}
extension NotificationRequestBody: AppStorePayload {}
extension TransactionInfoResponse: AppStorePayload {}
extension NotificationHistoryResponse: AppStorePayload {}
extension ExtendRenewalDateResponse: AppStorePayload {}

/// The reference JSON path, Foundation's `JSONDecoder` and `JSONEncoder`: the only place the library hands bytes to
/// Foundation's JSON parser.
///
/// Foundation's parser is not given bytes the strict reader has not accepted. On Linux (swift-foundation with Swift
/// 6.3.1) `JSONDecoder` traps, killing the process with SIGILL, on a document that ends inside its 513th nested array
/// (513 bytes of `[` are enough), where 512 or 514 give an error; it also tolerates what RFC 8259 forbids (trailing
/// commas, UTF-16 and UTF-32), and keeps the first of a member named twice. `decode` therefore runs
/// `FastJSON.firstSyntaxError` first, which checks the syntax, the UTF-8, the nesting depth (512 at most) and that no
/// object names a member twice, in one pass, and names the byte offset or JSON path of the first fault.
package enum PayloadJSON {
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(PayloadDecodingError) -> T {
        if let error = FastJSON.withContiguousBytes(of: data, FastJSON.firstSyntaxError(in:)) {
            throw error
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw PayloadDecodingError(error)
        }
    }

    package static func encode(_ value: some Encodable) throws(PayloadEncodingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw PayloadEncodingError(error, encoding: "the value")
        }
    }
}
