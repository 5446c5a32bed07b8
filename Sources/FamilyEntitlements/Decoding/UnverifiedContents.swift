/// Decoding of the JWS strings nested in notifications and API bodies, WITHOUT checking their signatures.
///
/// For inspection and tests. A service must verify each nested string on its own before trusting it; see
/// `docs/integrating.md`.
extension NotificationPayload {
    /// The notification with `data.transactionInfo` and `data.renewalInfo` decoded from their signed strings,
    /// unverified; decoded contents already present are kept. Errors name `data.signedTransactionInfo` and so on.
    public func decodingNestedPayloadsUnverified() throws(PayloadDecodingError) -> NotificationPayload {
        guard var data else { return self }
        if data.transactionInfo == nil, let signed = data.signedTransactionInfo {
            data.transactionInfo = try decodeUnverifiedJWS(
                signed, as: TransactionPayload.self, at: "data.signedTransactionInfo")
        }
        if data.renewalInfo == nil, let signed = data.signedRenewalInfo {
            data.renewalInfo = try decodeUnverifiedJWS(
                signed, as: RenewalInfoPayload.self, at: "data.signedRenewalInfo")
        }
        var copy = self
        copy.data = data
        return copy
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
