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

/// Decoding of nested JWS strings, unverified, that reads the document around a string it cannot decode.
///
/// Apple's library decodes a notification or an API body whose nested signed strings are not JWS and keeps those
/// strings as they are; so do these: each string that cannot be decoded is kept as sent, nothing is taken from it,
/// and an `undecodable_signed_string` warning naming its path is appended to `warnings`. The throwing forms above
/// refuse the document instead.
extension NotificationPayload {
    /// The notification with `data.transactionInfo` and `data.renewalInfo` decoded from their signed strings where
    /// they decode; where one does not, its decoded contents are absent (never the unsigned ones written beside it).
    public func decodingNestedPayloadsUnverified(
        reportingFailuresIn warnings: inout [PayloadDecodingWarning]
    ) -> NotificationPayload {
        guard var data else { return self }
        if let signed = data.signedTransactionInfo {
            data.transactionInfo = decodeNested(
                signed, as: TransactionPayload.self, at: "data.signedTransactionInfo", warnings: &warnings)
        }
        if let signed = data.signedRenewalInfo {
            data.renewalInfo = decodeNested(
                signed, as: RenewalInfoPayload.self, at: "data.signedRenewalInfo", warnings: &warnings)
        }
        var copy = self
        copy.data = data
        return copy
    }
}

extension TransactionHistoryResponse {
    /// The page's transactions that decode, unverified, in the order given.
    public func decodeTransactionsUnverified(
        reportingFailuresIn warnings: inout [PayloadDecodingWarning]
    ) -> [TransactionPayload] {
        (signedTransactions ?? []).enumerated().compactMap { index, signed in
            decodeNested(signed, as: TransactionPayload.self, at: "signedTransactions[\(index)]", warnings: &warnings)
        }
    }
}

extension SubscriptionStatusesResponse {
    /// The newest transaction and renewal information of each chain that decode, unverified, in the order given.
    public func decodeLastTransactionsUnverified(
        reportingFailuresIn warnings: inout [PayloadDecodingWarning]
    ) -> (transactions: [TransactionPayload], renewalInfos: [RenewalInfoPayload]) {
        var transactions: [TransactionPayload] = []
        var renewalInfos: [RenewalInfoPayload] = []
        for (groupIndex, group) in (data ?? []).enumerated() {
            for (index, item) in (group.lastTransactions ?? []).enumerated() {
                let path = "data[\(groupIndex)].lastTransactions[\(index)]"
                if let signed = item.signedTransactionInfo,
                    let transaction = decodeNested(
                        signed, as: TransactionPayload.self, at: path + ".signedTransactionInfo", warnings: &warnings)
                {
                    transactions.append(transaction)
                }
                if let signed = item.signedRenewalInfo,
                    let renewalInfo = decodeNested(
                        signed, as: RenewalInfoPayload.self, at: path + ".signedRenewalInfo", warnings: &warnings)
                {
                    renewalInfos.append(renewalInfo)
                }
            }
        }
        return (transactions, renewalInfos)
    }
}

extension NotificationRequestBody {
    /// The notification in `signedPayload` with its nested payloads, decoded unverified where they decode; nil where
    /// `signedPayload` is absent or does not decode.
    public func decodeNotificationUnverified(
        reportingFailuresIn warnings: inout [PayloadDecodingWarning]
    ) -> NotificationPayload? {
        guard let signedPayload else {
            warnings.append(
                PayloadDecodingWarning(
                    code: .undecodableSignedString, path: "signedPayload",
                    message: "the body has no signedPayload; nothing is taken from it"))
            return nil
        }
        return decodeSignedNotification(signedPayload, at: "signedPayload", warnings: &warnings)
    }
}

extension TransactionInfoResponse {
    /// The transaction in `signedTransactionInfo`, decoded unverified. Errors name `signedTransactionInfo`.
    public func decodeTransactionUnverified() throws(PayloadDecodingError) -> TransactionPayload {
        guard let signedTransactionInfo else {
            throw PayloadDecodingError(
                code: .missingValue, path: "signedTransactionInfo", message: "the body has no signedTransactionInfo")
        }
        return try decodeUnverifiedJWS(signedTransactionInfo, as: TransactionPayload.self, at: "signedTransactionInfo")
    }

