#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a report goes stale: the earliest instant after the report's at which the same history gives another
/// decision, or nil when time alone changes nothing.
///
/// Every comparison the rebuild makes against its instant is of the form "a date is at or before the instant" or
/// "the instant is before a date", and every such date is either named by the history (a purchase, an expiry, a
/// revocation, a grace period's end, a snapshot's or a notification's signedDate) or derived from one by a rule (the
/// end of the billing-retry limit, the end of a non-renewing duration). The decision is therefore constant from one
/// of those dates up to the next: the first of them after the instant whose decision differs is where the report
/// goes stale.
///
/// Most of those dates cannot change admission or the newest snapshots, which compare the instant only with
/// purchases, signedDates and, where a snapshot is signed after the instant, revocations. Up to the first date that
/// can (`Plan.admissionChanges`), each boundary changes at most the evaluation of the entries of the original
/// transaction id that names it (its chain, its one-time purchases, its renewal info's grace period and its
/// notifications' events, all keyed by that id), so only those are evaluated again, and the report is summarised
/// again only where their candidates or diagnostics changed. From that date on, each boundary is rebuilt whole. The
/// answer is the same as rebuilding the whole history at every boundary in order; the tests hold the two side by side.
package struct Staleness: RebuildStage {
    let scope: RebuildScope

    /// What the rebuild's answer at a boundary may depend on.
    enum Reach {
        /// Admission and the newest snapshots: a purchase, or a snapshot's signing.
        case admission
        /// A revocation: the evaluation of the entries of one original transaction id, and which snapshot speaks for
        /// the instant where another is signed after it.
        case revocation(String?)
        /// The evaluation of the entries of one original transaction id alone. Without one, nothing: such an entry
        /// takes no part (a transaction or renewal info without it is left out, a notification without it records
        /// no event).
        case group(String?)
    }

    /// The boundaries after the instant, by what they may change.
    struct Plan {
        /// The first boundary at which admission or the newest snapshots may change; nil where none can.
        var admissionChanges: Date?
        /// The boundaries before `admissionChanges` at which an original transaction id's evaluation may change,
        /// sorted, each once with its ids.
        var boundaries: [(date: Date, groups: [String])]
        /// The original transaction ids of `boundaries`.
        var groups: Set<String>
    }

    /// The plan of the boundaries of `history`: one pass over it, but for the boundaries of its transactions where
    /// admission collected them (`transactionBoundaries`) as it read each payload.
    func plan(for history: History, transactionBoundaries: [(date: Date, reach: Reach)]? = nil) -> Plan {
        var admissionChanges: Date?
        var revocations: [Date] = []
        var dated: [(date: Date, group: String)] = []
        forEachBoundary(of: history, transactionBoundaries: transactionBoundaries) { date, reach in
            switch reach {
            case .admission:
                admissionChanges = min(admissionChanges ?? date, date)
            case .revocation(let group):
                revocations.append(date)
                if let group { dated.append((date, group)) }
            case .group(let group):
                if let group { dated.append((date, group)) }
            }
        }
        // A revocation decides between snapshots only where one is signed after the instant, which is itself a date
        // that may change admission: where there is none, no revocation can.
        if let first = admissionChanges {
            admissionChanges = revocations.reduce(first) { min($0, $1) }
        }
        if let admissionChanges { dated.removeAll { $0.date >= admissionChanges } }
        guard !dated.isEmpty else { return Plan(admissionChanges: admissionChanges, boundaries: [], groups: []) }
        dated.sort { $0.date != $1.date ? $0.date < $1.date : $0.group < $1.group }
        var boundaries: [(date: Date, groups: [String])] = []
        var groups: Set<String> = []
        for (date, group) in dated {
            groups.insert(group)
            if boundaries.last?.date == date {
                if boundaries[boundaries.count - 1].groups.last != group {
                    boundaries[boundaries.count - 1].groups.append(group)
                }
            } else {
                boundaries.append((date, [group]))
            }
        }
        return Plan(admissionChanges: admissionChanges, boundaries: boundaries, groups: groups)
    }

    /// How much work finding `validUntil` may take, in entries (`RebuildCost`).
    package enum Budget: Sendable {
        /// `n / 4 + 1,024` entries for a history of n: linear in the history, and enough for the exact instant of any
        /// history of everyday size (every shipped scenario, the family benchmark).
        case standard
        /// No limit: the exact instant, whatever it costs (the reference tests, and the closing measurements).
        case unlimited
        /// Exactly this many entries, whatever the history: for the tests that hold the budget to the counter.
        case entries(Int)

        func entries(for history: History) -> Int? {
            switch self {
            case .standard: history.count / 4 + 1_024
            case .unlimited: nil
            case .entries(let entries): entries
            }
        }
    }

    /// The first boundary after the instant at which `history` gives a decision other than `report`'s, where
    /// `evaluation` is the rebuild's evaluation at the instant with the groups of `plan` kept apart.
    ///
    /// Each step (evaluating a group again, summarising the report again, rebuilding the whole history) is paid for
    /// from `budget` before it is taken (a chain the cross-check reads again at the instant of Apple's status, as soon
    /// as it is read); where the next step would overspend it, the boundary reached is the answer:
    /// the decision holds up to it (every boundary before it was checked), so it is never later than the exact
    /// instant, only earlier, and the service decides again sooner. Returns the date, and the work it took: the
    /// budget's units, counted from what each evaluation says it read. This is the one reader of the counter inside
    /// the engine.
    func validUntil(
        of report: EntitlementReport, evaluation: Evaluation, plan: Plan, history: History, budget: Budget
    ) -> (date: Date?, cost: RebuildCost) {
        var cost = RebuildCost()
        let date = validUntil(
            of: report, evaluation: evaluation, plan: plan, history: history, budget: budget, cost: &cost)
        return (date, cost)
    }

    private func validUntil(
        of report: EntitlementReport, evaluation: Evaluation, plan: Plan, history: History, budget: Budget,
        cost: inout RebuildCost
    ) -> Date? {
        var decision: DecisionKey?
        var evaluation = evaluation
        var left = budget.entries(for: history) ?? .max
        /// Takes `entries` from what is left, or says the budget cannot pay for them.
        func spend(_ entries: Int) -> Bool {
            guard entries <= left else { return false }
            left -= entries
            return true
        }
        for (date, groups) in plan.boundaries {
            let later = Rebuild(scope: scope.at(date))
            var changed = false
            for key in groups {
                guard var group = evaluation.groups[key] else { continue }
                guard spend(group.size) else { return date }
                group.evaluate(by: later, store: evaluation.store, facts: evaluation.facts)
                cost.read += group.read
                // The chain read again at the instant of Apple's status, where the cross-check did: paid once read,
                // so that the budget is spent exactly as the counter counts.
                guard spend(group.read.chainEntries + group.read.purchaseEntries - group.size) else { return date }
                if let before = evaluation.groups[key], !group.decides(as: before) { changed = true }
                evaluation.groups[key] = group
            }
            // The same candidates and diagnostics as at the boundary before: the same report, whose decision was
            // the instant's.
            guard changed else { continue }
            guard spend(evaluation.summaryRead) else { return date }
            let key = decision ?? DecisionKey(report)
            decision = key
            cost.summarised += evaluation.summaryRead
            if DecisionKey(later.report(of: evaluation)) != key { return date }
        }
        guard let admissionChanges = plan.admissionChanges else { return nil }
        let key = decision ?? DecisionKey(report)
        for boundary in boundaries(of: history) where boundary >= admissionChanges {
            // A whole rebuild reads each entry once to evaluate it and at most twice to summarise it: that much is
            // paid before it is taken, and settled against what it did after.
            let estimate = 3 * history.count
            guard spend(estimate) else { return boundary }
            var (later, rebuilt) = Rebuild(scope: scope.at(boundary)).report(
                of: history, findingValidUntil: false, budget: budget)
            rebuilt.wholeRebuilds = 1
            left = max(0, left + estimate - rebuilt.total)
            cost += rebuilt
            if DecisionKey(later) != key { return boundary }
        }
        return nil
    }

    /// Every date after the instant that the rebuild may compare the instant against, sorted, each once.
    func boundaries(of history: History) -> [Date] {
        var dates: Set<Date> = []
        forEachBoundary(of: history) { date, _ in dates.insert(date) }
        return dates.sorted()
    }

    /// Calls `body` with every date after the instant that the rebuild may compare the instant against (a date
    /// named twice, twice), and what it may change. Where `transactionBoundaries` holds those of the history's
    /// transactions, as admission collected them while reading each payload, the transactions are not read again.
    func forEachBoundary(
        of history: History, transactionBoundaries: [(date: Date, reach: Reach)]? = nil,
        _ body: (Date, Reach) -> Void
    ) {
        let reader = BoundaryReader(self)
        if let transactionBoundaries {
            for (date, reach) in transactionBoundaries { body(date, reach) }
        } else {
            PayloadStore.reading(history.transactions) { store in
                for index in store.indices { reader.add(store[index], body) }
            }
        }
        for renewalInfo in history.renewalInfos { reader.add(renewalInfo, body) }
        for notification in history.notifications {
            let data = notification.data
            // The key admission files the notification's events and renewal notices under.
            let group = data?.transactionInfo?.originalTransactionId ?? data?.renewalInfo?.originalTransactionId
            // Admission dates a nested payload without signedDate by its notification's (rule 1): that date may then
            // change which snapshot speaks for the instant.
            let placesNested =
                data?.transactionInfo.map { $0.signedDate == nil } == true
                || data?.renewalInfo.map { $0.signedDate == nil } == true
            reader.add(notification.signedDate, placesNested ? .admission : .group(group), body)
            if let transaction = data?.transactionInfo { PayloadView.reading(transaction) { reader.add($0, body) } }
            if let renewalInfo = data?.renewalInfo { reader.add(renewalInfo, body) }
        }
        // Apple's statuses are compared with the chain they name only.
        for snapshot in history.subscriptionStatuses {
            reader.add(snapshot.signedDate, .group(snapshot.originalTransactionId), body)
        }
    }

    /// Reads the boundaries of entries one at a time: `forEachBoundary` for a whole history, admission for each
    /// transaction as it reads its payload.
    struct BoundaryReader {
        let instant: Date
        let catalogProducts: [ProductID: ProductCatalog.Product]
        let hasDurations: Bool
        // A date 2 ms or more before the instant reaches past it neither way taken (rounding moves it by less than
        // 1 ms): most of a long history's dates, skipped without rounding them.
        let earliest: Date
        let earliestRetried: Date

        init(_ staleness: Staleness) {
            instant = staleness.instant.value.date
            catalogProducts = staleness.catalogProducts
            hasDurations = catalogProducts.values.contains { $0.duration != nil }
            earliest = instant.addingTimeInterval(-0.002)
            earliestRetried = earliest.addingTimeInterval(-SubscriptionChains.billingRetryLimit)
        }

        // Rule 1 decides at whole milliseconds: an end at its millisecond taken down, a start or a signedDate from the
        // millisecond taken up. Both are boundaries, so that none is missed whichever way a date is taken.
        func add(_ date: Date?, _ reach: @autoclosure () -> Reach, _ body: (Date, Reach) -> Void) {
            // Read through the one door to the rules' dates: a date no rule reads (rule 10) makes its entry impossible
            // at every instant, so it is no boundary; nor is a date derived past the years a report holds.
            // Most of a long history's dates lie before the instant: compared first, which NaN never passes.
            guard let date, date > earliest, let date = RuleInstant(date)?.date else { return }
            let (down, up) = (MillisecondDate.whole(date, .down), MillisecondDate.whole(date, .up))
            if down > instant { body(down, reach()) }
            if up != down, up > instant { body(up, reach()) }
        }

        /// The boundaries of a transaction, read in place: inlined into admission's loop over the history.
        @inline(__always)
        func add(_ transaction: PayloadView, _ body: (Date, Reach) -> Void) {
            func group() -> String? { transaction.originalTransactionId }
            add(transaction.purchaseDate, .admission, body)
            add(transaction.signedDate, .admission, body)
            add(transaction.revocationDate, .revocation(group()), body)
            if let expires = transaction.expiresDate {
                add(expires, .group(group()), body)
                if expires > earliestRetried {
                    add(
                        SubscriptionChains.billingRetryEnd(after: MillisecondDate.whole(expires, .down)),
                        .group(group()), body)
                }
            }
            if hasDurations, let purchase = transaction.purchaseDate,
                let duration = transaction.productId.flatMap({ catalogProducts[ProductID($0)]?.duration })
            {
                add(duration.added(to: purchase), .group(group()), body)
            }
        }

        func add(_ renewalInfo: RenewalInfoPayload, _ body: (Date, Reach) -> Void) {
            add(renewalInfo.signedDate, .admission, body)
            add(renewalInfo.gracePeriodExpiresDate, .group(renewalInfo.originalTransactionId), body)
        }
    }
}

extension EvaluationGroup {
    /// Whether the group decides as `other` does: the same candidates, field by field as far as the reported
    /// decisions and the summary read them (the evidence aside), and the same diagnostics.
    func decides(as other: EvaluationGroup) -> Bool {
        guard candidates.count == other.candidates.count, log.diagnostics == other.log.diagnostics else {
            return false
        }
        for (lhs, rhs) in zip(candidates, other.candidates) {
            guard lhs.productId == rhs.productId, lhs.candidate.decides(as: rhs.candidate) else { return false }
        }
        return true
    }
}

extension Candidate {
    /// Whether the candidate decides as `other` does: every field that choosing the reported candidate, its
    /// decision, its facts and the summary read, the reasons aside.
    func decides(as other: Candidate) -> Bool {
        index == other.index && state == other.state && expires == other.expires
            && willRenew == other.willRenew && revocation?.at == other.revocation?.at
            && revocation?.cause == other.revocation?.cause && renewal == other.renewal
    }
}
