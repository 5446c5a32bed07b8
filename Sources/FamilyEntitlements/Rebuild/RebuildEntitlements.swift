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
///   - instant: The instant of evaluation; transactions purchased after it do not count yet.
///   - environment: The environment to decide for; `Production` unless testing.
///   - catalog: Entitlements, product types, non-renewing durations and the app's bundle id; `nil` (the default)
///     means none: each product id is then its own entitlement and non-renewing subscriptions have no known
///     duration. With a catalog, even an empty one, a product it lacks unlocks nothing and is reported.
public func rebuildEntitlements(
    history: History,
    asOf instant: Date,
    environment: Environment = .production,
    catalog: ProductCatalog? = nil
) -> EntitlementReport {
    let scope = RebuildScope(instant: instant, environment: environment, catalog: catalog)
    var report = Rebuild(scope: scope).report(of: history)
    report.validUntil = Staleness(scope: scope).validUntil(of: report, history: history)
    return report
}

/// The stages of a rebuild in the order data flows through them: `Admission`, `NewestSnapshots`, then, in one pass
/// over the newest transactions, `SubscriptionChains` and `OneTimePurchases` (both asking `RevocationCauses`), then
/// `ReportedCandidate` for each product and `Summary`. Each stage is a value; what they notice goes to one
/// `DiagnosticsLog` passed along explicitly.
struct Rebuild: RebuildStage {
    static let rules: [DecisionRule] = DecisionRule.allCases
    let scope: RebuildScope

    func report(of history: History) -> EntitlementReport {
        var log = DiagnosticsLog()
        var admitted = Admission(scope: scope).admit(history, log: &log)
        if !admitted.facts.events.isEmpty {
            admitted.facts.events = admitted.facts.events.mapValues { $0.ordered() }
        }
        let snapshots = NewestSnapshots(scope: scope)
        let newest = snapshots.newestTransactions(&admitted, log: &log)
        let renewalInfos = snapshots.newestRenewalInfos(admitted, log: &log)
        return admitted.transactions.withUnsafeBufferPointer { store in
            evaluate(admitted, newest: newest, renewalInfos: renewalInfos, store: store, log: &log)
        }
    }

    /// The evaluation after admission. `store` holds the admitted transactions for the duration of the call only.
    private func evaluate(
        _ admitted: AdmittedEntries, newest: [String: Int], renewalInfos: [String: RenewalInfoPayload], store: Store,
        log: inout DiagnosticsLog
    ) -> EntitlementReport {
        var admitted = admitted
        let facts = admitted.facts
        let oneTime = OneTimePurchases(scope: scope)
        var candidates: [String: [Candidate]] = [:]
        var subscriptions: [String: ChainEntries] = [:]
        var namesAPurchase = false
        // In the history's own order, which is usually the order of purchase, so that chains rarely need sorting.
        var isNewest = [Bool](repeating: false, count: store.count)
        for index in newest.values { isNewest[index] = true }
        for index in store.indices where isNewest[index] {
            guard let purchase = store[index].purchaseDate, purchase <= instant,
                let productId = store[index].productId, let originalId = store[index].originalTransactionId
            else { continue }
            let type = store[index].type ?? catalogProducts[ProductID(productId)]?.type
            switch type {
            // The most frequent type first: each case compares the type's raw string.
            case .autoRenewable?:
                namesAPurchase = true
                // Field by field: the payload itself is read in place, never copied.
                let entry = ChainEntry(
                    index: index, product: 0, purchaseDate: purchase, expiresDate: store[index].expiresDate,
                    revocationDate: store[index].revocationDate, signedDate: store[index].signedDate,
                    isUpgraded: store[index].isUpgraded == true)
                subscriptions[originalId, default: ChainEntries()].append(entry, productId: productId)
            case .consumable?:
                admitted.hide(originalId, purchasedAt: purchase)
                if store[index].inAppOwnershipType == .familyShared {
                    log.report(
                        .familySharedConsumable,
                        "transaction \(store[index].id) of consumable \(productId) is FAMILY_SHARED, which Family "
                            + "Sharing never allows; it is invalid data and grants nothing")
                }
            default:
                namesAPurchase = true
                admitted.hide(originalId, purchasedAt: purchase)
                candidates[productId, default: []].append(
                    oneTime.evaluate(at: index, in: store, type: type, facts: facts, log: &log))
            }
        }
        let chains = SubscriptionChains(scope: scope)
        for (originalId, entries) in subscriptions {
            let chain = Chain(store: store, entries: entries)
            // A renewal info describes the chain's newest transaction: where that one was left out or not trusted,
            // it says nothing about the older transactions that take part.
            let hidden = admitted.hiddenPurchases.isEmpty ? nil : admitted.hiddenPurchases[originalId]
            let describesNewest = hidden.map { $0 <= (chain.entries.last?.purchaseDate ?? $0) } ?? true
            var context = ChainContext(
                chain: chain, renewalInfo: describesNewest && !renewalInfos.isEmpty ? renewalInfos[originalId] : nil,
                events: facts.events.isEmpty ? [] : facts.events[originalId] ?? [])
            context.notices = facts.renewalNotices.isEmpty ? [] : facts.renewalNotices[originalId] ?? []
            let evaluated = chains.evaluateChain(context, log: &log)
            if !facts.appleStatuses.isEmpty, let statuses = facts.appleStatuses[originalId] {
                chains.crossCheck(statuses, originalId: originalId, context: context, candidates: evaluated, log: &log)
            }
            for candidate in evaluated {
                guard let productId = store[candidate.index].productId else { continue }
                candidates[productId, default: []].append(candidate)
            }
        }

        let reporting = ReportedCandidate(scope: scope)
        var productFacts: [ProductID: ProductFacts] = [:]
        let products = candidates.keys.sorted().compactMap { productId in
            candidates[productId].flatMap { candidates in
                reporting.decision(for: productId, from: candidates, store: store, facts: facts, log: &log)
            }.map { reported in
                productFacts[reported.decision.productId] = reported.facts
                return reported.decision
            }
        }
        return Summary(scope: scope).summarise(
            products, facts: productFacts, namesAPurchase: namesAPurchase || admitted.hasUntrustedTransactions,
            mixedBundles: admitted.bundleSeen.mixed, log: &log)
    }
}
