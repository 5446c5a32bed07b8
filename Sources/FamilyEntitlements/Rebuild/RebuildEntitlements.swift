#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Recomputes who may use what from a customer's whole history, as Apple asks on every REVOKE.
///
/// Pure and deterministic: no clock, no I/O. The same entries in any order, with any repeats, give the same report.
/// Entries of another environment never grant and are reported; unknown values from Apple are reported and still
/// counted where their fields allow; data that cannot be trusted never grants. `docs/decision-table.md` states every
/// rule, and the decision-table tests check each one.
///
/// - Parameters:
///   - history: The customer's transactions, renewal infos and notifications, in any order.
///   - instant: The instant of evaluation; transactions purchased after it do not count yet. One that is not finite,
///     or lies after 9999-12-31T23:59:59.999Z (or before the year 1), gives a report that grants nothing, with an
///     `invalid_instant` diagnostic and the customer inactive (`undetermined`), its asOf held at the nearest end of
///     that range; an instant before the App Store opened is a real question, whose customer is `new`.
///   - environment: The environment to decide for; `Production` unless testing.
///   - catalog: Entitlements, product types, non-renewing durations and the app's bundle id; `nil` (the default)
///     means none: each product id is then its own entitlement and non-renewing subscriptions have no known
///     duration. With a catalog, even an empty one, a product it lacks unlocks nothing and is reported.
///   - decodingWarnings: What reading the history noticed, as `History.decodeUnverified(_:as:)` returns it in
///     `warnings`; none by default (a service's verified intake refuses what it cannot read). Each becomes a diagnostic
///     of its own code naming its JSON path. One of error severity (`undecodable_signed_string`, or a code this release
///     does not know) is an entry that could not be read: it might have named any chain, so nothing grants, and the
///     customer is inactive with reason `undetermined` (rule 10).
public func rebuildEntitlements(
    history: History,
    asOf instant: Date,
    environment: Environment = .production,
    catalog: ProductCatalog? = nil,
    decodingWarnings: [PayloadDecodingWarning] = []
) -> EntitlementReport {
    let scope = RebuildScope(
        instant: instant, environment: environment, catalog: catalog, decodingWarnings: decodingWarnings)
    return Rebuild(scope: scope).report(of: history, findingValidUntil: true, budget: .standard).report
}

/// The stages of a rebuild in the order data flows through them: `Admission`, `NewestSnapshots`, then, in one pass
/// over the newest transactions, `SubscriptionChains` and `OneTimePurchases` (both asking `RevocationCauses`), then
/// `ReportedCandidate` for each product and `Summary`. Each stage is a value; what they notice goes to one
/// `DiagnosticsLog` passed along explicitly.
struct Rebuild: RebuildStage {
    let scope: RebuildScope

    /// The report at the instant, with `validUntil` where `findingValidUntil` (see `Staleness`, which spends at most
    /// `budget` on it), and the work it took: counted from what the evaluation says it read (`EntriesRead`), and what
    /// finding `validUntil` spent.
    func report(
        of history: History, findingValidUntil: Bool, budget: Staleness.Budget
    ) -> (report: EntitlementReport, cost: RebuildCost) {
        guard scope.isDecidable else { return (Summary(scope: scope).undecidable(), RebuildCost()) }
        var log = DiagnosticsLog()
        let staleness = Staleness(scope: scope)
        var admitted = Admission(scope: scope).admit(
            history, collectingBoundariesFor: findingValidUntil ? staleness : nil, log: &log)
        if !admitted.facts.events.isEmpty {
            admitted.facts.events = admitted.facts.events.mapValues { $0.ordered() }
        }
        let snapshots = NewestSnapshots(scope: scope)
        let newest = snapshots.newestTransactions(&admitted, log: &log)
        let renewalInfos = snapshots.newestRenewalInfos(admitted, log: &log)
        let plan =
            findingValidUntil
            ? staleness.plan(for: history, transactionBoundaries: admitted.transactionBoundaries) : nil
        return PayloadStore.reading(admitted.transactions) { store in
            let evaluation = evaluate(
                admitted, newest: newest, renewalInfos: renewalInfos, store: store, log: log,
                apart: plan?.groups ?? [])
            var report = self.report(of: evaluation)
            var cost = RebuildCost(
                history: history, planned: plan != nil, read: evaluation.read, summarised: evaluation.summaryRead)
            if let plan {
                let found = staleness.validUntil(
                    of: report, evaluation: evaluation, plan: plan, history: history, budget: budget)
                report.validUntil = found.date
                cost += found.cost
            }
            return (report, cost)
        }
    }

