extension CustomerLedger {
    /// Verifies every signed transaction of a Get Transaction History page with the intake, then absorbs them.
    ///
    /// Nothing is absorbed when one string is refused or cannot be verified now: the rejection names it
    /// (`signedTransactions[3]`), and `outcome` says whether to try again later (`verification_unavailable`).
    @discardableResult
    public mutating func absorb<Verifier: SignedDataVerifying>(
        _ page: TransactionHistoryResponse, verifiedBy intake: NotificationIntake<Verifier>
    ) async throws(TransactionRejection) -> [LedgerChange] {
        var transactions: [TransactionPayload] = []
        for (index, signed) in (page.signedTransactions ?? []).enumerated() {
            transactions.append(
                try await Self.verify(at: "signedTransactions[\(index)]") { () async throws(TransactionRejection) in
                    try await intake.verify(signedTransaction: signed)
                })
        }
        return transactions.map { absorb($0) }
    }

    /// Verifies the transaction of a Get Transaction Info answer with the intake, then absorbs it.
    @discardableResult
    public mutating func absorb<Verifier: SignedDataVerifying>(
        _ answer: TransactionInfoResponse, verifiedBy intake: NotificationIntake<Verifier>
    ) async throws(TransactionRejection) -> [LedgerChange] {
        guard let signed = answer.signedTransactionInfo else { return [] }
        let transaction = try await Self.verify(at: "signedTransactionInfo") {
            () async throws(TransactionRejection) in try await intake.verify(signedTransaction: signed)
        }
        return [absorb(transaction)]
    }

    /// Verifies every signed transaction and renewal info of a Get All Subscription Statuses answer with the intake,
    /// then absorbs them and Apple's status of each item (a `SubscriptionStatusSnapshot` dated by the item's verified
    /// signed strings, which the rebuild only compares with its own state); nothing is absorbed when one is refused or
    /// cannot be verified now.
    @discardableResult
    public mutating func absorb<Verifier: SignedDataVerifying>(
        _ statuses: SubscriptionStatusesResponse, verifiedBy intake: NotificationIntake<Verifier>
    ) async throws(TransactionRejection) -> [LedgerChange] {
        var transactions: [TransactionPayload] = []
        var renewalInfos: [RenewalInfoPayload] = []
        var snapshots: [SubscriptionStatusSnapshot] = []
        for (groupIndex, group) in (statuses.data ?? []).enumerated() {
            for (index, item) in (group.lastTransactions ?? []).enumerated() {
                let path = "data[\(groupIndex)].lastTransactions[\(index)]"
                var transaction: TransactionPayload?
                var renewalInfo: RenewalInfoPayload?
                if let signed = item.signedTransactionInfo {
                    transaction = try await Self.verify(at: path + ".signedTransactionInfo") {
                        () async throws(TransactionRejection) in
                        try await intake.verify(signedTransaction: signed)
                    }
                }
                if let signed = item.signedRenewalInfo {
                    renewalInfo = try await Self.verify(at: path + ".signedRenewalInfo") {
                        () async throws(TransactionRejection) in
                        try await intake.verify(signedRenewalInfo: signed)
                    }
                }
                transactions += [transaction].compactMap { $0 }
                renewalInfos += [renewalInfo].compactMap { $0 }
                snapshots.append(
                    SubscriptionStatusSnapshot(
                        item: item, in: group, of: statuses, transaction: transaction, renewalInfo: renewalInfo))
            }
        }
        return transactions.map { absorb($0) } + renewalInfos.map { absorb($0) } + snapshots.map { absorb($0) }
    }

    private static func verify<Payload>(
        at path: String, _ verify: () async throws(TransactionRejection) -> Payload
    ) async throws(TransactionRejection) -> Payload {
        do {
            return try await verify()
        } catch {
            var nested = error
            nested.path = JSONPath.join(path, error.path)
            throw nested
        }
    }
}
