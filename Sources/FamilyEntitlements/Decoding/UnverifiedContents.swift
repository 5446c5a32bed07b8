/// Decoding of the JWS strings nested in notifications and API bodies, WITHOUT checking their signatures.
///
/// For inspection and tests. A service must verify each nested string on its own before trusting it; see
/// `docs/integrating.md`.
extension NotificationPayload {
    /// The notification with `data.transactionInfo` and `data.renewalInfo` decoded from their signed strings,
    /// unverified. Errors name `data.signedTransactionInfo` and so on.
    ///
    /// Where a signed string is present, the contents come from it alone: decoded contents written beside it, which
    /// Apple never sends, are replaced (`unsignedContentsBesideSignedStrings` lists them, to be reported). Decoded
    /// contents with no signed string beside them, as a history file stores a notification, are kept.
    public func decodingNestedPayloadsUnverified() throws(PayloadDecodingError) -> NotificationPayload {
        guard var data else { return self }
        if let signed = data.signedTransactionInfo {
            data.transactionInfo = try decodeUnverifiedJWS(
                signed, as: TransactionPayload.self, at: "data.signedTransactionInfo")
        }
        if let signed = data.signedRenewalInfo {
            data.renewalInfo = try decodeUnverifiedJWS(
                signed, as: RenewalInfoPayload.self, at: "data.signedRenewalInfo")
        }
        var copy = self
        copy.data = data
        return copy
    }

    /// The decoded contents this notification carries in `data` beside a signed string of the same kind, which
    /// decoding ignores: one `unsigned_contents_ignored` warning at `data.transactionInfo` or `data.renewalInfo` each.
    ///
    /// Apple signs a notification's transaction and renewal information on their own and never sends them decoded;
    /// contents written beside the signed strings are unsigned, whoever wrote them, and must not decide anything.
    /// Read this on the notification as received: once `decodingNestedPayloadsUnverified()` has decoded the signed
    /// strings, the decoded contents stand beside them by design.
    public var unsignedContentsBesideSignedStrings: [PayloadDecodingWarning] {
        guard let data else { return [] }
        var warnings: [PayloadDecodingWarning] = []
        if let transaction = data.transactionInfo, data.signedTransactionInfo != nil {
            warnings.append(
                PayloadDecodingWarning(
                    code: .unsignedContentsIgnored, path: "data.transactionInfo",
                    message: "decoded contents beside data.signedTransactionInfo are ignored; the transaction comes "
                        + "from the signed string (the unsigned one names transaction "
                        + "\(transaction.transactionId ?? "-") of \(transaction.productId ?? "-"))"))
        }
        if let renewalInfo = data.renewalInfo, data.signedRenewalInfo != nil {
            warnings.append(
                PayloadDecodingWarning(
                    code: .unsignedContentsIgnored, path: "data.renewalInfo",
                    message: "decoded contents beside data.signedRenewalInfo are ignored; the renewal information "
                        + "comes from the signed string (the unsigned one names original transaction "
                        + "\(renewalInfo.originalTransactionId ?? "-"))"))
        }
        return warnings
    }
}

extension TransactionHistoryResponse {
    /// The page's transactions decoded from `signedTransactions`, unverified, in the order given.
    public func decodeTransactionsUnverified() throws(PayloadDecodingError) -> [TransactionPayload] {
        var transactions: [TransactionPayload] = []
        transactions.reserveCapacity(signedTransactions?.count ?? 0)
        for (index, signed) in (signedTransactions ?? []).enumerated() {
            do throws(PayloadDecodingError) {
                transactions.append(try decodeUnverifiedJWS(signed, as: TransactionPayload.self))
            } catch {
                throw error.nested(under: "signedTransactions[\(index)]")
            }
        }
        return transactions
    }
}

extension SubscriptionStatusesResponse {
    /// The newest transaction and renewal information of each chain, decoded unverified, in the order given.
    public func decodeLastTransactionsUnverified() throws(PayloadDecodingError) -> (
        transactions: [TransactionPayload], renewalInfos: [RenewalInfoPayload]
    ) {
        var transactions: [TransactionPayload] = []
        var renewalInfos: [RenewalInfoPayload] = []
        for (groupIndex, group) in (data ?? []).enumerated() {
            for (index, item) in (group.lastTransactions ?? []).enumerated() {
                let path = "data[\(groupIndex)].lastTransactions[\(index)]"
                if let signed = item.signedTransactionInfo {
                    transactions.append(
                        try decodeUnverifiedJWS(
                            signed, as: TransactionPayload.self, at: path + ".signedTransactionInfo"))
                }
                if let signed = item.signedRenewalInfo {
                    renewalInfos.append(
                        try decodeUnverifiedJWS(signed, as: RenewalInfoPayload.self, at: path + ".signedRenewalInfo"))
                }
            }
        }
        return (transactions, renewalInfos)
    }
}

extension NotificationRequestBody {
    /// The notification in `signedPayload`, with its nested payloads, all decoded unverified.
    public func decodeNotificationUnverified() throws(PayloadDecodingError) -> NotificationPayload {
        guard let signedPayload else {
            throw PayloadDecodingError(
                code: .missingValue, path: "signedPayload", message: "the body has no signedPayload")
        }
        let notification = try decodeUnverifiedJWS(signedPayload, as: NotificationPayload.self, at: "signedPayload")
        do {
            return try notification.decodingNestedPayloadsUnverified()
        } catch {
            throw error.nested(under: "signedPayload")
        }
    }
}
