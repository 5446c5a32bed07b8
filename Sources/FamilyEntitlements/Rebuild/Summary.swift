#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stage 7 of the rebuild, rule 11: the customer's status, the entitlements and the diagnostics; and rule 10's
/// entries that could not be read, which leave nothing granting.
struct Summary: RebuildStage {
    let scope: RebuildScope

    /// The report of the products' decisions, each with its facts at the same position; `namesAPurchase` says
    /// whether the history named a purchase that counts towards the customer's status (an untrusted one included).
    func summarise(
        _ products: [ProductDecision], facts: [ProductFacts], namesAPurchase: Bool, mixedBundles: Bool,
        undecoded: [String] = [], log: inout DiagnosticsLog
    ) -> EntitlementReport {
        let unread = settingAsideUnread(products, undecoded: undecoded, log: &log)
        let products = unread.products
        var entitlements: [EntitlementID: Bool]
        var decisions: [EntitlementID: EntitlementDecision]
        if let catalog {
            (entitlements, decisions) = catalogued(products, facts: facts, catalog: catalog, log: &log)
        } else {
            // Each product is its own entitlement, and answers for it alone: product ids are unique in a report.
            (entitlements, decisions) = ([:], [:])
            for position in products.indices {
                let entitlement = EntitlementID(products[position].productId)
                entitlements[entitlement] = products[position].state.grantsAccess
                decisions[entitlement] = EntitlementDecision(products[position], facts: facts[position])
            }
        }
        if mixedBundles {
            log.report(
                .mixedBundles,
                "the history names more than one bundle id and the catalog names none; name the app's bundleId in the "
                    + "catalog so that other apps' entries grant nothing")
        }
        return EntitlementReport(
            asOf: instant.value.date, environment: environment,
            customer: unread.any ? .inactive(.undetermined) : customer(of: products, namesAPurchase: namesAPurchase),
            products: products, entitlements: entitlements, diagnostics: log.sorted, entitlementDecisions: decisions)
    }

    /// The report at an instant the rebuild cannot decide at (rule 1): nothing grants, every entitlement of the
    /// catalog is answered inactive, and the customer is inactive with reason `undetermined`.
    func undecidable() -> EntitlementReport {
        var log = DiagnosticsLog()
        log.report(
            .invalidInstant,
            "the instant of evaluation, \(MillisecondDate.text(scope.given)) ms since 1970, is not one the rebuild can "
                + "decide at (a finite instant no later than 9999-12-31T23:59:59.999Z); nothing grants, and asOf is "
                + "held at \(instant.value.evidenceText)")
        var report = summarise([], facts: [], namesAPurchase: true, mixedBundles: false, log: &log)
        report.customer = .inactive(.undetermined)
        return report
    }

    /// The entitlements and their answers where a catalog maps products to entitlements: every entitlement of the
    /// catalog is known, a product it lacks unlocks nothing, and where several products unlock one entitlement the
    /// one of highest priority answers (see `EntitlementDecision`).
    private func catalogued(
        _ products: [ProductDecision], facts: [ProductFacts], catalog: ProductCatalog, log: inout DiagnosticsLog
    ) -> (entitlements: [EntitlementID: Bool], decisions: [EntitlementID: EntitlementDecision]) {
        var entitlements: [EntitlementID: Bool] = [:]
        // The position of the product answering for each entitlement.
        var answering: [EntitlementID: Int] = [:]
        for (productId, product) in catalogProducts {
            for entitlement in product.entitlements ?? [EntitlementID(productId)] {
                entitlements[entitlement] = entitlements[entitlement] ?? false
            }
        }
        for (position, product) in products.enumerated() {
            guard catalogProducts[product.productId] != nil else {
                log.report(
                    .uncataloguedProduct,
                    "product \(product.productId) is not in the catalog; it unlocks no entitlement (its decision, "
                        + "\(product.state.rawValue), is still reported)")
                continue
            }
            for entitlement in catalog.entitlements(of: product.productId) {
                Self.unlock(&entitlements[entitlement, default: false], if: product.hasAccess)
                if let other = answering[entitlement],
                    !Self.answers(product, facts[position], before: products[other], facts[other])
                {
                    continue
                }
                answering[entitlement] = position
            }
        }
        var decisions: [EntitlementID: EntitlementDecision] = [:]
        for (entitlement, isActive) in entitlements {
            decisions[entitlement] =
                answering[entitlement].map { EntitlementDecision(products[$0], facts: facts[$0]) }
                ?? EntitlementDecision(isActive: isActive)
        }
        return (entitlements, decisions)
    }

