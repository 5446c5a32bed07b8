/// The candidates of a rebuild grouped by product id, in arrays rather than a dictionary: a report names few
/// products, so a product id is looked for among the few known, and hashed only once there are many (`ScannedTable`).
///
/// Invariants: `lists` has one element per product, at the position `positions` gives its id.
struct CandidatesByProduct {
    /// The product ids, in the order first seen, and the candidates of each at the same position.
    private var positions = ScannedTable<String>()
    private(set) var lists: [[Candidate]] = []

    var productIds: [String] { positions.keys }

    /// How many candidates each product's list has room for at first.
    static let reserved = 4

    mutating func append(_ candidate: consuming Candidate, productId: String) {
        lists[position(of: productId)].append(candidate)
    }

    /// The positions of the product ids in the order of their ids.
    var sortedPositions: [Int] {
        productIds.count < 2 ? Array(productIds.indices) : productIds.indices.sorted { productIds[$0] < productIds[$1] }
    }

    /// The candidates of the product ids in `products`, by product id.
    func candidates(of products: Set<String>) -> [String: [Candidate]] {
        var found: [String: [Candidate]] = [:]
        for position in productIds.indices where products.contains(productIds[position]) {
            found[productIds[position]] = lists[position]
        }
        return found
    }

    /// The position of `productId`, added where new.
    private mutating func position(of productId: String) -> Int {
        let (position, isNew) = positions.position(of: productId)
        guard isNew else { return position }
        // Room for a few: a product is usually named by several transactions (a family's copies, renewals).
        var list: [Candidate] = []
        list.reserveCapacity(Self.reserved)
        lists.append(list)
        return position
    }
}
