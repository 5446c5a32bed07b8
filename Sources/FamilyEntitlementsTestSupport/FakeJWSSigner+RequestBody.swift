import FamilyEntitlements

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FakeJWSSigner {
    /// The notification as its `signedPayload` string: the decoded `data.transactionInfo` and `data.renewalInfo`
    /// are signed on their own into `signedTransactionInfo` and `signedRenewalInfo`, as Apple nests them.
    ///
    /// NOT signed by Apple: every verifier rejects it. Code under test must take a verifier it can replace.
    public func signedPayload(for notification: NotificationPayload) throws(PayloadEncodingError) -> String {
        var wire = notification
        if var data = wire.data {
            if let transaction = data.transactionInfo {
                data.signedTransactionInfo = try sign(transaction)
                data.transactionInfo = nil
            }
            if let renewalInfo = data.renewalInfo {
                data.signedRenewalInfo = try sign(renewalInfo)
                data.renewalInfo = nil
            }
            wire.data = data
        }
        return try sign(wire)
    }

    /// The HTTP body Apple posts to a notification URL, `{"signedPayload": "..."}`, with nested signed strings.
    ///
    /// NOT signed by Apple. `History.decodeUnverified(_:)` and `NotificationRequestBody.decodeNotificationUnverified()`
    /// read it back without checking signatures.
    public func requestBody(for notification: NotificationPayload) throws(PayloadEncodingError) -> Data {
        try NotificationRequestBody(signedPayload: signedPayload(for: notification)).jsonData()
    }
}