    /// Whether `product` answers for an entitlement rather than `other` (rule 11), by the priority `EntitlementDecision`
    /// states.
    static func answers(
        _ product: ProductDecision, _ facts: ProductFacts, before other: ProductDecision, _ otherFacts: ProductFacts
    ) -> Bool {
        if product.hasAccess != other.hasAccess { return product.hasAccess }
        if product.hasAccess {
            func rank(_ ownership: OwnershipType?) -> Int {
                ownership == .purchased ? 0 : ownership == .familyShared ? 1 : 2
            }
            if rank(product.ownership) != rank(other.ownership) {
                return rank(product.ownership) < rank(other.ownership)
            }
            // No end outlasts every end.
            switch (facts.end, otherFacts.end) {
            case (nil, nil): break
            case (nil, _?): return true
            case (_?, nil): return false
            case (let end?, let otherEnd?): if end != otherEnd { return end > otherEnd }
            }
        } else {
            let purchased = facts.purchase ?? .distantPast
            let otherPurchased = otherFacts.purchase ?? .distantPast
            if purchased != otherPurchased { return purchased > otherPurchased }
        }
        return product.productId < other.productId
    }

    /// Rule 10: every warning of reading the history as a diagnostic naming its path, and every signed string a
    /// notification holds without its decoded contents (`undecoded`); where one is an entry that could not be read (a
    /// warning of error severity, or an undecoded string), the products that would grant are undetermined instead,
    /// since the entry does not say which chain it names, and `any` is true.
    ///
    /// A reader that decodes signed strings (`History.decodeUnverified(_:as:)`) leaves one without its contents only
    /// where it could not decode it, and warns of it at its own path, which names the document read rather than the
    /// history's position: where the warnings already name an entry that could not be read, the undecoded strings are
    /// those entries, and are not reported twice.
    private func settingAsideUnread(
        _ products: [ProductDecision], undecoded: [String], log: inout DiagnosticsLog
    ) -> (products: [ProductDecision], any: Bool) {
        guard !scope.decodingWarnings.isEmpty || !undecoded.isEmpty else { return (products, false) }
        var unread: [String] = []
        for warning in scope.decodingWarnings {
            let code = Diagnostic.Code(rawValue: warning.code.rawValue)
            log.report(code, "at \(warning.path): \(warning.message)")
            if code.severity == .error { unread.append(warning.path) }
        }
        if unread.isEmpty {
            for path in undecoded {
                log.report(
                    .undecodedSignedString,
                    "at \(path): a signed string without its decoded contents, which the rebuild never decodes; the "
                        + "entry was not read (verify the string and pass its payload, or read the file with "
                        + "History.decodeUnverified)")
                unread.append(path)
            }
        }
        guard !unread.isEmpty else { return (products, false) }
        unread.sort()
        var products = products
        for index in products.indices where products[index].hasAccess {
            products[index].state = .undetermined
            products[index].reasons.append(Reason.found(.unknownValues, .unreadEntries(paths: unread)))
        }
        return (products, true)
    }

    /// Sets an entitlement, read and written in one lookup, when a product that unlocks it grants.
    private static func unlock(_ entitlement: inout Bool, if grants: Bool) {
        if grants { entitlement = true }
    }

    /// The customer's standing: active while any product grants, new without a purchase, else inactive with the
    /// reason of highest priority.
    private func customer(of products: [ProductDecision], namesAPurchase: Bool) -> CustomerStanding {
        let customer: CustomerStanding
        // By position: each product is read in place, never copied.
        if products.indices.contains(where: { products[$0].state.grantsAccess }) {
            customer = .active
        } else if !namesAPurchase {
            customer = .new
        } else {
            customer = .inactive(products.indices.lazy.map { InactiveReason(of: products[$0]) }.min() ?? .undetermined)
        }
        return customer
    }
}

extension InactiveReason {
    /// Why a product that does not grant leaves the customer without access.
    init(of product: ProductDecision) {
        switch product.state {
        case .billingRetry:
            self = product.ownership == .purchased ? .billingRetry : .billingRetryFamilyMember
        case .revoked:
            switch product.revocationCause {
            case .refund?, .proratedRefund?: self = .refunded
            case .familyRevocation?: self = .familyRevocation
            default: self = .revoked
            }
        case .undetermined: self = .undetermined
        case .expired, .upgraded, .active, .gracePeriod: self = .expired
        }
    }
}
