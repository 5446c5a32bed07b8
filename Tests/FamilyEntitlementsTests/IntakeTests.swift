import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A verifier for tests: it accepts what `FakeJWSSigner` signs and refuses any other signature, as a real verifier
/// refuses a string whose signature does not match. It checks each string on its own, like Apple's.
private struct FakeVerifier: SignedDataVerifying {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "signature does not match" }
    }

    func verifyNotification(signedPayload: String) async throws -> Data { try check(signedPayload) }
    func verifyTransaction(signedTransaction: String) async throws -> Data { try check(signedTransaction) }
    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data { try check(signedRenewalInfo) }

    private func check(_ signed: String) throws -> Data {
        let jws = try UnverifiedJWS(compact: signed)
        guard jws.signature == FakeJWSSigner.signatureMarker else { throw Refused() }
        return jws.payloadData
    }
}

/// Signed strings for the intake table.
private enum IntakeSample {
    static let bundleId = "com.example.family"
    static let appAppleId: Int64 = 1_234_567_890
    static let intake = NotificationIntake(
        policy: .production(bundleId: bundleId, appAppleId: appAppleId), verifier: FakeVerifier())
    static let signer = FakeJWSSigner()

    static func transaction(
        productId: String = "family.monthly", environment: Environment = .production,
        ownership: OwnershipType = .familyShared
    ) -> TransactionPayload {
        TransactionPayload(
            originalTransactionId: "2000000100", transactionId: "2000000101", bundleId: bundleId,
            productId: productId, type: .autoRenewable, inAppOwnershipType: ownership, environment: environment)
    }

    static let renewalInfo = RenewalInfoPayload(
        originalTransactionId: "2000000100", autoRenewProductId: "family.monthly", autoRenewStatus: .on,
        environment: .production)

    static func signed(_ payload: some AppStorePayload) throws -> String {
        try signer.sign(payload)
    }

    /// The same header and payload under a signature nobody made.
    static func forged(_ signed: String) -> String {
        var parts = signed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[parts.count - 1] = "Zm9yZ2VkIHNpZ25hdHVyZQ"
        return parts.joined(separator: ".")
    }

    static func notification(
        _ type: NotificationType = .subscribed,
        subtype: NotificationSubtype? = .initialBuy,
        environment: Environment = .production,
        signedTransactionInfo: String?,
        signedRenewalInfo: String?,
        embeddedTransactionInfo: TransactionPayload? = nil
    ) throws -> String {
        try signed(
            NotificationPayload(
                notificationType: type, subtype: subtype, notificationUUID: "0b9d2f0e-5a7c-4c43-8d51-2f3b64d3c001",
                version: "2.0", signedDate: Date(timeIntervalSince1970: 1_760_000_000),
                data: NotificationData(
                    environment: environment, appAppleId: appAppleId, bundleId: bundleId,
                    signedTransactionInfo: signedTransactionInfo, signedRenewalInfo: signedRenewalInfo,
                    transactionInfo: embeddedTransactionInfo)))
    }

    static func standard() throws -> String {
        try notification(signedTransactionInfo: signed(transaction()), signedRenewalInfo: signed(renewalInfo))
    }
}

struct IntakeCase: CustomTestStringConvertible, Sendable {
    enum Expected: Equatable, Sendable {
        /// Accepted, with the nested contents found and the unknown values flagged.
        case accepted(productId: String?, renewalProductId: String?, unknown: [UnknownValue])
        case rejected(NotificationRejection.Code, path: String)
    }

    var testDescription: String
    var signedPayload: @Sendable () throws -> String
    var expected: Expected
}

