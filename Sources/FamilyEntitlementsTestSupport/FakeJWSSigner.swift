import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes JWS strings in Apple's compact format that are NOT signed by Apple, for code under test that takes
/// `signedPayload`, `signedTransactionInfo` or `signedRenewalInfo` strings.
///
/// The header names the key `FamilyEntitlementsTestSupport.notAppleSigned` and the signature is a fixed marker, so a
/// real verifier rejects every string this produces. Read them back with `UnverifiedJWS` or `decodeUnverifiedJWS`.
public struct FakeJWSSigner: Hashable, Sendable {
    /// The `kid` written in every header.
    public static let keyIdentifier = "FamilyEntitlementsTestSupport.notAppleSigned"
    /// The bytes written as every signature.
    public static let signatureMarker = Data("NOT SIGNED BY APPLE".utf8)

    public init() {}

    /// The compact JWS of the payload's JSON.
    public func sign(_ payload: some AppStorePayload) throws(PayloadEncodingError) -> String {
        try sign(json: payload.jsonData())
    }

    /// The compact JWS of JSON bytes, written as they are.
    public func sign(json: Data) -> String {
        let header = Data(#"{"alg":"ES256","kid":"\#(Self.keyIdentifier)","typ":"JWT"}"#.utf8)
        return [header, json, Self.signatureMarker].map(Base64URL.encode).joined(separator: ".")
    }

}
