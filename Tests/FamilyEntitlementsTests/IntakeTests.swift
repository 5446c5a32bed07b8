import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signed strings for the intake table.
private enum IntakeSample {
    static let bundleId = "com.example.family"
    static let appAppleId: Int64 = 1_234_567_890
    static let intake = NotificationIntake(
        policy: .production(bundleId: bundleId, appAppleId: appAppleId), verifier: FakeJWSVerifier())
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
        #expect(verified.warnings.map(\.code) == [.unsignedContentsIgnored], "the discarded contents are reported")
        #expect(verified.warnings.map(\.path) == ["data.transactionInfo"])
        let plain = try await IntakeSample.intake.receive(signedPayload: try IntakeSample.standard())
        #expect(plain.warnings == [], "a notification as Apple sends it discards nothing")
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

// MARK: - Three outcomes: accepted, refused for good, retry later

/// A verifier whose answer for the notification and for the nested strings is set by the row.
struct ScriptedVerifier: SignedDataVerifying {
    enum Behavior: Sendable {
        /// Checks as `FakeJWSVerifier` does.
        case checks
        /// Could not complete: `VerificationUnavailable`, as Apple's RETRYABLE_VERIFICATION_FAILURE.
        case unavailable
        /// The task was cancelled before the verification completed.
        case cancelled
        /// Refuses the string, whatever it is.
        case refuses
        /// Refuses the string for a stated cause, as an adapter of Apple's verifier does.
        case refusesFor(VerificationRefused.Cause)
    }

    var notification: Behavior = .checks
    var nested: Behavior = .checks

    func verifyNotification(signedPayload: String) async throws -> Data {
        try await answer(notification, signedPayload)
    }
    func verifyTransaction(signedTransaction: String) async throws -> Data {
        try await answer(nested, signedTransaction)
    }
    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data {
        try await answer(nested, signedRenewalInfo)
    }

    private func answer(_ behavior: Behavior, _ signed: String) async throws -> Data {
        switch behavior {
        case .checks: return try await FakeJWSVerifier().verifyNotification(signedPayload: signed)
        case .unavailable: throw VerificationUnavailable(reason: "RETRYABLE_VERIFICATION_FAILURE")
        case .cancelled: throw CancellationError()
        case .refuses: throw FakeJWSVerifier.InvalidSignature(reason: "refused by the row")
        case .refusesFor(let cause): throw VerificationRefused(cause, reason: "refused by the row")
        }
    }
}

struct OutcomeCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var verifier: ScriptedVerifier
    var signedPayload: @Sendable () throws -> String = { try IntakeSample.standard() }
    var outcome: IntakeOutcome
    var httpStatus: Int
    var code: NotificationRejection.Code?
    var path: String = ""
}

