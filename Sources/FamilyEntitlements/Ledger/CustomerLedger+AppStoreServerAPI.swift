extension CustomerLedger {
    /// Verifies every signed transaction of a Get Transaction History page with the intake, then absorbs them.
    ///
    /// Nothing is absorbed when one string is refused or cannot be verified now: the rejection names it
    /// (`signedTransactions[3]`), and `outcome` says whether to try again later (`verification_unavailable`).
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
    /// then absorbs them; nothing is absorbed when one is refused or cannot be verified now.
    public mutating func absorb<Verifier: SignedDataVerifying>(
        _ statuses: SubscriptionStatusesResponse, verifiedBy intake: NotificationIntake<Verifier>
    ) async throws(TransactionRejection) -> [LedgerChange] {
        var transactions: [TransactionPayload] = []
        var renewalInfos: [RenewalInfoPayload] = []
        for (group, status) in (statuses.data ?? []).enumerated() {
            for (index, item) in (status.lastTransactions ?? []).enumerated() {
                let path = "data[\(group)].lastTransactions[\(index)]"
                if let signed = item.signedTransactionInfo {
                    transactions.append(
                        try await Self.verify(at: path + ".signedTransactionInfo") {
                            () async throws(TransactionRejection) in
                            try await intake.verify(signedTransaction: signed)
                        })
                }
                if let signed = item.signedRenewalInfo {
                    renewalInfos.append(
                        try await Self.verify(at: path + ".signedRenewalInfo") {
                            () async throws(TransactionRejection) in
                            try await intake.verify(signedRenewalInfo: signed)
                        })
                }
            }
        }
        return transactions.map { absorb($0) } + renewalInfos.map { absorb($0) }
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