    /// The evaluation after admission. `store` holds the admitted transactions for the duration of the call only, and
    /// so does the evaluation returned. The entries of the original transaction ids in `apart` are evaluated each on
    /// their own, so that `Staleness` can evaluate them again at a later instant.
    private func evaluate(
        _ admitted: AdmittedEntries, newest: (isNewest: [Bool], count: Int),
        renewalInfos: [String: AdmittedRenewalInfo],
        store: PayloadStore, log: DiagnosticsLog, apart: Set<String>
    ) -> Evaluation {
        var log = log
        let facts = admitted.facts
        // The only part of the admitted entries this stage adds to: the rest is read, never copied.
        var hiddenPurchases = admitted.hiddenPurchases
        let oneTime = OneTimePurchases(scope: scope)
        var candidates = CandidatesByProduct()
        // By chain number: each chain's entries are reserved whole where its first one is appended.
        var subscriptions =
            admitted.chains.count == 0 ? [] : [ChainEntries](repeating: ChainEntries(), count: admitted.chains.count)
        var groups: [String: EvaluationGroup] = [:]
        var namesAPurchase = false
        var read = EntriesRead()
        // The purchases of the transactions that take no part in a chain. Only a chain of the same original
        // transaction id reads them, so they are noted as hidden once the chains are known: most histories have none
        // (a consumable's original transaction id is its own).
        var hiddenHere: [(originalId: String, purchase: RuleInstant)] = []
        hiddenHere.reserveCapacity(newest.count)
        // In the history's own order, which is usually the order of purchase, so that chains rarely need sorting.
        let isNewest = newest.isNewest
        // The auto-renewable transactions are grouped from admission's records, in the same order: their payloads are
        // not read again.
        let (records, dates) = (admitted.chainRecords, admitted.dates)
        var next = 0
        for index in store.indices where isNewest[index] {
            while next < records.count, records[next].index < index { next += 1 }
            if next < records.count, records[next].index == index {
                let record = records[next]
                guard instant.hasCome(record.purchase) else { continue }
                namesAPurchase = true
                subscriptions[record.chain].append(
                    record, of: admitted.products, reserving: admitted.chains.counts[record.chain])
                continue
            }
            guard let purchase = dates[index].purchase, instant.hasCome(purchase),
                let productId = store[index].productId, let originalId = store[index].originalTransactionId
            else { continue }
            let type = store[index].type ?? catalogProducts[ProductID(productId)]?.type
            switch type {
            case .consumable?:
                hiddenHere.append((originalId, purchase))
                oneTime.consumable(at: index, in: store, log: &log)
            default:
                namesAPurchase = true
                hiddenHere.append((originalId, purchase))
                if !apart.isEmpty, apart.contains(originalId) {
                    groups[originalId, default: EvaluationGroup()].oneTime.append(
                        (index: index, dates: dates[index], productId: productId, type: type))
                    continue
                }
                read.purchaseEntries += 1
                candidates.append(
                    oneTime.evaluate(at: index, in: store, dates: dates[index], type: type, facts: facts, log: &log),
                    productId: productId)
            }
        }
        if !subscriptions.isEmpty {
            for (originalId, purchase) in hiddenHere
            where admitted.chains.existingNumber(of: originalId).map({ !subscriptions[$0].entries.isEmpty }) ?? false {
                hiddenPurchases.note(purchase, of: originalId)
            }
        }
        for (number, entries) in subscriptions.enumerated() where !entries.entries.isEmpty {
            let originalId = admitted.chains.originalIds[number]
            let chain = Chain(store: store, entries: entries)
            // A renewal info describes the chain's newest transaction: where that one was left out or not trusted,
            // it says nothing about the older transactions that take part.
            let hidden = hiddenPurchases.isEmpty ? nil : hiddenPurchases[originalId]
            let describesNewest = hidden.map { $0 <= (chain.entries.last?.purchase ?? $0) } ?? true
            var context = ChainContext(
                chain: chain, renewalInfo: describesNewest && !renewalInfos.isEmpty ? renewalInfos[originalId] : nil,
                events: facts.events.isEmpty ? [] : facts.events[originalId] ?? [])
            context.notices = facts.renewalNotices.isEmpty ? [] : facts.renewalNotices[originalId] ?? []
            if !apart.isEmpty, apart.contains(originalId) {
                groups[originalId, default: EvaluationGroup()].chain = (originalId, context)
                groups[originalId]?.statuses =
                    facts.appleStatuses.isEmpty ? 0 : facts.appleStatuses[originalId]?.count ?? 0
                continue
            }
            let evaluated = evaluate(context, originalId: originalId, facts: facts, log: &log)
            read.chainEntries += evaluated.read
            for (productId, candidate) in evaluated.candidates {
                candidates.append(candidate, productId: productId)
            }
        }
        for originalId in groups.keys {
            groups[originalId]?.evaluate(by: self, store: store, facts: facts)
            read += groups[originalId]?.read ?? EntriesRead()
        }
        // The products a group names are the same at every instant: every one-time purchase that takes part is a
        // candidate, and so is the newest transaction of each product of a chain.
        let apartProducts = Set(groups.values.lazy.flatMap { $0.candidates.lazy.map(\.productId) })

        let reporting = ReportedCandidate(scope: scope)
        var products: [ProductDecision] = []
        var productFacts: [ProductFacts] = []
        for position in candidates.sortedPositions {
            let productId = candidates.productIds[position]
            guard apartProducts.isEmpty || !apartProducts.contains(productId),
                let reported = reporting.decision(
                    for: productId, from: candidates.lists[position], store: store, dates: dates, facts: facts,
                    log: &log)
            else { continue }
            products.append(reported.decision)
            productFacts.append(reported.facts)
        }
        return Evaluation(
            store: store, dates: dates, facts: facts, log: log, products: products, productFacts: productFacts,
            candidates: apartProducts.isEmpty ? [:] : candidates.candidates(of: apartProducts),
            apartProducts: apartProducts.sorted(), groups: groups,
            namesAPurchase: namesAPurchase || admitted.hasUntrustedTransactions,
            mixedBundles: admitted.bundleSeen.mixed, undecoded: admitted.undecoded, read: read)
    }

