/// What the evaluation of a chain reads of each transaction, gathered in one pass over the history.
///
/// A long history does not fit in the processor's caches, and a chain's transactions lie scattered through it;
/// reading these few fields in one sequential pass, then evaluating from them, keeps the rebuild close to linear.
///
/// Invariants: `index` is the transaction's position in the rebuild's admitted transactions (its `PayloadStore`), and
/// `product` is a position in the `productIds` of the chain the entry belongs to; only `ChainEntries.append` makes an
/// entry, so that an entry never names a product outside its chain.
struct ChainEntry {
    /// The transaction's position in the admitted transactions.
    let index: Int
    /// The transaction's product, as a position in its chain's `productIds`.
    let product: Int
    /// The dates admission made of the transaction.
    let dates: TransactionDates
    let isUpgraded: Bool

    /// Admission keeps no transaction without a purchaseDate.
    var purchase: RuleInstant { dates.purchase ?? .distantPast }
    var expires: RuleInstant? { dates.expires }
    var revocation: RuleInstant? { dates.revocation }
    var signed: RuleInstant? { dates.signed }
}

/// The entries of one chain as the history gives them, with the chain's products.
///
/// Invariants: `entries` and `productIds` only grow, through `append`; every entry's `product` is below
/// `productIds.count`; `productChanges` holds, in increasing order, each position whose product differs from the one
/// before it.
struct ChainEntries {
    private(set) var entries: [ChainEntry] = []
    /// The products the chain names, in the order first seen: usually one to three.
    private(set) var productIds: [String] = []
    /// Each product's position in `productIds`, by its number in the rebuild's `ProductNumbers`.
    private var positions = ScannedTable<Int>()
    /// The product number of the entry appended last, or -1.
    private var lastNumber = -1
    /// Whether each entry was purchased after the one before it, as a history in purchase order has them: the chain
    /// is then in order without reading its entries again, which a long history would fetch from memory once more.
    private(set) var isInPurchaseOrder = true
    /// The positions whose product differs from the one before, in order.
    private(set) var productChanges: [Int] = []

    /// Adds the entry of an admitted auto-renewable transaction from its record, whose product is a number of
    /// `products`; the first entry reserves room for `count`, as many as the chain may take.
    mutating func append(_ record: ChainRecord, of products: ProductNumbers, reserving count: Int) {
        if entries.isEmpty { entries.reserveCapacity(count) }
        // Renewals usually name the product of the transaction before them: one comparison, no search.
        var product = entries.last?.product ?? 0
        if record.product != lastNumber {
            let found = positions.position(of: record.product)
            if found.isNew { productIds.append(products.ids[record.product]) }
            (product, lastNumber) = (found.position, record.product)
        }
        let entry = ChainEntry(
            index: record.index, product: product, dates: record.dates, isUpgraded: record.isUpgraded)
        if let last = entries.last {
            if entry.purchase <= last.purchase { isInPurchaseOrder = false }
            if entry.product != last.product { productChanges.append(entries.count) }
        }
        entries.append(entry)
    }
}