extension IntakeTests {
    static let outcomes: [OutcomeCase] = [
        OutcomeCase(
            testDescription: "every signature checks -> accepted, 200", verifier: ScriptedVerifier(),
            outcome: .accepted, httpStatus: 200),
        OutcomeCase(
            testDescription: "verifier cannot complete for the notification -> verification_unavailable, retry, 503",
            verifier: ScriptedVerifier(notification: .unavailable), outcome: .retryLater, httpStatus: 503,
            code: .verificationUnavailable, path: "signedPayload"),
        OutcomeCase(
            testDescription: "notification verifies, nested transaction cannot be verified now -> retry, 503",
            verifier: ScriptedVerifier(nested: .unavailable), outcome: .retryLater, httpStatus: 503,
            code: .verificationUnavailable, path: "data.signedTransactionInfo"),
        OutcomeCase(
            testDescription: "verification cancelled before it completed -> verification_unavailable, retry, 503",
            verifier: ScriptedVerifier(notification: .cancelled), outcome: .retryLater, httpStatus: 503,
            code: .verificationUnavailable, path: "signedPayload"),
        OutcomeCase(
            testDescription: "verifier refuses the notification -> signature_invalid, refused for good, 200",
            verifier: ScriptedVerifier(notification: .refuses), outcome: .refused, httpStatus: 200,
            code: .signatureInvalid,
            path: "signedPayload"),
        OutcomeCase(
            testDescription: "verifier refuses a nested string -> signature_invalid there, refused for good, 200",
            verifier: ScriptedVerifier(nested: .refuses), outcome: .refused, httpStatus: 200,
            code: .signatureInvalid, path: "data.signedTransactionInfo"),
        OutcomeCase(
            testDescription: "verifier refuses for another bundle id (INVALID_APP_IDENTIFIER) -> wrong_bundle_id, 200",
            verifier: ScriptedVerifier(notification: .refusesFor(.wrongBundleId)), outcome: .refused,
            httpStatus: 200, code: .wrongBundleId, path: "signedPayload"),
        OutcomeCase(
            testDescription: "verifier refuses for another environment (INVALID_ENVIRONMENT) -> wrong_environment, 200",
            verifier: ScriptedVerifier(notification: .refusesFor(.wrongEnvironment)), outcome: .refused,
            httpStatus: 200, code: .wrongEnvironment, path: "signedPayload"),
        OutcomeCase(
            testDescription: "verifier refuses a string that is not a JWS (INVALID_JWT_FORMAT) -> malformed_jws",
            verifier: ScriptedVerifier(notification: .refusesFor(.malformed)), outcome: .refused, httpStatus: 200,
            code: .malformedJWS, path: "signedPayload"),
        OutcomeCase(
            testDescription: "verifier refuses a certificate or signature (VERIFICATION_FAILURE) -> signature_invalid",
            verifier: ScriptedVerifier(notification: .refusesFor(.signatureInvalid)), outcome: .refused,
            httpStatus: 200, code: .signatureInvalid, path: "signedPayload"),
        OutcomeCase(
            testDescription: "verifier refuses a nested string for another environment -> wrong_environment there",
            verifier: ScriptedVerifier(nested: .refusesFor(.wrongEnvironment)), outcome: .refused, httpStatus: 200,
            code: .wrongEnvironment, path: "data.signedTransactionInfo"),
        OutcomeCase(
            testDescription: "verified Sandbox notification at a production service -> refused for good, 200",
            verifier: ScriptedVerifier(),
            signedPayload: {
                try IntakeSample.notification(
                    environment: .sandbox, signedTransactionInfo: nil, signedRenewalInfo: nil)
            },
            outcome: .refused, httpStatus: 200, code: .wrongEnvironment, path: "data.environment"),
    ]

    @Test(arguments: outcomes)
    func answersWithTheOutcomeStatus(_ row: OutcomeCase) async throws {
        let intake = NotificationIntake(policy: IntakeSample.intake.policy, verifier: row.verifier)
        let signedPayload = try row.signedPayload()
        do throws(NotificationRejection) {
            _ = try await intake.receive(signedPayload: signedPayload)
            #expect(row.outcome == .accepted)
            #expect(row.httpStatus == IntakeOutcome.accepted.httpStatus)
        } catch {
            #expect(error.code == row.code, "\(error)")
            #expect(error.path == row.path)
            #expect(error.outcome == row.outcome)
            #expect(error.httpStatus == row.httpStatus)
            #expect(NotificationDecision.reject(error).httpStatus == row.httpStatus)
        }
    }
}

// MARK: - Apple retries until 200: taken exactly once

/// A verifier in an outage for its first `failures` calls, then checking as `FakeJWSVerifier` does.
private struct RecoveringVerifier: SignedDataVerifying {
    actor Outage {
        var failuresLeft: Int
        init(failures: Int) { failuresLeft = failures }

        func isDown() -> Bool {
            guard failuresLeft > 0 else { return false }
            failuresLeft -= 1
            return true
        }
    }

    let outage: Outage

    func verifyNotification(signedPayload: String) async throws -> Data { try await check(signedPayload) }
    func verifyTransaction(signedTransaction: String) async throws -> Data { try await check(signedTransaction) }
    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data { try await check(signedRenewalInfo) }

    private func check(_ signed: String) async throws -> Data {
        if await outage.isDown() {
            throw VerificationUnavailable(reason: "RETRYABLE_VERIFICATION_FAILURE: OCSP unreachable")
        }
        return try await FakeJWSVerifier().verifyTransaction(signedTransaction: signed)
    }
}

