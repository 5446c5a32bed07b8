#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 3 of the rebuild, rules 2, 3 and 6: evaluates each auto-renewable subscription chain.
struct SubscriptionChains: RebuildStage {
    let scope: RebuildScope

    var revocations: RevocationCauses { RevocationCauses(scope: scope) }

    /// Evaluates one auto-renewable subscription chain, sorted by purchase: rules 2, 3 and 6 of the decision table.
    ///
    /// Returns, for each product of the chain, the transaction that grants (the one that lasts longest) and the
    /// newest transaction, each with its state.
    func evaluateChain(_ context: ChainContext, log: inout DiagnosticsLog) -> [Candidate] {
        let chain = context.chain
        // Per product of the chain (a handful at most): the newest transaction and the one granting longest.
        var products = [(newest: Int, granting: Int?, end: RuleInstant)](
            repeating: (0, nil, .distantPast), count: chain.productIds.count)
        for index in chain.indices {
            let entry = chain.entries[index]
            products[entry.product].newest = index
            guard instant.hasCome(entry.purchase), let end = accessEnd(of: index, in: context), !instant.hasEnded(end),
                products[entry.product].granting == nil || products[entry.product].end < end
            else { continue }
            products[entry.product].granting = index
            products[entry.product].end = end
        }

        var candidates: [Candidate] = []
        for product in chain.productIds.indices.sorted(by: { chain.productIds[$0] < chain.productIds[$1] }) {
            let (newest, granting, _) = products[product]
            for index in [granting, granting == newest ? nil : newest].compactMap({ $0 }) {
                candidates.append(candidate(at: index, in: context, log: &log))
            }
        }
        return candidates
    }

    /// When a transaction of a chain stops granting: its expiry, its replacement by another product, or revocation.
    /// Inlined into the chain's one loop over its entries.
    @inline(__always)
    private func accessEnd(of index: Int, in context: ChainContext) -> RuleInstant? {
        ending(of: index, in: context)?.end
    }

    /// How a transaction of a chain stops granting, the one place that decides it (rules 2, 3 and 7): its expiry, its
    /// replacement by another product, its revocation, and the earliest of them, where its access ends. Nil for a
    /// transaction without expiry, which never grants.
    @inline(__always)
    private func ending(of index: Int, in context: ChainContext) -> Ending? {
        let entry = context.chain.entries[index]
        guard let expires = entry.expires else { return nil }
        let replaced = replacementDate(of: index, in: context)
        var end = min(expires, replaced ?? expires)
        // A REVOKE finds nothing left to end in an older transaction after its end; the chain's newest may still grant
        // in a grace period after its expiry, which the REVOKE ends.
        let isNewest = index == context.chain.entries.count - 1
        let revoked = revocations.revoked(
            revoked: entry.revocation, purchased: entry.dates.purchase, grantingUntil: isNewest ? nil : end,
            events: context.events)
        if let revoked { end = min(end, revoked.at) }
        return Ending(expires: expires, replaced: replaced, revoked: revoked, end: end)
    }

    /// How a transaction of a chain stops granting: see `ending(of:in:)`.
    private struct Ending {
        var expires: RuleInstant
        var replaced: RuleInstant?
        var revoked: RevocationTime?
        var end: RuleInstant
    }

    /// When another product replaced this transaction before it expired (an upgrade or crossgrade), if it did.
    @inline(__always)
    private func replacementDate(of index: Int, in context: ChainContext) -> RuleInstant? {
        let entries = context.chain.entries
        if let next = context.nextOtherProduct[index], let expires = entries[index].expires,
            entries[next].purchase < expires
        {
            // The other product's purchase ends this one: at its whole millisecond taken down (rule 1).
            return entries[next].purchase.whole(.down)
        }
        if entries[index].isUpgraded {
            return max(entries[index].purchase, entries[index].signed ?? entries[index].purchase).whole(.down)
        }
        return nil
    }

    /// The replacement of a transaction at `date`, with the transaction of the other product where the history holds it.
    private func replacement(of index: Int, at date: RuleInstant?, in context: ChainContext) -> (
        at: RuleInstant, by: PayloadView?
    )? {
        guard let date else { return nil }
        if let next = context.nextOtherProduct[index], context.chain.entries[next].purchase == date {
            return (date, context.chain[next])
        }
        return (date, nil)
    }

