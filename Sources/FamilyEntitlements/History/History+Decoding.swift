#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension History {
    /// A history read from a file, how much of it was taken from JWS strings whose signatures were not checked, and
    /// what was set aside.
    public struct UnverifiedDecoding: Hashable, Sendable {
        /// The history.
        public var history: History
        /// How many JWS strings were decoded without checking their signatures.
        public var unverifiedJWSCount: Int
        /// What decoding set aside without refusing the file, such as unsigned contents beside a signed string
        /// (`unsigned_contents_ignored`), with paths in the file; a tool shows them, a service logs them.
        public var warnings: [PayloadDecodingWarning] = []

        public init(history: History, unverifiedJWSCount: Int, warnings: [PayloadDecodingWarning] = []) {
            (self.history, self.unverifiedJWSCount, self.warnings) = (history, unverifiedJWSCount, warnings)
        }
    }

    /// Reads any history document, decoding JWS strings in it WITHOUT checking their signatures.
    ///
    /// Accepts a history object `{"transactions": [...], "renewalInfos": [...], "notifications": [...],
    /// "subscriptionStatuses": [...]}` (every key optional, and no other: the history is the library's own document, so
    /// an unknown key is `unknown_key`; a notification's `data.transactionInfo`/`data.renewalInfo`
    /// may hold decoded objects in place of the signed strings; beside a signed string they are ignored and reported in
    /// `warnings`), a stored `CustomerLedger` (an object with `version` beside a history's keys, or beside no key of a
    /// notification, read as `decodeUnverifiedLedger(_:)` reads it), a bare JSON array of decoded transactions, one decoded transaction, renewal info or notification,
    /// or an App Store Server API body (Get Transaction History, Get All Subscription Statuses, a notification body
    /// with `signedPayload`). A Get Transaction History page with `hasMore` true is read as the history it holds, with a
    /// `partial_history` warning at `hasMore` (a `partial_history` diagnostic once passed to the rebuild): the later
    /// pages are not in it. Every form is read as strictly as a payload: RFC 8259 JSON in UTF-8 (no trailing commas,
    /// no UTF-16), with errors naming the JSON path, such as `transactions[3].price`, or the byte offset of malformed
    /// JSON. For inspection, tools and tests: a service must verify every signed string before trusting it.
    public static func decodeUnverified(
        _ data: some DataProtocol, as kind: AppStoreDocument.Kind? = nil
    ) throws(PayloadDecodingError) -> UnverifiedDecoding {
        let bytes = Data(data)
        if kind == nil, Self.firstSignificantByte(of: bytes) == UInt8(ascii: "[") {
            let transactions = try History.transactions(jsonArray: bytes)
            return UnverifiedDecoding(history: History(transactions: transactions), unverifiedJWSCount: 0)
        }
        if kind == nil, !AppStoreDocument.isCompactJWS(bytes) {
            let keys = try AppStoreDocument.topLevelKeys(of: bytes)
            // A notification has a `version` too ("2.0"), beside keys of its own: `version` makes a ledger only beside
            // a history's keys, or beside no key a notification has.
            if keys.contains("version"), !keys.isDisjoint(with: keyNames) || keys.isDisjoint(with: notificationKeys) {
                return try decodeUnverifiedLedger(bytes)
            }
            if !keys.isDisjoint(with: keyNames) {
                return decodingNestedPayloads(of: try History(jsonData: bytes, topLevelKeys: keys))
            }
        }
        var count = 0
        var warnings: [PayloadDecodingWarning] = []
        let history: History
        switch try AppStoreDocument(data: bytes, as: kind) {
        case .transaction(let value):
            history = History(transactions: [value])
        case .renewalInfo(let value):
            history = History(renewalInfos: [value])
        case .notification(let value):
            count += value.nestedSignedCount
            warnings = value.unsignedContentsBesideSignedStrings
            history = History(notifications: [value.decodingNestedPayloadsUnverified(reportingFailuresIn: &warnings)])
        case .transactionHistory(let value):
            count += value.signedTransactions?.count ?? 0
            history = History(transactions: value.decodeTransactionsUnverified(reportingFailuresIn: &warnings))
            if value.hasMore == true { warnings.append(value.partialHistoryWarning) }
        case .subscriptionStatuses(let value):
            count += value.signedStringCount
            let decoded = value.decodeLastTransactionsUnverified(reportingFailuresIn: &warnings)
            history = History(
                transactions: decoded.transactions, renewalInfos: decoded.renewalInfos,
                subscriptionStatuses: value.statusSnapshotsUnverified())
        case .notificationRequestBody(let value):
            let wrapper = value.signedPayload.flatMap { try? decodeUnverifiedJWS($0, as: NotificationPayload.self) }
            count += (value.signedPayload != nil ? 1 : 0) + (wrapper?.nestedSignedCount ?? 0)
            history = History(
                notifications: [value.decodeNotificationUnverified(reportingFailuresIn: &warnings)].compactMap { $0 })
        case .transactionInfo(let value):
            count += value.signedTransactionInfo != nil ? 1 : 0
            history = History(
                transactions: [value.decodeTransactionUnverified(reportingFailuresIn: &warnings)].compactMap { $0 })
        case .notificationHistory(let value):
            count += value.signedStringCount()
            history = History(notifications: value.decodeNotificationsUnverified(reportingFailuresIn: &warnings))
        case .appTransaction:
            throw PayloadDecodingError(
                code: .unrecognisedDocument, path: "",
                message: "an AppTransaction describes the app's own purchase, not in-app purchases; it is no history")
        case .renewalExtension:
            throw PayloadDecodingError(
                code: .unrecognisedDocument, path: "",
                message: "a renewal-date extension response says whether a renewal date moved; it carries no "
                    + "transaction, so it is no history (the transaction comes in the RENEWAL_EXTENDED notification)")
        }
        if AppStoreDocument.isCompactJWS(bytes) { count += 1 }
        return UnverifiedDecoding(history: history, unverifiedJWSCount: count, warnings: warnings)
    }

    /// The keys of a decoded notification other than `version`, which a ledger has too.
    private static let notificationKeys = Set(NotificationPayload.CodingKeys.allCases.map(\.rawValue)).subtracting([
        "version"
    ])

    /// Reads a stored `CustomerLedger` (docs/ledger.md) as the history it holds, decoding JWS strings in its
    /// notifications WITHOUT checking their signatures.
    ///
    /// The ledger's own decoder reads it: `version` is required, a version this release does not know is
    /// `unsupported_version`, and a key the version does not have is `unknown_key`, so that a ledger of a later release
    /// is refused rather than read without what it holds. `decodeUnverified(_:as:)` reads this way any object with
    /// `version` beside a history's keys, or beside no key a decoded notification has.
    public static func decodeUnverifiedLedger(_ data: some DataProtocol) throws(PayloadDecodingError)
        -> UnverifiedDecoding
    {
        decodingNestedPayloads(of: try CustomerLedger(jsonData: data).history)
    }

    private static func decodingNestedPayloads(of history: History) -> UnverifiedDecoding {
        var history = history
        var count = 0
        var warnings: [PayloadDecodingWarning] = []
        for index in history.notifications.indices {
            count += history.notifications[index].nestedSignedCount
            warnings += history.notifications[index].unsignedContentsBesideSignedStrings.map {
                $0.nested(under: "notifications[\(index)]")
            }
            var nested: [PayloadDecodingWarning] = []
            history.notifications[index] = history.notifications[index].decodingNestedPayloadsUnverified(
                reportingFailuresIn: &nested)
            warnings += nested.map { $0.nested(under: "notifications[\(index)]") }
        }
        return UnverifiedDecoding(history: history, unverifiedJWSCount: count, warnings: warnings)
    }

    /// The first byte after a byte order mark and JSON white space, if any.
    private static func firstSignificantByte(of bytes: Data) -> UInt8? {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return text.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    }
}