/// What a service keeps: each accepted notification once, by `notificationUUID`, as the documented recipe does.
private struct NotificationLedger {
    var recorded: [String: NotificationPayload] = [:]
    var statuses: [Int] = []

    /// Receives one delivery and returns the status Apple gets; records an accepted notification only if it is new.
    mutating func receive(_ body: Data, through intake: NotificationIntake<some SignedDataVerifying>) async -> Int {
        let status: Int
        do throws(NotificationRejection) {
            let verified = try await intake.receive(requestBody: body)
            if let uuid = verified.notification.notificationUUID, recorded[uuid] == nil {
                recorded[uuid] = verified.notification
            }
            status = IntakeOutcome.accepted.httpStatus
        } catch {
            status = error.httpStatus
        }
        statuses.append(status)
        return status
    }
}

struct RetryCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    /// How many verifier calls fail retryably before the verifier recovers.
    var failingCalls: Int
    /// How many more times Apple sends the notification after a 200 (Apple may deliver a notification twice).
    var duplicates: Int = 0
    var statuses: [Int]
}

extension IntakeTests {
    static let retries: [RetryCase] = [
        RetryCase(
            testDescription: "no outage: 200 on the first delivery, recorded once", failingCalls: 0, statuses: [200]),
        RetryCase(
            testDescription: "outage on the first delivery: 503, Apple retries, 200, recorded once", failingCalls: 1,
            statuses: [503, 200]),
        RetryCase(
            testDescription: "outage for three deliveries: 503 three times, then 200, recorded once", failingCalls: 3,
            statuses: [503, 503, 503, 200]),
        RetryCase(
            testDescription: "outage, then Apple delivers the accepted notification twice: recorded once",
            failingCalls: 1, duplicates: 1, statuses: [503, 200, 200]),
    ]

    @Test(arguments: retries)
    func retryableFailureIsRetriedAndTakenExactlyOnce(_ row: RetryCase) async throws {
        let intake = NotificationIntake(
            policy: IntakeSample.intake.policy,
            verifier: RecoveringVerifier(outage: RecoveringVerifier.Outage(failures: row.failingCalls)))
        let body = Data(#"{"signedPayload":"\#(try IntakeSample.standard())"}"#.utf8)
        var ledger = NotificationLedger()
        var acknowledgements = 0
        // Apple sends the notification until it gets a 200, then (for the duplicate rows) again.
        while acknowledgements <= row.duplicates, ledger.statuses.count < 10 {
            if await ledger.receive(body, through: intake) == 200 { acknowledgements += 1 }
            #expect(ledger.recorded.count == (ledger.statuses.contains(200) ? 1 : 0), "nothing recorded before a 200")
        }
        #expect(ledger.statuses == row.statuses)
        #expect(ledger.recorded.count == 1)
        #expect(ledger.recorded.values.first?.data?.transactionInfo == IntakeSample.transaction())
    }
}

// MARK: - A signed transaction on its own: the restore and link path

/// A verifier written before `verifyAppTransaction` existed: it still compiles, and refuses every app transaction.
private struct VerifierWithoutAppTransactions: SignedDataVerifying {
    func verifyNotification(signedPayload: String) async throws -> Data { Data() }
    func verifyTransaction(signedTransaction: String) async throws -> Data { Data() }
    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data { Data() }
}

struct StandaloneCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    /// Whether the string is an `AppTransaction` rather than a transaction.
    var isAppTransaction = false
    var signed: @Sendable () throws -> String
    var verifier = FakeJWSVerifier()
    var code: TransactionRejection.Code?
    var path: String = ""
    var outcome: IntakeOutcome
}

extension IntakeTests {
    static let appTransaction = AppTransactionPayload(
        receiptType: .production, appAppleId: IntakeSample.appAppleId, bundleId: IntakeSample.bundleId,
        appTransactionId: "704000000000000001")

