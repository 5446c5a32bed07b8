/// A notification whose signatures were verified and which the policy accepted.
///
/// `notification.data.transactionInfo` and `notification.data.renewalInfo` hold the contents of the separately
/// verified `signedTransactionInfo` and `signedRenewalInfo`, or nil where the notification has no such string.
public struct VerifiedNotification: Hashable, Sendable {
    /// The decoded notification with its verified nested contents.
    public var notification: NotificationPayload
    /// Values the library does not know, such as a new notification type: log them loudly.
    public var unknownValues: [UnknownValue]

    public init(notification: NotificationPayload, unknownValues: [UnknownValue] = []) {
        self.notification = notification
        self.unknownValues = unknownValues
    }
}
