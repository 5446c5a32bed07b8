#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rebuilder {
    /// The decision for one product from every transaction that names it: rule 5 of the decision table.
    ///
    /// The product is granted while any transaction grants, PURCHASED preferred (then the longest access); where none
    /// grants, the newest transaction is reported.
    mutating func decision(
        for productId: String, from candidates: [Candidate], store: Store, chains: [ChainContext],
        evidence: Evidence
    ) -> ProductDecision? {
        let granting = candidates.filter(\.grants)
        let reported: Candidate?
        if granting.isEmpty {
            reported = candidates.max { lhs, rhs in
                (store[lhs.index].purchaseDate ?? .distantPast, store[lhs.index].id)
                    < (store[rhs.index].purchaseDate ?? .distantPast, store[rhs.index].id)
            }
        } else {
            reported = granting.max { lhs, rhs in
                (
                    store[lhs.index].inAppOwnershipType == .purchased ? 1 : 0, lhs.expiresDate ?? .distantFuture,
                    store[rhs.index].id
                )
                    < (
                        store[rhs.index].inAppOwnershipType == .purchased ? 1 : 0, rhs.expiresDate ?? .distantFuture,
                        store[lhs.index].id
                    )
            }
        }
        guard let reported else { return nil }
        let chosen = explain(reported, store: store, chains: chains, evidence: evidence)
        let transaction = store[chosen.index]
        var because = chosen.because.lines
        let distinct = Set(candidates.map(\.index))
        if distinct.count > 1 {
            because.append(
                granting.isEmpty
                    ? "rule 5: \(distinct.count) transactions name \(productId) and none grants; the newest is reported"
                    : "rule 5: \(distinct.count) transactions name \(productId); the product is granted while any "
                        + "grants, and transaction \(transaction.id) (\(ownershipText(transaction))) is reported")
        }
        let isSubscription = (transaction.type ?? catalogProducts[productId]?.type) == .autoRenewable
        return ProductDecision(
            productId: productId,
            type: transaction.type ?? catalogProducts[productId]?.type,
            state: chosen.state,
            hasAccess: chosen.grants,
            ownership: transaction.inAppOwnershipType,
            revocationCause: chosen.revocation?.cause,
            causeInferred: chosen.revocation?.inferred ?? false,
            expiresDate: chosen.expiresDate,
            willRenew: isSubscription ? chosen.willRenew : nil,
            canManage: transaction.inAppOwnershipType == .purchased,
            period: period(of: transaction),
            price: price(of: transaction),
            transactionId: transaction.transactionId ?? "",
            originalTransactionId: transaction.originalTransactionId ?? "",
            because: because)
    }

    private mutating func period(of transaction: TransactionPayload) -> PricingPeriod {
        if let period = PricingPeriod.of(transaction) { return period }
        report(
            .warning, .unknownOfferType,
            "transaction \(transaction.id) has offerType \(transaction.offerType?.rawValue ?? 0), which this library "
                + "does not know; its period is reported as normal")
        return .normal
    }

    private mutating func price(of transaction: TransactionPayload) -> Money? {
        guard let milliunits = transaction.price, let currency = transaction.currency else { return nil }
        let money = Money(milliunits: milliunits, currency: CurrencyCode(rawValue: currency))
        if money.exactMinorUnits == nil {
            report(
                .warning, .inexactPrice,
                "transaction \(transaction.id) has price \(milliunits) milliunits of \(currency), which is not a whole "
                    + "number of the currency's ISO 4217 minor units (or the currency is unknown)")
        }
        return money
    }

    /// The customer status, entitlements and diagnostics: rule 11 of the decision table.
    mutating func summarise(_ products: [ProductDecision], namesAPurchase: Bool) -> EntitlementReport {
        var entitlements: [String: Bool] = [:]
        for (productId, product) in catalogProducts {
            for entitlement in product.entitlements ?? [productId] {
                entitlements[entitlement] = entitlements[entitlement] ?? false
            }
        }
        for product in products {
            guard let catalog else {
                entitlements[product.productId] = (entitlements[product.productId] ?? false) || product.hasAccess
                continue
            }
            guard catalogProducts[product.productId] != nil else {
                report(
                    .error, .uncataloguedProduct,
                    "product \(product.productId) is not in the catalog; it unlocks no entitlement (its decision, "
                        + "\(product.state.rawValue), is still reported)")
                continue
            }
            for entitlement in catalog.entitlements(of: product.productId) {
                entitlements[entitlement] = (entitlements[entitlement] ?? false) || product.hasAccess
            }
        }
        if bundleSeen.mixed {
            report(
                .error, .mixedBundles,
                "the history names more than one bundle id and the catalog names none; name the app's bundleId in the "
                    + "catalog so that other apps' entries grant nothing")
        }
        let status: CustomerStatus
        var reason: InactiveReason?
        if products.contains(where: \.hasAccess) {
            status = .active
        } else if !namesAPurchase {
            status = .new
        } else {
            status = .inactive
            reason =
                products.map(Self.inactiveReason).min { lhs, rhs in
                    InactiveReason.allCases.firstIndex(of: lhs) ?? 0 < InactiveReason.allCases.firstIndex(of: rhs) ?? 0
                } ?? .undetermined
        }
        return EntitlementReport(
            asOf: instant, environment: environment, customerStatus: status, customerReason: reason,
            products: products, entitlements: entitlements, diagnostics: diagnostics.sorted())
    }

    private static func inactiveReason(_ product: ProductDecision) -> InactiveReason {
        switch product.state {
        case .billingRetry:
            return product.ownership == .purchased ? .billingRetry : .billingRetryFamilyMember
        case .revoked:
            switch product.revocationCause {
            case .refund?, .proratedRefund?: return .refunded
            case .familyRevocation?: return .familyRevocation
            default: return .revoked
            }
        case .undetermined: return .undetermined
        case .expired, .upgraded, .active, .gracePeriod: return .expired
        }
    }
}