    func candidate(at index: Int, in context: ChainContext, log: inout DiagnosticsLog) -> Candidate {
        candidate(context.chain[index], at: index, in: context, log: &log)
    }

    /// Evaluates `transaction`, read in place at `index` of the chain, from the dates of its entry.
    private func candidate(
        _ transaction: PayloadView, at index: Int, in context: ChainContext, log: inout DiagnosticsLog
    ) -> Candidate {
        let (chain, renewalInfo, events) = (context.chain, context.renewalInfo, context.events)
        let dates = chain.entries[index].dates
        guard let ending = ending(of: index, in: context), let purchase = dates.purchase else {
            log.report(
                .missingExpiresDate,
                "auto-renewable transaction \(transaction.id) has no expiresDate; it grants nothing")
            return Candidate(
                index: chain.storeIndex(index), state: .undetermined, expires: nil, willRenew: false,
                revocation: nil,
                reasons: [Reason.found(.autoRenewableSubscriptions, .missingExpiresDate(transactionId: transaction.id))]
            )
        }
        var reasons: [Reason] = []
        let (expires, end) = (ending.expires, ending.end)
        let replacement = self.replacement(of: index, at: ending.replaced, in: context)
        let revocation = ending.revoked.map {
            revocations.revocation(of: transaction, at: $0, events: events, log: &log)
        }

        var state: AccessState
        var expiresDate: RuleInstant? = expires
        if instant.hasCome(purchase), !instant.hasEnded(end) {
            state = .active
            reasons.append(
                Reason.found(
                    .autoRenewableSubscriptions,
                    .subscriptionGrants(
                        transactionId: transaction.id, ownership: transaction.inAppOwnershipType, from: purchase.date,
                        until: end.date)))
        } else if let revocation {
            state = .revoked
            reasons.append(revocations.reason(of: revocation, for: transaction))
        } else if let replacement, instant.hasCome(replacement.at) {
            state = .upgraded
            reasons.append(Self.reason(transaction, replacedBy: replacement))
        } else if index == chain.count - 1 {
            (state, expiresDate) = renewalState(
                of: transaction, dates: dates, renewalInfo: renewalInfo, events: events, into: &reasons)
        } else {
            state = .expired
            reasons.append(
                Reason.found(
                    .autoRenewableSubscriptions,
                    .expiredAndFollowed(transactionId: transaction.id, expires: expires.date)))
        }
        let willRenew = willRenew(
            state: state, renewalInfo: renewalInfo, transaction: transaction, into: &reasons, log: &log)
        var candidate = Candidate(
            index: chain.storeIndex(index), state: state, expires: expiresDate, willRenew: willRenew,
            revocation: state == .revoked ? revocation : nil, reasons: reasons)
        if index == chain.count - 1 {
            candidate.renewal = renewalFacts(
                of: transaction, dates: dates, state: state, willRenew: willRenew, in: context)
        }
        return candidate
    }

    /// What the renewal info and the renewal notifications show of the chain's newest transaction, as of the
    /// instant: the grace period's end and a pending change of product from a renewal info that describes it, when
    /// billing began to fail while it still fails, and when auto-renew was turned off while it stays off.
    private func renewalFacts(
        of transaction: PayloadView, dates: TransactionDates, state: AccessState, willRenew: Bool?,
        in context: ChainContext
    ) -> RenewalFacts {
        var facts = RenewalFacts()
        let purchase = dates.purchase ?? .distantPast
        if let renewalInfo = context.renewalInfo, let signed = renewalInfo.signed, signed >= purchase {
            if renewalInfo.isInBillingRetryPeriod == true {
                facts.gracePeriodExpiresDate = renewalInfo.graceEnd?.date
            }
            if let next = renewalInfo.autoRenewProductId, next != transaction.productId {
                facts.autoRenewProductId = ProductID(next)
            }
        }
        guard !context.notices.isEmpty || state == .gracePeriod || state == .billingRetry else { return facts }
        let known = context.notices.filter { $0.signed >= purchase && instant.hasCome($0.signed) }
        if state == .gracePeriod || state == .billingRetry {
            facts.billingIssueDetectedAt =
                (known.lazy.filter { $0.kind == .billingIssue }.map(\.signed).min() ?? dates.expires)?.date
        }
        if willRenew == false,
            let last = known.filter({ $0.kind != .billingIssue }).max(by: {
                ($0.signed, $0.kind.rawValue) < ($1.signed, $1.kind.rawValue)
            }), last.kind == .autoRenewDisabled
        {
            facts.unsubscribeDetectedAt = last.signed.date
        }
        return facts
    }