    /// The transaction in `signedTransactionInfo`, decoded unverified; nil where it is absent or does not decode.
    public func decodeTransactionUnverified(
        reportingFailuresIn warnings: inout [PayloadDecodingWarning]
    ) -> TransactionPayload? {
        guard let signedTransactionInfo else {
            warnings.append(
                PayloadDecodingWarning(
                    code: .undecodableSignedString, path: "signedTransactionInfo",
                    message: "the body has no signedTransactionInfo; nothing is taken from it"))
            return nil
        }
        return decodeNested(
            signedTransactionInfo, as: TransactionPayload.self, at: "signedTransactionInfo", warnings: &warnings)
    }
}

extension NotificationHistoryResponse {
    /// The page's notifications with their nested payloads, all decoded unverified, in the order given. Errors name
    /// `notificationHistory[2].signedPayload` and so on.
    ///
    /// An item without `signedPayload` is an error: Apple lists only notifications it sent.
    public func decodeNotificationsUnverified() throws(PayloadDecodingError) -> [NotificationPayload] {
        var notifications: [NotificationPayload] = []
        for (index, item) in (notificationHistory ?? []).enumerated() {
            let path = "notificationHistory[\(index)].signedPayload"
            guard let signedPayload = item.signedPayload else {
                throw PayloadDecodingError(code: .missingValue, path: path, message: "the item has no signedPayload")
            }
            let notification = try decodeUnverifiedJWS(signedPayload, as: NotificationPayload.self, at: path)
            do {
                notifications.append(try notification.decodingNestedPayloadsUnverified())
            } catch {
                throw error.nested(under: path)
            }
        }
        return notifications
    }

    /// The page's notifications that decode, with their nested payloads where those decode, unverified, in the
    /// order given; an item without `signedPayload` is reported too.
    public func decodeNotificationsUnverified(
        reportingFailuresIn warnings: inout [PayloadDecodingWarning]
    ) -> [NotificationPayload] {
        (notificationHistory ?? []).enumerated().compactMap { index, item in
            let path = "notificationHistory[\(index)].signedPayload"
            guard let signedPayload = item.signedPayload else {
                warnings.append(
                    PayloadDecodingWarning(
                        code: .undecodableSignedString, path: path,
                        message: "the item has no signedPayload; nothing is taken from it"))
                return nil
            }
            return decodeSignedNotification(signedPayload, at: path, warnings: &warnings)
        }
    }

    /// How many signed strings the page holds, nested ones included, whether or not they decode.
    func signedStringCount() -> Int {
        (notificationHistory ?? []).reduce(0) { count, item in
            guard let signedPayload = item.signedPayload else { return count }
            let nested = (try? decodeUnverifiedJWS(signedPayload, as: NotificationPayload.self))?.nestedSignedCount
            return count + 1 + (nested ?? 0)
        }
    }
}

/// A signed notification at `path` and its nested payloads, decoded unverified where they decode.
func decodeSignedNotification(
    _ signedPayload: String, at path: String, warnings: inout [PayloadDecodingWarning]
) -> NotificationPayload? {
    guard let notification = decodeNested(signedPayload, as: NotificationPayload.self, at: path, warnings: &warnings)
    else { return nil }
    var nested: [PayloadDecodingWarning] = []
    let decoded = notification.decodingNestedPayloadsUnverified(reportingFailuresIn: &nested)
    warnings += (notification.unsignedContentsBesideSignedStrings + nested).map { $0.nested(under: path) }
    return decoded
}

/// A nested signed string decoded unverified, or nil with an `undecodable_signed_string` warning at `path`.
func decodeNested<T: AppStorePayload>(
    _ compact: String, as type: T.Type, at path: String, warnings: inout [PayloadDecodingWarning]
) -> T? {
    do {
        return try decodeUnverifiedJWS(compact, as: type)
    } catch {
        warnings.append(.undecodable(at: path, error))
        return nil
    }
}