extension TransactionHistoryResponse {
    /// The `partial_history` warning of a page with more to come, read as a whole history.
    var partialHistoryWarning: PayloadDecodingWarning {
        PayloadDecodingWarning(
            code: .partialHistory, path: "hasMore",
            message: "this Get Transaction History page says more transactions follow (hasMore true"
                + (revision.map { ", next page from revision \($0)" } ?? "")
                + "); the history read is this page alone, and a later page may refund, revoke or renew what it "
                + "decides: fetch every page (allTransactionHistoryPages) before deciding")
    }
}

extension SubscriptionStatusesResponse {
    /// How many signed strings the body holds, whether or not they decode.
    var signedStringCount: Int {
        var count = 0
        for item in (data ?? []).flatMap({ $0.lastTransactions ?? [] }) {
            if item.signedTransactionInfo != nil { count += 1 }
            if item.signedRenewalInfo != nil { count += 1 }
        }
        return count
    }
}

extension NotificationPayload {
    /// How many nested signed strings decoding reads: every one present, whatever is decoded beside it.
    var nestedSignedCount: Int {
        guard let data else { return 0 }
        return (data.signedTransactionInfo != nil ? 1 : 0) + (data.signedRenewalInfo != nil ? 1 : 0)
    }
}

extension SubscriptionStatusesResponse {
    /// Apple's status of every item, dated by its signed strings decoded WITHOUT checking their signatures; a string
    /// that does not decode (reported by `decodeLastTransactionsUnverified(reportingFailuresIn:)`) dates nothing.
    func statusSnapshotsUnverified() -> [SubscriptionStatusSnapshot] {
        (data ?? []).flatMap { group in
            (group.lastTransactions ?? []).map { item in
                SubscriptionStatusSnapshot(
                    item: item, in: group, of: self,
                    transaction: item.signedTransactionInfo.flatMap {
                        try? decodeUnverifiedJWS($0, as: TransactionPayload.self)
                    },
                    renewalInfo: item.signedRenewalInfo.flatMap {
                        try? decodeUnverifiedJWS($0, as: RenewalInfoPayload.self)
                    })
            }
        }
    }
}