    /// Compares Apple's own status of the chain, where a notification or a Get All Subscription Statuses item dated
    /// after everything else known about the chain states one, with the state the history gives at the instant Apple
    /// signed it, and reports a disagreement naming both. Neither is preferred: the decision stays the rebuild's, and
    /// the diagnostic says that the history may lack an entry or hold a wrong one.
    ///
    /// Apple's status is true when signed, not later: a subscription cancelled while active (status 1) expires at
    /// its expiresDate, and a grace period (status 4) ends at its gracePeriodExpiresDate, with no news from Apple. So
    /// the status is compared with the chain evaluated at its own signing instant (the millisecond taken down), never
    /// with the state at the rebuild's instant. A status signed before the chain's newest snapshot or renewal info is
    /// not compared: the history knows more than it did.
    ///
    /// Returns the chain entries it read again, evaluating the chain at the status's instant: none where the status
    /// was signed in the rebuild's own millisecond, whose evaluation is `candidates`.
    func crossCheck(
        _ statuses: [AppleStatusNotice], originalId: String, context: ChainContext, candidates: [Candidate],
        log: inout DiagnosticsLog
    ) -> Int {
        let chain = context.chain
        guard
            // The latest, ties broken by status, then by the source, so that the order of entries never matters.
            let latest = statuses.filter({ instant.hasCome($0.signed) }).max(by: {
                ($0.signed, $0.status.rawValue) != ($1.signed, $1.status.rawValue)
                    ? ($0.signed, $0.status.rawValue) < ($1.signed, $1.status.rawValue) : $0.source < $1.source
            }),
            chain.entries.allSatisfy({ ($0.signed ?? $0.purchase) <= latest.signed }),
            (context.renewalInfo?.signed).map({ $0 <= latest.signed }) ?? true,
            let newest = chain.indices.last.map({ chain.storeIndex($0) })
        else { return 0 }
        // Everything the chain's evaluation reads was signed by the status's instant; what happened after it (an
        // expiry, the end of a grace period, a REVOKE) is read only up to the instant evaluated at.
        let then = scope.at(latest.signed.date)
        var read = 0
        var evaluated = candidates
        if instant.follows(then.instant) {
            var scratch = DiagnosticsLog()
            evaluated = SubscriptionChains(scope: then).evaluateChain(context, log: &scratch)
            read = context.readCount(statuses: 0)
        }
        guard let state = (evaluated.first(where: \.grants) ?? evaluated.first(where: { $0.index == newest }))?.state
        else { return read }
        let agrees: Bool
        switch latest.status {
        case .active: agrees = state == .active
        case .expired: agrees = state == .expired || state == .upgraded
        case .billingRetry: agrees = state == .billingRetry
        case .billingGracePeriod: agrees = state == .gracePeriod
        case .revoked: agrees = state == .revoked
        default: return read
        }
        guard !agrees else { return read }
        log.report(
            .appleStatusDisagrees,
            "Apple's status \(latest.status.rawValue) in \(latest.source.text) signed \(latest.signed.evidenceText), "
                + "after everything else known of original transaction \(originalId), "
                + "disagrees with the state \(state.rawValue) the history gives at that instant; the history may lack "
                + "an entry or hold a wrong one"
        )
        return read
    }

