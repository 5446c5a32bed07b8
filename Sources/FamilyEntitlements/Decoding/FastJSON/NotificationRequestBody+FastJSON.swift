#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fast decoding of a notification request body, member for member as `init(from:)` reads it.
extension NotificationRequestBody {
    /// Decodes the value from JSON bytes in one pass, with the same results as `JSONDecoder` (see `AppStorePayload`).
    public init(jsonData: some DataProtocol) throws(PayloadDecodingError) {
        // Only the bytes depend on the data's type, so that the decoding itself is compiled for this payload type;
        // the value is filled in place through a pointer, since a closure capturing it would copy it.
        self.init()
        let outcome = withUnsafeMutablePointer(to: &self) { payload in
            FastJSON.withContiguousBytes(of: jsonData) { bytes in FastJSON.decode(from: bytes, into: &payload.pointee) }
        }
        if case .decoded = outcome { return }
        self = try FastJSON.settle(outcome, as: Self.self, from: jsonData)
    }
}

extension NotificationRequestBody: FastJSONDecodable {
    private static let fastJSONFields = FastJSONFields<CodingKeys>()

    static var empty: Self { Self() }

    static func decodeFastJSON(
        from reader: inout FastJSONReader, into value: inout Self
    ) throws(PayloadDecodingError) {
        let fields = fastJSONFields
        var members = try reader.enterObject()
        while let key = try reader.nextMember(fields, &members) {
            do throws(PayloadDecodingError) {
                switch key {
                case .signedPayload: value.signedPayload = try reader.readString()
                }
            } catch {
                throw error.inMember(key.stringValue)
            }
        }
    }
}
