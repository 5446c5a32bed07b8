#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rebuilder {
    /// Evaluates one auto-renewable subscription chain, sorted by purchase: rules 2, 3 and 6 of the decision table.
    ///
    /// Returns, for each product of the chain, the transaction that grants (the one that lasts longest) and the
    /// newest transaction, each with its state.
    mutating func evaluateChain(_ context: ChainContext, evidence: Evidence) -> [Candidate] {
        let chain = context.chain
        // Per product of the chain (a handful at most): the newest transaction and the one granting longest.
        var products = [(newest: Int, granting: Int?, end: Date)](
            repeating: (0, nil, .distantPast), count: chain.productIds.count)
        for index in chain.indices {
            let entry = chain.entries[index]
            products[entry.product].newest = index
            guard entry.purchaseDate <= instant, let end = accessEnd(of: index, in: context), instant < end,
                products[entry.product].granting == nil || products[entry.product].end < end
            else { continue }
            products[entry.product].granting = index
            products[entry.product].end = end
        }

        var candidates: [Candidate] = []
        for product in chain.productIds.indices.sorted(by: { chain.productIds[$0] < chain.productIds[$1] }) {
            let (newest, granting, _) = products[product]
            for index in [granting, granting == newest ? nil : newest].compactMap({ $0 }) {
                candidates.append(candidate(at: index, in: context, evidence: evidence))
            }
        }
        return candidates
    }

    /// When a transaction of a chain stops granting: its expiry, its replacement by another product, or revocation.
    private func accessEnd(of index: Int, in context: ChainContext) -> Date? {
        let entry = context.chain.entries[index]
        guard var end = entry.expiresDate else { return nil }
        if let replaced = replacementDate(of: index, in: context) {
            end = min(end, replaced)
        }
        if let revocation = revocationDate(
            revoked: entry.revocationDate, purchased: entry.purchaseDate, events: context.events)
        {
            end = min(end, revocation)
        }
        return end
    }

    /// When another product replaced this transaction before it expired (an upgrade or crossgrade), if it did.
    private func replacementDate(of index: Int, in context: ChainContext) -> Date? {
        let entries = context.chain.entries
        if let next = context.nextOtherProduct[index], let expires = entries[index].expiresDate,
            entries[next].purchaseDate < expires
        {
            return entries[next].purchaseDate
        }
        if entries[index].isUpgraded {
            return max(entries[index].purchaseDate, entries[index].signedDate ?? entries[index].purchaseDate)
        }
        return nil
    }

    /// The replacement of a transaction, with the transaction of the other product where the history holds it.
    private func replacement(of index: Int, in context: ChainContext) -> (date: Date, by: TransactionPayload?)? {
        guard let date = replacementDate(of: index, in: context) else { return nil }
        if let next = context.nextOtherProduct[index], context.chain.entries[next].purchaseDate == date {
            return (date, context.chain[next])
        }
        return (date, nil)
    }

    mutating func candidate(at index: Int, in context: ChainContext, evidence: Evidence) -> Candidate {
        candidate(context.chain[index], at: index, in: context, evidence: evidence)
    }

    /// Evaluates `transaction`, read in place at `index` of the chain.
    private mutating func candidate(
        _ transaction: TransactionPayload, at index: Int, in context: ChainContext, evidence: Evidence
    ) -> Candidate {
        let (chain, renewalInfo, events) = (context.chain, context.renewalInfo, context.events)
        var because = snapshotEvidence(transaction, evidence: evidence)
        guard let expires = transaction.expiresDate, let purchase = transaction.purchaseDate else {
            report(
                .error, .missingExpiresDate,
                "auto-renewable transaction \(transaction.id) has no expiresDate; it grants nothing")
            because.append("rule 2: transaction \(transaction.id) has no expiresDate, so its period is unknown")
            return Candidate(
                index: chain.storeIndex(index), origin: .chain(context.number, index), state: .undetermined,
                expiresDate: nil, willRenew: false, revocation: nil, because: because)
        }
        let revocation = self.revocation(of: transaction, events: events)
        let replacement = self.replacement(of: index, in: context)
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
            because.append(text(of: revocation, for: transaction))
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
        let willRenew = willRenew(state: state, renewalInfo: renewalInfo, transaction: transaction, into: &because)
        return Candidate(
            index: chain.storeIndex(index), origin: .chain(context.number, index), state: state,
            expiresDate: expiresDate, willRenew: willRenew, revocation: state == .revoked ? revocation : nil,
            because: because)
    }

    /// The state of a chain whose newest transaction has expired: grace period, billing retry or expired.
    private mutating func renewalState(
        of transaction: TransactionPayload, renewalInfo: RenewalInfoPayload?, events: ChainEvents,
        into because: inout Because
    ) -> (AccessState, Date?) {
        let expires = transaction.expiresDate ?? .distantPast
        let purchase = transaction.purchaseDate ?? .distantPast
        func earliest(_ filter: ChainEvents.Filter) -> ChainEvent? {
            events.first(filter, from: purchase, through: instant)
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
        into because: inout Because
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
