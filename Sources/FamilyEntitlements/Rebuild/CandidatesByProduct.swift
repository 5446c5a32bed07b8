/// The candidates of a rebuild grouped by product id, in arrays rather than a dictionary: a report names few
/// products, so a product id is looked for among the few known, and hashed only once there are many.
struct CandidatesByProduct {
    /// The product ids, in the order first seen, and the candidates of each at the same position.
    private(set) var productIds: [String] = []
    private(set) var lists: [[Candidate]] = []
    /// The position of each product id, kept only once there are more than `scanned` of them.
    private var positions: [String: Int] = [:]
    /// How many product ids are looked for one by one before a dictionary holds their positions.
    static let scanned = 8

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
        if positions.isEmpty, productIds.count > Self.scanned {
            for (position, known) in productIds.enumerated() { positions[known] = position }
        }
        if let found = positions.isEmpty ? productIds.firstIndex(of: productId) : positions[productId] {
            return found
        }
        productIds.append(productId)
        // Room for a few: a product is usually named by several transactions (a family's copies, renewals).
        var list: [Candidate] = []
        list.reserveCapacity(Self.reserved)
        lists.append(list)
        if !positions.isEmpty { positions[productId] = productIds.count - 1 }
        return productIds.count - 1
    }
}