@Suite struct IntakeTests {
    static let cases: [IntakeCase] = [
        IntakeCase(
            testDescription: "all three strings verify -> accepted with nested contents from the signed strings",
            signedPayload: { try IntakeSample.standard() },
            expected: .accepted(productId: "family.monthly", renewalProductId: "family.monthly", unknown: [])),
        IntakeCase(
            testDescription: "notification without nested strings (TEST) -> accepted, nothing nested",
            signedPayload: {
                try IntakeSample.notification(
                    .test, subtype: nil, signedTransactionInfo: nil, signedRenewalInfo: nil)
            },
            expected: .accepted(productId: nil, renewalProductId: nil, unknown: [])),
        IntakeCase(
            testDescription: "forged notification signature -> signature_invalid at signedPayload",
            signedPayload: { IntakeSample.forged(try IntakeSample.standard()) },
            expected: .rejected(.signatureInvalid, path: "signedPayload")),
        IntakeCase(
            testDescription: "signedPayload that is not a JWS -> signature_invalid at signedPayload",
            signedPayload: { "not a jws" },
            expected: .rejected(.signatureInvalid, path: "signedPayload")),
        IntakeCase(
            testDescription: "wrapper verifies but its signedTransactionInfo is forged -> signature_invalid there",
            signedPayload: {
                try IntakeSample.notification(
                    signedTransactionInfo: IntakeSample.forged(
                        try IntakeSample.signed(IntakeSample.transaction(productId: "lifetime.all"))),
                    signedRenewalInfo: try IntakeSample.signed(IntakeSample.renewalInfo))
            },
            expected: .rejected(.signatureInvalid, path: "data.signedTransactionInfo")),
        IntakeCase(
            testDescription: "wrapper verifies but its signedRenewalInfo is forged -> signature_invalid there",
            signedPayload: {
                try IntakeSample.notification(
                    signedTransactionInfo: try IntakeSample.signed(IntakeSample.transaction()),
                    signedRenewalInfo: IntakeSample.forged(try IntakeSample.signed(IntakeSample.renewalInfo)))
            },
            expected: .rejected(.signatureInvalid, path: "data.signedRenewalInfo")),
        IntakeCase(
            testDescription:
                "wrapper embeds decoded transactionInfo (lifetime) -> ignored; signed string (monthly) wins",
            signedPayload: {
                try IntakeSample.notification(
                    signedTransactionInfo: try IntakeSample.signed(IntakeSample.transaction()),
                    signedRenewalInfo: try IntakeSample.signed(IntakeSample.renewalInfo),
                    embeddedTransactionInfo: IntakeSample.transaction(productId: "lifetime.all", ownership: .purchased))
            },
            expected: .accepted(productId: "family.monthly", renewalProductId: "family.monthly", unknown: [])),
        IntakeCase(
            testDescription: "wrapper embeds decoded transactionInfo and no signed string -> dropped, nothing nested",
            signedPayload: {
                try IntakeSample.notification(
                    signedTransactionInfo: nil, signedRenewalInfo: nil,
                    embeddedTransactionInfo: IntakeSample.transaction(productId: "lifetime.all", ownership: .purchased))
            },
            expected: .accepted(productId: nil, renewalProductId: nil, unknown: [])),
        IntakeCase(
            testDescription: "verified Sandbox transaction inside a Production notification -> nested mismatch",
            signedPayload: {
                try IntakeSample.notification(
                    signedTransactionInfo: try IntakeSample.signed(IntakeSample.transaction(environment: .sandbox)),
                    signedRenewalInfo: try IntakeSample.signed(IntakeSample.renewalInfo))
            },
            expected: .rejected(.nestedEnvironmentMismatch, path: "data.signedTransactionInfo.environment")),
        IntakeCase(
            testDescription: "verified Sandbox notification at a production service -> wrong_environment",
            signedPayload: {
                try IntakeSample.notification(
                    environment: .sandbox, signedTransactionInfo: nil, signedRenewalInfo: nil)
            },
            expected: .rejected(.wrongEnvironment, path: "data.environment")),
        IntakeCase(
            testDescription: "verified notification payload that is not JSON -> undecodable at signedPayload",
            signedPayload: { IntakeSample.signer.sign(json: Data("not json".utf8)) },
            expected: .rejected(.undecodable, path: "signedPayload")),
        IntakeCase(
            testDescription: "verified transaction with a price as text -> undecodable at its price",
            signedPayload: {
                try IntakeSample.notification(
                    signedTransactionInfo: IntakeSample.signer.sign(json: Data(#"{"price":"1.99"}"#.utf8)),
                    signedRenewalInfo: nil)
            },
            expected: .rejected(.undecodable, path: "data.signedTransactionInfo.price")),
        IntakeCase(
            testDescription: "verified notification of an unknown type -> accepted, flagged unknown",
            signedPayload: {
                try IntakeSample.notification(
                    NotificationType(rawValue: "FAMILY_MEMBER_JOINED"), subtype: nil,
                    signedTransactionInfo: try IntakeSample.signed(IntakeSample.transaction()),
                    signedRenewalInfo: nil)
            },
            expected: .accepted(
                productId: "family.monthly", renewalProductId: nil,
                unknown: [UnknownValue(path: "notificationType", rawValue: "FAMILY_MEMBER_JOINED")])),
    ]

    @Test(arguments: cases)
    func receives(_ row: IntakeCase) async throws {
        let signedPayload = try row.signedPayload()
        do throws(NotificationRejection) {
            let verified = try await IntakeSample.intake.receive(signedPayload: signedPayload)
            guard case .accepted(let productId, let renewalProductId, let unknown) = row.expected else {
                Issue.record("expected \(row.expected), got an accepted notification")
                return
            }
            #expect(verified.notification.data?.transactionInfo?.productId == productId)
            #expect(verified.notification.data?.renewalInfo?.autoRenewProductId == renewalProductId)
            #expect(verified.unknownValues == unknown)
        } catch {
            #expect(row.expected == .rejected(error.code, path: error.path), "\(error)")
        }
    }

    @Test func acceptedNestedContentsAreExactlyTheSignedOnes() async throws {
        let transaction = IntakeSample.transaction()
        let signedPayload = try IntakeSample.notification(
            signedTransactionInfo: try IntakeSample.signed(transaction),
            signedRenewalInfo: try IntakeSample.signed(IntakeSample.renewalInfo),
            embeddedTransactionInfo: IntakeSample.transaction(productId: "lifetime.all", ownership: .purchased))
        let verified = try await IntakeSample.intake.receive(signedPayload: signedPayload)
        #expect(verified.notification.data?.transactionInfo == transaction)
        #expect(verified.notification.data?.renewalInfo == IntakeSample.renewalInfo)
    }

    struct BodyCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var body: @Sendable () throws -> Data
        var expectedRejection: NotificationRejection.Code?
        var expectedPath: String = ""
    }

    static let bodies: [BodyCase] = [
        BodyCase(
            testDescription: "Apple's body with a valid signedPayload -> accepted",
            body: { Data(#"{"signedPayload":"\#(try IntakeSample.standard())"}"#.utf8) },
            expectedRejection: nil),
        BodyCase(
            testDescription: "body without signedPayload -> undecodable at signedPayload",
            body: { Data(#"{"unsigned":"hello"}"#.utf8) }, expectedRejection: .undecodable,
            expectedPath: "signedPayload"),
        BodyCase(
            testDescription: "body that is not JSON -> undecodable", body: { Data("signedPayload=x".utf8) },
            expectedRejection: .undecodable),
    ]

    @Test(arguments: bodies)
    func receivesRequestBody(_ row: BodyCase) async throws {
        let body = try row.body()
        do throws(NotificationRejection) {
            _ = try await IntakeSample.intake.receive(requestBody: body)
            #expect(row.expectedRejection == nil)
        } catch {
            #expect(error.code == row.expectedRejection, "\(error)")
            #expect(error.path == row.expectedPath)
        }
    }
}