    /// The state of a chain whose newest transaction has expired: grace period, billing retry or expired.
    private func renewalState(
        of transaction: PayloadView, dates: TransactionDates, renewalInfo: AdmittedRenewalInfo?,
        events: ChainEvents, into reasons: inout [Reason]
    ) -> (AccessState, RuleInstant?) {
        let expires = dates.expires ?? .distantPast
        let purchase = dates.purchase ?? .distantPast
        func earliest(_ filter: ChainEvents.Filter) -> ChainEvent? {
            events.first(filter, from: purchase, through: instant)
        }
        if let expired = earliest(.expired) {
            reasons.append(
                Reason.found(
                    .autoRenewableSubscriptions,
                    .endedByNotification(expired.notification, signed: expired.signed.date)))
            return (.expired, expires)
        }
        guard let renewalInfo, let signed = renewalInfo.signed, signed >= purchase,
            renewalInfo.isInBillingRetryPeriod == true
        else {
            reasons.append(
                Reason.found(
                    .autoRenewableSubscriptions,
                    .expiredWithoutBillingRetry(transactionId: transaction.id, expires: expires.date)))
            return (.expired, expires)
        }
        if instant.hasEnded(Self.billingRetryEnd(after: expires)) {
            reasons.append(Reason.found(.autoRenewableSubscriptions, .billingRetryOver(expires: expires.date)))
            return (.expired, expires)
        }
        let graceEnded = earliest(.gracePeriodExpired)
        if let grace = renewalInfo.graceEnd, instant.precedes(grace), graceEnded == nil {
            reasons.append(
                Reason.found(
                    .autoRenewableSubscriptions,
                    .gracePeriod(transactionId: transaction.id, until: grace.date, renewalInfoSigned: signed.date)))
            return (.gracePeriod, grace)
        }
        if let graceEnded {
            reasons.append(
                Reason.found(
                    .autoRenewableSubscriptions,
                    .gracePeriodEndedByNotification(graceEnded.notification, signed: graceEnded.signed.date)))
        }
        reasons.append(
            Reason.found(
                .autoRenewableSubscriptions,
                .billingRetry(transactionId: transaction.id, renewalInfoSigned: signed.date)))
        return (.billingRetry, expires)
    }

    /// Rule 6: the newest renewal info's autoRenewStatus while the subscription has access or is in billing retry.
    private func willRenew(
        state: AccessState, renewalInfo: AdmittedRenewalInfo?, transaction: PayloadView,
        into reasons: inout [Reason], log: inout DiagnosticsLog
    ) -> Bool? {
        guard state == .active || state == .gracePeriod || state == .billingRetry else { return false }
        guard let status = renewalInfo?.autoRenewStatus else { return nil }
        switch status {
        case .on: return true
        case .off:
            reasons.append(Reason.found(.willRenew, .autoRenewOff))
            return false
        default:
            log.report(
                .unknownAutoRenewStatus,
                "renewal info of original transaction \(transaction.originalTransactionId ?? transaction.id) has autoRenewStatus "
                    + "\(status.rawValue), which this library does not know; willRenew is unknown")
            return nil
        }
    }

    /// The evidence of a replacement: by the transaction of another product, or by an isUpgraded snapshot.
    private static func reason(
        _ transaction: PayloadView, replacedBy replacement: (at: RuleInstant, by: PayloadView?)
    ) -> Reason {
        guard let by = replacement.by else {
            return Reason.found(
                .upgradesAndDowngrades, .markedUpgraded(transactionId: transaction.id, from: replacement.at.date))
        }
        return Reason.found(
            .upgradesAndDowngrades,
            .replaced(
                transactionId: transaction.id, at: replacement.at.date, by: by.id,
                productId: by.productId.map(ProductID.init(rawValue:))))
    }

    /// The longest billing retry Apple runs after a failed renewal.
    static let billingRetryLimit: TimeInterval = 60 * 24 * 60 * 60

    /// The instant billing retry ends for a subscription that expired at `expires`: the same date wherever it is
    /// compared, so that `validUntil` names exactly the instant the rebuild changes its decision.
    static func billingRetryEnd(after expires: Date) -> Date { expires.addingTimeInterval(billingRetryLimit) }

    /// `billingRetryEnd(after:)` of a rule's date; after every date a rule reads where it would leave the years a
    /// report holds, since no instant reaches it.
    static func billingRetryEnd(after expires: RuleInstant) -> RuleInstant {
        RuleInstant(instant: billingRetryEnd(after: expires.date)) ?? .distantFuture
    }
}
