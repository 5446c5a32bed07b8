#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON contract of `entitlements rebuild --format json`, which other tools parse.
///
/// Every key is always present; absent values are `null`. Dates are integer milliseconds since 1970. A price is
/// `{"currency", "milliunits", "minorUnits", "amount"}`, where `amount` has exactly the currency's ISO 4217 decimals
/// (three where the currency is unknown or the amount is finer) and `minorUnits` is null where not whole.
extension EntitlementReport: Codable {
    enum CodingKeys: String, CodingKey {
        case asOf, environment, customerStatus, customerReason, products, entitlements, diagnostics, validUntil
        case entitlementDecisions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let read = try container.decodeMillisecondDateIfPresent(forKey: .asOf) else {
            throw DecodingError.valueNotFound(
                Double.self,
                DecodingError.Context(
                    codingPath: container.codingPath + [CodingKeys.asOf], debugDescription: "asOf is null"))
        }
        asOf = read
        environment = try container.decode(Environment.self, forKey: .environment)
        let status = try container.decode(CustomerStatus.self, forKey: .customerStatus)
        let reason = try container.decodeIfPresent(InactiveReason.self, forKey: .customerReason)
        switch (status, reason) {
        case (.new, nil): customer = .new
        case (.active, nil): customer = .active
        case (.inactive, let reason?): customer = .inactive(reason)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .customerReason, in: container,
                debugDescription: "customerReason is set exactly when customerStatus is inactive")
        }
        products = try container.decode([ProductDecision].self, forKey: .products)
        entitlements = try container.decode([EntitlementID: Bool].self, forKey: .entitlements)
        diagnostics = try container.decode([Diagnostic].self, forKey: .diagnostics)
        validUntil = try container.decodeMillisecondDateIfPresent(forKey: .validUntil)
        entitlementDecisions =
            try container.decodeIfPresent([EntitlementID: EntitlementDecision].self, forKey: .entitlementDecisions)
            ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeWholeMillisecondDateIfPresent(asOf, forKey: .asOf)
        try container.encode(environment, forKey: .environment)
        try container.encode(customerStatus, forKey: .customerStatus)
        try container.encode(customerReason, forKey: .customerReason)
        try container.encode(products, forKey: .products)
        try container.encode(entitlements, forKey: .entitlements)
        try container.encode(diagnostics, forKey: .diagnostics)
        if let validUntil {
            try container.encodeWholeMillisecondDateIfPresent(validUntil, forKey: .validUntil)
        } else {
            try container.encodeNil(forKey: .validUntil)
        }
        try container.encode(entitlementDecisions, forKey: .entitlementDecisions)
    }

    /// The report as the contract's JSON: one object, keys sorted. `jsonData()` writes the same object, read back by
    /// `init(jsonData:)`, the names a ledger uses too; this one keeps the command-line tool's form (pretty-printed on
    /// request, slashes escaped).
    public func contractJSON(prettyPrinted: Bool = false) throws(PayloadEncodingError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw PayloadEncodingError(error, encoding: "the report")
        }
    }
}

extension ProductDecision: Codable {
    enum CodingKeys: String, CodingKey {
        case productId, type, state, hasAccess, ownership, revocationCause, causeInferred, expiresDate, willRenew
        case canManage, period, price, transactionId, originalTransactionId, because
    }

    enum PriceKeys: String, CodingKey {
        case currency, milliunits, minorUnits, amount
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productId = try container.decode(ProductID.self, forKey: .productId)
        type = try container.decodeIfPresent(ProductType.self, forKey: .type)
        state = try container.decode(AccessState.self, forKey: .state)
        guard try container.decode(Bool.self, forKey: .hasAccess) == state.grantsAccess else {
            throw DecodingError.dataCorruptedError(
                forKey: .hasAccess, in: container, debugDescription: "hasAccess contradicts state \(state.rawValue)")
        }
        ownership = try container.decodeIfPresent(OwnershipType.self, forKey: .ownership)
        let cause = try container.decodeIfPresent(RevocationCause.self, forKey: .revocationCause)
        let inferred = try container.decode(Bool.self, forKey: .causeInferred)
        switch (cause, inferred) {
        case (let cause?, false): revocation = .stated(cause)
        case (let cause?, true): revocation = .inferred(cause)
        case (nil, false): revocation = nil
        case (nil, true):
            throw DecodingError.dataCorruptedError(
                forKey: .causeInferred, in: container, debugDescription: "causeInferred is true without a cause")
        }
        expiresDate = try container.decodeMillisecondDateIfPresent(forKey: .expiresDate)
        willRenew = try container.decodeIfPresent(Bool.self, forKey: .willRenew)
        canManage = try container.decode(Bool.self, forKey: .canManage)
        period = try container.decode(PricingPeriod.self, forKey: .period)
        if try container.decodeNil(forKey: .price) {
            price = nil
        } else {
            let priceContainer = try container.nestedContainer(keyedBy: PriceKeys.self, forKey: .price)
            price = Money(
                milliunits: try priceContainer.decode(Int64.self, forKey: .milliunits),
                currency: try priceContainer.decode(CurrencyCode.self, forKey: .currency))
        }
        transactionId = try container.decode(TransactionID.self, forKey: .transactionId)
        originalTransactionId = try container.decode(OriginalTransactionID.self, forKey: .originalTransactionId)
        reasons = try container.decode([String].self, forKey: .because).map { Reason(.evidence, .text($0)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productId, forKey: .productId)
        try container.encode(type, forKey: .type)
        try container.encode(state, forKey: .state)
        try container.encode(hasAccess, forKey: .hasAccess)
        try container.encode(ownership, forKey: .ownership)
        try container.encode(revocationCause, forKey: .revocationCause)
        try container.encode(causeInferred, forKey: .causeInferred)
        if let expiresDate {
            try container.encodeWholeMillisecondDateIfPresent(expiresDate, forKey: .expiresDate)
        } else {
            try container.encodeNil(forKey: .expiresDate)
        }
        try container.encode(willRenew, forKey: .willRenew)
        try container.encode(canManage, forKey: .canManage)
        try container.encode(period, forKey: .period)
        if let price {
            var priceContainer = container.nestedContainer(keyedBy: PriceKeys.self, forKey: .price)
            try priceContainer.encode(price.currency, forKey: .currency)
            try priceContainer.encode(price.milliunits, forKey: .milliunits)
            try priceContainer.encode(price.exactMinorUnits, forKey: .minorUnits)
            let amount = (try? price.formattedAmount()) ?? (try? price.formattedAmount(fractionDigits: 3))
            try priceContainer.encode(amount, forKey: .amount)
        } else {
            try container.encodeNil(forKey: .price)
        }
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        try container.encode(because, forKey: .because)
    }
}

/// A report round-trips through the names a ledger uses: `jsonData()` writes the JSON contract of
/// docs/report-json.md (keys sorted, dates in integer milliseconds) and `init(jsonData:)` reads it back, naming the JSON
/// path of anything wrong; keys a later release adds are ignored, so a stored report stays readable.
extension EntitlementReport: AppStorePayload {}
