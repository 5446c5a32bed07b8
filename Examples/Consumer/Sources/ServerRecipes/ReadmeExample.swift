import FamilyEntitlements
import Foundation

/// The README's "Use it" block, compiled: a transaction's decoded JSON absorbed into the customer's stored ledger, the
/// decision rebuilt from the whole ledger, the changes since the previous decision, and how long the report holds.
func readmeExample(
    bytes: Data, stored: CustomerLedger?, previous: EntitlementReport?, now: Date, catalog: ProductCatalog
) throws -> (ledger: CustomerLedger, unlocksPro: Bool, cacheUntil: Date?) {
    let transaction = try TransactionPayload(jsonData: bytes)  // Apple's decoded JSON; errors name the path
    var ledger = stored ?? CustomerLedger()  // the customer's history, kept as versioned JSON
    ledger.absorb(transaction)  // a repeat changes nothing; notifications go in too
    let report = ledger.rebuild(asOf: now, catalog: catalog)

    let unlocksPro = report.hasAccess(to: "pro")  // what the app may unlock
    for product in report.products {
        print(product.productId, product.state, product.because)  // active, gracePeriod, revoked, ...
    }
    for change in report.changes(from: previous) where change.takesAccessAway {
        print(change)  // a refund or a departure took access away: tell the customer's devices
    }
    let cacheUntil = report.validUntil  // nil: time alone changes nothing
    return (ledger, unlocksPro, cacheUntil)
}

/// The README's block on typed identifiers, compiled.
func readmeIdentifiers(
    report: EntitlementReport, transaction: TransactionPayload
) -> (wire: String?, chain: OriginalTransactionID?, fromApple: ProductID, unlocked: Bool) {
    let premium: ProductID = "com.example.premium"  // a literal makes any identifier
    let decision = report.decision(for: premium)  // keyed by ProductID, not String
    let fromApple = ProductID(transaction.productId ?? "")  // Apple's payloads keep Apple's String fields
    let chain: OriginalTransactionID? = decision?.originalTransactionId
    let reported: TransactionID? = decision?.transactionId
    let wire: String? = reported?.rawValue  // the bare string, as JSON writes it
    let unlocked = report.entitlements[EntitlementID("pro")] ?? false
    return (wire, chain, fromApple, unlocked)
}
