#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The admitted transactions of one rebuild, read where they lie.
///
/// A payload is a large value with many strings: reading one out of an array copies it and retains each string, which
/// dominated the rebuild of a long history. Passing a payload on, even as `borrowing`, copies it when it is read from
/// memory the compiler cannot see is left alone. So a rule reads a payload through a `PayloadView`, which names the
/// payload's fields (`view.productId`) and reads each in place.
///
/// Invariants, which only the callers can keep:
/// - A store is made only by `reading(_:_:)`, and is valid only while its body runs. It must not escape the body: no
///   value that outlives the body may hold it or a view of it. The rebuild's `Evaluation` and `Chain`s hold one, and
///   are made, read and dropped inside the body (`Rebuild.report(of:findingValidUntil:budget:)`).
/// - The array is not changed while the body runs: the body reaches it only through the store.
/// - A position is checked against the store's count before it is read, as an array checks it, so that a wrong
///   position stops the program rather than reading memory that is not a payload.
///
/// Nothing outside `Rebuild/Storage` names an unsafe pointer.
struct PayloadStore {
    private let buffer: UnsafeBufferPointer<TransactionPayload>

    private init(_ buffer: UnsafeBufferPointer<TransactionPayload>) { self.buffer = buffer }

    /// Calls `body` with a store of `payloads`, valid only while `body` runs.
    static func reading<Result>(
        _ payloads: [TransactionPayload], _ body: (PayloadStore) throws -> Result
    ) rethrows -> Result {
        try payloads.withUnsafeBufferPointer { try body(PayloadStore($0)) }
    }

    var count: Int { buffer.count }
    var indices: Range<Int> { buffer.indices }

    /// Whether `index` is a position of the store: the check made before every read.
    func holds(_ index: Int) -> Bool { index >= 0 && index < buffer.count }

    /// The payload at `index`, read in place.
    @inline(__always)
    subscript(index: Int) -> PayloadView {
        precondition(holds(index), "PayloadStore: position out of range")
        // Not nil: the store holds a payload at `index`.
        return PayloadView(buffer.baseAddress.unsafelyUnwrapped + index)
    }
}

/// A transaction payload read in place: `view.productId` reads that field alone, and nothing is copied until `copy`.
///
/// Each field a rule reads is named here, read as `pointer.pointee.field`, which the compiler makes a read of that
/// field. (A key path applied through `@dynamicMemberLookup` was measured to copy the whole payload first, at some
/// call sites, which made a 10-transaction rebuild 25 % more instructions.)
///
/// Invariants: a view is made only by a `PayloadStore`, valid while the store is, or by `reading(_:_:)`, valid while
/// its body runs; it must not escape either.
struct PayloadView {
    private let pointer: UnsafePointer<TransactionPayload>

    fileprivate init(_ pointer: UnsafePointer<TransactionPayload>) { self.pointer = pointer }

    /// Calls `body` with a view of `payload`, valid only while `body` runs.
    static func reading<Result>(_ payload: TransactionPayload, _ body: (PayloadView) throws -> Result) rethrows
        -> Result
    {
        try withUnsafePointer(to: payload) { try body(PayloadView($0)) }
    }

    /// The payload, copied out: where a rule keeps it or hands it on whole.
    var copy: TransactionPayload { pointer.pointee }

    var originalTransactionId: String? { pointer.pointee.originalTransactionId }
    var transactionId: String? { pointer.pointee.transactionId }
    var productId: String? { pointer.pointee.productId }
    var environment: Environment? { pointer.pointee.environment }
    var type: ProductType? { pointer.pointee.type }
    var inAppOwnershipType: OwnershipType? { pointer.pointee.inAppOwnershipType }
    var bundleId: String? { pointer.pointee.bundleId }
    var purchaseDate: Date? { pointer.pointee.purchaseDate }
    var expiresDate: Date? { pointer.pointee.expiresDate }
    var signedDate: Date? { pointer.pointee.signedDate }
    var revocationDate: Date? { pointer.pointee.revocationDate }
    var isUpgraded: Bool? { pointer.pointee.isUpgraded }
    var quantity: Int32? { pointer.pointee.quantity }
    var price: Int64? { pointer.pointee.price }
    var originalPurchaseDate: Date? { pointer.pointee.originalPurchaseDate }
    var revocationReason: RevocationReason? { pointer.pointee.revocationReason }
    var revocationType: RevocationType? { pointer.pointee.revocationType }
    var offerType: OfferType? { pointer.pointee.offerType }
    var offerDiscountType: OfferDiscountType? { pointer.pointee.offerDiscountType }
    var currency: String? { pointer.pointee.currency }
    var id: String { pointer.pointee.id }
    var saysRevoked: Bool { pointer.pointee.saysRevoked }
}
