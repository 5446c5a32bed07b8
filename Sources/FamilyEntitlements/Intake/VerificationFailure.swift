/// What an error thrown by a `SignedDataVerifying` method means for the string it was verifying.
enum VerificationFailure {
    /// The verification could not be completed; the same string may verify later.
    case unavailable(String)
    /// The verifier does not verify this kind of string: a refusal until the adapter implements the method.
    case notImplemented(String)
    /// The string is invalid: a refusal for good.
    case invalid(String)
    /// The verifier refused the string for a stated cause: a refusal for good, with that cause's code.
    case refused(VerificationRefused.Cause, String)

    init(_ error: any Error) {
        switch error {
        case let error as VerificationUnavailable:
            self = .unavailable("the verifier could not complete, retry later: \(error.reason)")
        case is CancellationError:
            self = .unavailable("the verification was cancelled before it completed, retry later")
        case let error as VerificationNotImplemented:
            self = .notImplemented("\(error)")
        case let error as VerificationRefused:
            self = .refused(error.cause, "the verifier refused the signed string: \(error.reason)")
        default:
            self = .invalid("the verifier refused the signed string: \(error)")
        }
    }
}
