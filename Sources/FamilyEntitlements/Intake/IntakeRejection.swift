/// The code of a refusal at the trust boundary, of a notification (`NotificationRejection.Code`) or of a transaction
/// an app sent (`TransactionRejection.Code`); the codes both kinds of refusal share are declared here once.
public protocol IntakeRejectionCode: OpenCode {}

extension IntakeRejectionCode {
    /// The environment the payload names (`environment`, or an app transaction's `receiptType`) is not the policy's,
    /// such as `Sandbox` in production.
    public static var wrongEnvironment: Self { Self(rawValue: "wrong_environment") }
    /// The payload names another app's bundle identifier, or none.
    public static var wrongBundleId: Self { Self(rawValue: "wrong_bundle_id") }
    /// The payload names another app's Apple identifier, or none where production requires one.
    public static var wrongAppAppleId: Self { Self(rawValue: "wrong_app_apple_id") }
    /// The verifier refused a signed string.
    public static var signatureInvalid: Self { Self(rawValue: "signature_invalid") }
    /// The verifier could not complete, as when its online revocation check is unreachable: retry later.
    ///
    /// The only code whose outcome is `IntakeOutcome.retryLater`; the verifier threw `VerificationUnavailable`.
    public static var verificationUnavailable: Self { Self(rawValue: "verification_unavailable") }
    /// A verified payload is not a document of the expected kind.
    public static var undecodable: Self { Self(rawValue: "undecodable") }
}

/// A refusal at the trust boundary, with the field that decided it: `NotificationRejection` or
/// `TransactionRejection`.
public protocol IntakeRejection: Error, LocatedProblem where Code: IntakeRejectionCode {}

extension IntakeRejection {
    /// Whether the refusal is final or decided nothing (`verification_unavailable`); derived from `code`.
    public var outcome: IntakeOutcome {
        code == .verificationUnavailable ? .retryLater : .refused
    }

    /// The HTTP status to answer Apple with: 503 for `verification_unavailable`, else 200.
    public var httpStatus: Int { outcome.httpStatus }
}
