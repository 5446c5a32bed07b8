/// A notification whose signatures were verified and which the policy accepted.
///
/// `notification.data.transactionInfo` and `notification.data.renewalInfo` hold the contents of the separately
/// verified `signedTransactionInfo` and `signedRenewalInfo`, or nil where the notification has no such string.
public struct VerifiedNotification: Hashable, Sendable {
    /// The decoded notification with its verified nested contents.
    public var notification: NotificationPayload
    /// Values the library does not know, such as a new notification type: log them loudly.
    public var unknownValues: [UnknownValue]
    /// What the intake set aside: decoded contents written inside the signed notification (`data.transactionInfo`,
    /// `data.renewalInfo`, `unsigned_contents_ignored`), which no signature of their own covers. Apple never sends
    /// them; log them, for whoever wrote them meant something by it.
    public var warnings: [PayloadDecodingWarning]

    public init(
        notification: NotificationPayload, unknownValues: [UnknownValue] = [], warnings: [PayloadDecodingWarning] = []
    ) {
        self.notification = notification
        self.unknownValues = unknownValues
        self.warnings = warnings
    }
}
