#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value this library reads from JSON: a signed payload's contents, an App Store Server API body, or the
/// library's own history and catalog files.
public protocol AppStorePayload: Codable, Hashable, Sendable {}

extension AppStorePayload {
    /// Decodes the value from JSON bytes, naming the JSON path of anything wrong.
    ///
    /// Unknown keys are ignored and every field may be absent; values of the wrong JSON type, dates outside the years
    /// 1 to 9999, numbers out of range and `appAccountToken` values that are not UUIDs are errors.
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        self = try PayloadJSON.decode(Self.self, from: Data(jsonData))
    }

    /// Encodes the value as compact JSON in Apple's format: dates in milliseconds, keys sorted.
    public func jsonData() throws(PayloadDecodingError) -> Data {
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

/// The reference JSON path, Foundation's `JSONDecoder` and `JSONEncoder`.
package enum PayloadJSON {
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(PayloadDecodingError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw PayloadDecodingError(error)
        }
    }

    package static func encode(_ value: some Encodable) throws(PayloadDecodingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw PayloadDecodingError(code: .invalidValue, path: "", message: "cannot encode: \(error)")
        }
    }
}
