/// How the trust boundary ended for one signed document, and so what the service answers.
///
/// A closed set the library owns. `refused` is final: the same signed string gets the same answer however often it is
/// sent. `retryLater` decided nothing: the verifier could not complete (`VerificationUnavailable`), and the same string
/// may be accepted once it can.
public enum IntakeOutcome: Hashable, Sendable, CustomStringConvertible {
    /// Verified and within the policy: record it.
    case accepted
    /// Refused for good: a bad signature, another app or environment, contents that do not decode or disagree.
    case refused
    /// Not decided: the verification could not be completed; nothing was recorded, and nothing may be acknowledged.
    case retryLater

    /// The HTTP status to answer the App Store's notification POST with.
    ///
    /// 200 for `accepted` and `refused`: Apple would send a refused notification again only to get the same answer.
    /// 503 for `retryLater`: any answer but 200 makes Apple send the notification again later, so nothing is lost.
    public var httpStatus: Int {
        switch self {
        case .accepted, .refused: 200
        case .retryLater: 503
        }
    }

    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .refused: "refused"
        case .retryLater: "retry_later"
        }
    }
}
