/// The answer of a `NotificationPolicy` for one decoded notification.
///
/// An accepted notification may still hold values this version of the library does not know, such as a notification
/// type Apple added after it was written; they are listed in `unknownValues` for the service to log loudly, and the
/// notification is never dropped because of them.
public enum NotificationDecision: Hashable, Sendable {
    /// The notification is for this app and environment; `unknownValues` lists what the library does not know.
    case accept(unknownValues: [UnknownValue])
    /// The notification must not change any entitlement.
    case reject(NotificationRejection)

    /// Accepted, refused for good, or not decided (retry later); derived from the rejection's code.
    public var outcome: IntakeOutcome {
        switch self {
        case .accept: .accepted
        case .reject(let rejection): rejection.outcome
        }
    }

    /// The HTTP status to answer Apple's notification POST with: 200, or 503 when the outcome is `retryLater`.
    public var httpStatus: Int { outcome.httpStatus }

    /// The rejection, or nil for an accepted notification.
    public var rejection: NotificationRejection? {
        if case .reject(let rejection) = self { return rejection }
        return nil
    }
}