    static let standalone: [StandaloneCase] = [
        StandaloneCase(
            testDescription: "the app sends its own Production transaction -> accepted",
            signed: { try IntakeSample.signed(IntakeSample.transaction(ownership: .purchased)) },
            outcome: .accepted),
        StandaloneCase(
            testDescription: "the app sends a Sandbox transaction to a production service -> wrong_environment",
            signed: { try IntakeSample.signed(IntakeSample.transaction(environment: .sandbox)) },
            code: .wrongEnvironment, path: "environment", outcome: .refused),
        StandaloneCase(
            testDescription: "the app sends a forged transaction -> signature_invalid, refused",
            signed: { IntakeSample.forged(try IntakeSample.signed(IntakeSample.transaction())) },
            code: .signatureInvalid, outcome: .refused),
        StandaloneCase(
            testDescription: "the verifier cannot complete for a transaction -> verification_unavailable, retry",
            signed: { try IntakeSample.signed(IntakeSample.transaction()) },
            verifier: .unavailable(), code: .verificationUnavailable, outcome: .retryLater),
        StandaloneCase(
            testDescription: "a verified transaction with a price as text -> undecodable at price",
            signed: { IntakeSample.signer.sign(json: Data(#"{"price":"1.99"}"#.utf8)) },
            code: .undecodable, path: "price", outcome: .refused),
        StandaloneCase(
            testDescription: "the app sends its own Production AppTransaction -> accepted",
            isAppTransaction: true, signed: { try IntakeSample.signed(appTransaction) }, outcome: .accepted),
        StandaloneCase(
            testDescription: "an AppTransaction of another appAppleId -> wrong_app_apple_id",
            isAppTransaction: true,
            signed: {
                var other = appTransaction
                other.appAppleId = 9_999_999_999
                return try IntakeSample.signed(other)
            },
            code: .wrongAppAppleId, path: "appAppleId", outcome: .refused),
        StandaloneCase(
            testDescription: "the verifier cannot complete for an AppTransaction -> verification_unavailable, retry",
            isAppTransaction: true, signed: { try IntakeSample.signed(appTransaction) }, verifier: .unavailable(),
            code: .verificationUnavailable, outcome: .retryLater),
    ]

    @Test(arguments: standalone)
    func verifiesWhatTheAppSends(_ row: StandaloneCase) async throws {
        let intake = NotificationIntake(policy: IntakeSample.intake.policy, verifier: row.verifier)
        let signed = try row.signed()
        do throws(TransactionRejection) {
            if row.isAppTransaction {
                #expect(try await intake.verify(signedAppTransaction: signed) == Self.appTransaction)
            } else {
                #expect(try await intake.verify(signedTransaction: signed).bundleId == IntakeSample.bundleId)
            }
            #expect(row.outcome == .accepted, "expected \(String(describing: row.code))")
        } catch {
            #expect(error.code == row.code, "\(error)")
            #expect(error.path == row.path)
            #expect(error.outcome == row.outcome)
        }
    }

    /// A transaction the app sends, refused by the verifier for each cause: the code the cause names, for good.
    @Test(arguments: [
        (VerificationRefused.Cause.wrongBundleId, TransactionRejection.Code.wrongBundleId),
        (.wrongEnvironment, .wrongEnvironment), (.malformed, .malformedJWS),
        (.signatureInvalid, .signatureInvalid),
    ])
    func refusalCauseOfATransaction(_ cause: VerificationRefused.Cause, _ code: TransactionRejection.Code) async throws
    {
        let intake = NotificationIntake(
            policy: IntakeSample.intake.policy, verifier: ScriptedVerifier(nested: .refusesFor(cause)))
        let signed = try IntakeSample.signed(IntakeSample.transaction())
        let error = await #expect(throws: TransactionRejection.self) {
            try await intake.verify(signedTransaction: signed)
        }
        #expect(error?.code == code)
        #expect(error?.outcome == .refused)
        #expect(error?.message.contains("refused by the row") == true, "\(String(describing: error))")
    }

    @Test
    func verifierWithoutAppTransactionsRefusesThemAll() async throws {
        let intake = NotificationIntake(policy: IntakeSample.intake.policy, verifier: VerifierWithoutAppTransactions())
        let signed = try IntakeSample.signed(Self.appTransaction)
        do throws(TransactionRejection) {
            _ = try await intake.verify(signedAppTransaction: signed)
            Issue.record("an app transaction was accepted by a verifier that does not verify them")
        } catch {
            #expect(error.code == .verificationNotImplemented)
            #expect(error.outcome == .refused)
        }
    }
}
