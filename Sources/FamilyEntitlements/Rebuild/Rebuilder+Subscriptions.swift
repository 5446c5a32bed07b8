#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rebuilder {
    /// Evaluates one auto-renewable subscription chain: rules 2, 3 and 6 of the decision table.
    ///
    /// Returns, for each product of the chain, the transaction that grants (the one that lasts longest) and the
    /// newest transaction, each with its state.
    mutating func evaluateChain(
        _ unsorted: [TransactionPayload], renewalInfo: RenewalInfoPayload?, events: [ChainEvent], evidence: Evidence
    ) -> [Candidate] {
        let chain = unsorted.sorted {
            ($0.purchaseDate ?? .distantPast, $0.id) < ($1.purchaseDate ?? .distantPast, $1.id)
        }
        var nextOtherProduct = [Int?](repeating: nil, count: chain.count)
        var following: Int?
        for index in chain.indices.reversed() {
            nextOtherProduct[index] = following
            if let next = following, chain[next].productId == chain[index].productId {
                nextOtherProduct[index] = nextOtherProduct[next]
            }
            following = index
        }

        var granting: [String: (index: Int, end: Date)] = [:]
        var newest: [String: Int] = [:]
        for (index, transaction) in chain.enumerated() {
            let productId = transaction.productId ?? ""
            newest[productId] = index
            guard let end = accessEnd(of: index, in: chain, nextOtherProduct: nextOtherProduct, events: events),
                let purchase = transaction.purchaseDate, purchase <= instant, instant < end
            else { continue }
            if let current = granting[productId], current.end >= end { continue }
            granting[productId] = (index, end)
        }

        var candidates: [Candidate] = []
        for productId in newest.keys.sorted() {
            if let grant = granting[productId] {
                candidates.append(
                    candidate(
                        at: grant.index, in: chain, nextOtherProduct: nextOtherProduct, renewalInfo: renewalInfo,
                        events: events, evidence: evidence))
            }
            if let index = newest[productId], granting[productId]?.index != index {
                candidates.append(
                    candidate(
                        at: index, in: chain, nextOtherProduct: nextOtherProduct, renewalInfo: renewalInfo,
                        events: events, evidence: evidence))
            }
        }
        return candidates
    }

    /// When a transaction of a chain stops granting: its expiry, its replacement by another product, or revocation.
    private func accessEnd(
        of index: Int, in chain: [TransactionPayload], nextOtherProduct: [Int?], events: [ChainEvent]
    )
        -> Date?
    {
        let transaction = chain[index]
        guard let expires = transaction.expiresDate else { return nil }
        var end = expires
        if let replacement = replacement(of: index, in: chain, nextOtherProduct: nextOtherProduct) {
            end = min(end, replacement.date)
        }
        if let revocation = revocationDate(of: transaction, events: events) {
            end = min(end, revocation)
        }
        return end
    }

    /// The transaction of another product that replaced this one before it expired (an upgrade or crossgrade).
    private func replacement(of index: Int, in chain: [TransactionPayload], nextOtherProduct: [Int?])
        -> (date: Date, by: TransactionPayload?)?
    {
        let transaction = chain[index]
        if let next = nextOtherProduct[index], let start = chain[next].purchaseDate,
            let expires = transaction.expiresDate, start < expires
        {
            return (start, chain[next])
        }
        if transaction.isUpgraded == true, let purchase = transaction.purchaseDate {
            return (max(purchase, transaction.signedDate ?? purchase), nil)
        }
        return nil
    }

    private mutating func candidate(
        at index: Int, in chain: [TransactionPayload], nextOtherProduct: [Int?], renewalInfo: RenewalInfoPayload?,
        events: [ChainEvent], evidence: Evidence
    ) -> Candidate {
        let transaction = chain[index]
        var because = snapshotEvidence(transaction, evidence: evidence)
        guard let expires = transaction.expiresDate, let purchase = transaction.purchaseDate else {
            report(
                .error, .missingExpiresDate,
                "auto-renewable transaction \(transaction.id) has no expiresDate; it grants nothing")
            because.append("rule 2: transaction \(transaction.id) has no expiresDate, so its period is unknown")
            return Candidate(
                transaction: transaction, state: .undetermined, expiresDate: nil, willRenew: false, revocation: nil,
                because: because)
        }
        let revocation = self.revocation(of: transaction, events: events)
        let replacement = self.replacement(of: index, in: chain, nextOtherProduct: nextOtherProduct)
        var end = expires
        if let revocation { end = min(end, revocation.date) }
        if let replacement { end = min(end, replacement.date) }

        var state: AccessState
        var expiresDate: Date? = expires
        if purchase <= instant, instant < end {
            state = .active
            because.append(
                "rule 2: transaction \(transaction.id) (\(ownershipText(transaction))) grants from "
                    + "\(purchase.evidenceText) until \(end.evidenceText)")
        } else if let revocation {
            state = .revoked
            because.append(revocation.because)
        } else if let replacement, replacement.date <= instant {
            state = .upgraded
            because.append(replacementText(transaction, replacement))
        } else if index == chain.count - 1 {
            (state, expiresDate) = renewalState(
                of: transaction, renewalInfo: renewalInfo, events: events, into: &because)
        } else {
            state = .expired
            because.append(
                "rule 2: transaction \(transaction.id) expired at \(expires.evidenceText); a later transaction of "
                    + "the chain followed it")
        }
        return Candidate(
            transaction: transaction, state: state, expiresDate: expiresDate,
            willRenew: willRenew(state: state, renewalInfo: renewalInfo, transaction: transaction, into: &because),
            revocation: state == .revoked ? revocation : nil, because: because)
    }

    /// The state of a chain whose newest transaction has expired: grace period, billing retry or expired.
    private mutating func renewalState(
        of transaction: TransactionPayload, renewalInfo: RenewalInfoPayload?, events: [ChainEvent],
        into because: inout [String]
    ) -> (AccessState, Date?) {
        let expires = transaction.expiresDate ?? .distantPast
        let purchase = transaction.purchaseDate ?? .distantPast
        let recent = events.filter { $0.date >= purchase && $0.date <= instant }
        func earliest(_ kind: ChainEvent.Kind) -> ChainEvent? {
            recent.filter { $0.kind == kind }.min { $0.precedes($1) }
        }
        if let expired = earliest(.expired) {
            because.append(
                "rule 2: \(expired.notification) signed \(expired.date.evidenceText) ended the subscription; any "
                    + "older renewal info is outdated")
            return (.expired, expires)
        }
        guard let renewalInfo, let signed = renewalInfo.signedDate, signed >= purchase,
            renewalInfo.isInBillingRetryPeriod == true
        else {
            because.append(
                "rule 2: transaction \(transaction.id) expired at \(expires.evidenceText) and no renewal info "
                    + "signed since its purchase shows billing retry")
            return (.expired, expires)
        }
        if instant.timeIntervalSince(expires) >= Self.billingRetryLimit {
            because.append(
                "rule 2: billing retry lasts at most 60 days after the expiry at \(expires.evidenceText); it is over")
            return (.expired, expires)
        }
        let graceEnded = earliest(.gracePeriodExpired)
        if let grace = renewalInfo.gracePeriodExpiresDate, grace > instant, graceEnded == nil {
            because.append(
                "rule 2: the renewal of transaction \(transaction.id) failed; in the billing grace period until "
                    + "\(grace.evidenceText) (renewal info signed \(signed.evidenceText)), with access")
            return (.gracePeriod, grace)
        }
        if let graceEnded {
            because.append(
                "rule 2: \(graceEnded.notification) signed \(graceEnded.date.evidenceText) ended the grace period")
        }
        because.append(
            "rule 2: the renewal of transaction \(transaction.id) failed and Apple is retrying billing (renewal info "
                + "signed \(signed.evidenceText)); no access until billing recovers")
        return (.billingRetry, expires)
    }

    /// Rule 6: the newest renewal info's autoRenewStatus while the subscription has access or is in billing retry.
    private mutating func willRenew(
        state: AccessState, renewalInfo: RenewalInfoPayload?, transaction: TransactionPayload,
        into because: inout [String]
    ) -> Bool? {
        guard state == .active || state == .gracePeriod || state == .billingRetry else { return false }
        guard let status = renewalInfo?.autoRenewStatus else { return nil }
        switch status {
        case .on: return true
        case .off:
            because.append("rule 6: auto-renew is off; the subscription ends at the end of the period")
            return false
        default:
            report(
                .warning, .unknownAutoRenewStatus,
                "renewal info of original transaction \(transaction.originalTransactionId ?? "") has autoRenewStatus "
                    + "\(status.rawValue), which this library does not know; willRenew is unknown")
            return nil
        }
    }

    private func replacementText(
        _ transaction: TransactionPayload, _ replacement: (date: Date, by: TransactionPayload?)
    )
        -> String
    {
        guard let by = replacement.by else {
            return "rule 3: transaction \(transaction.id) is marked isUpgraded; it grants nothing from "
                + "\(replacement.date.evidenceText)"
        }
        return "rule 3: transaction \(transaction.id) was replaced at \(replacement.date.evidenceText) by transaction "
            + "\(by.id) of \(by.productId ?? "another product") in the same subscription group; it grants nothing "
            + "from then on"
    }
}