    /// The candidates of one auto-renewable subscription chain, each with its product id, and the entries read: the
    /// chain's, its notices and Apple's statuses, and the chain again where the cross-check evaluates it at the
    /// instant Apple signed its status.
    func evaluate(
        _ context: ChainContext, originalId: String, facts: NotificationFacts, log: inout DiagnosticsLog
    ) -> (candidates: [(productId: String, candidate: Candidate)], read: Int) {
        let chains = SubscriptionChains(scope: scope)
        let evaluated = chains.evaluateChain(context, log: &log)
        let statuses = facts.appleStatuses.isEmpty ? nil : facts.appleStatuses[originalId]
        var read = context.readCount(statuses: statuses?.count ?? 0)
        if let statuses {
            read += chains.crossCheck(
                statuses, originalId: originalId, context: context, candidates: evaluated, log: &log)
        }
        let candidates = evaluated.compactMap { candidate in
            context.chain.store[candidate.index].productId.map { (productId: $0, candidate: candidate) }
        }
        return (candidates, read)
    }

    /// The report of an evaluation at this rebuild's instant: its groups' candidates, as evaluated last, join the
    /// others' for their products, and the customer's status and entitlements are summarised from every product.
    func report(of evaluation: Evaluation) -> EntitlementReport {
        var log = evaluation.log
        var products = evaluation.products
        var productFacts = evaluation.productFacts
        if !evaluation.groups.isEmpty {
            var candidates = evaluation.candidates
            for group in evaluation.groups.values {
                log.formUnion(group.log)
                for (productId, candidate) in group.candidates {
                    candidates[productId, default: []].append(candidate)
                }
            }
            let reporting = ReportedCandidate(scope: scope)
            for productId in evaluation.apartProducts {
                guard let candidates = candidates[productId],
                    let reported = reporting.decision(
                        for: productId, from: candidates, store: evaluation.store, dates: evaluation.dates,
                        facts: evaluation.facts, log: &log)
                else { continue }
                products.append(reported.decision)
                productFacts.append(reported.facts)
            }
            // Sorted by product id, each keeping its facts.
            let order = products.indices.sorted { products[$0].productId.rawValue < products[$1].productId.rawValue }
            (products, productFacts) = (order.map { products[$0] }, order.map { productFacts[$0] })
        }
        return Summary(scope: scope).summarise(
            products, facts: productFacts, namesAPurchase: evaluation.namesAPurchase,
            mixedBundles: evaluation.mixedBundles, undecoded: evaluation.undecoded, log: &log)
    }
}
