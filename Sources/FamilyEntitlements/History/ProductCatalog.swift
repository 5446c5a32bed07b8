/// What the app sells, as far as the rebuild needs to know: entitlements, product types and durations.
///
/// Optional. Without a catalog each product id is its own entitlement. With one, several products may unlock the same
/// entitlement (a monthly and a yearly plan both unlock `pro`), and a product the catalog lacks unlocks nothing. A
/// non-renewing subscription needs its `duration` here, because Apple sends no expiry for it. Naming the app's
/// `bundleId` makes entries of any other app grant nothing. The JSON form is
/// `{"bundleId": "com.example.app", "products": {"<productId>": {"entitlements": ["pro"],
/// "type": "Non-Renewing Subscription", "duration": "P1Y"}}}`. Decoding it is strict: a key it does not know (a
/// misspelt `entitlemnts`, or a history file passed as the catalog) is a `PayloadDecodingError` with code
/// `unknown_key` naming the JSON path, such as `products.pro.entitlemnts`, never a catalog that silently unlocks
/// nothing.
public struct ProductCatalog: Hashable, Sendable {
    /// One product of the catalog.
    public struct Product: Hashable, Sendable {
        /// The entitlements the product unlocks; absent means the product id is its own entitlement.
        public var entitlements: [EntitlementID]?
        /// The product's type, used where a transaction lacks `type`.
        public var type: ProductType?
        /// How long a non-renewing subscription lasts from its purchase date.
        public var duration: ISO8601Duration?

        public init(entitlements: [EntitlementID]? = nil, type: ProductType? = nil, duration: ISO8601Duration? = nil) {
            self.entitlements = entitlements
            self.type = type
            self.duration = duration
        }
    }

    /// The app the catalog describes, as Apple's `bundleId`; when set, entries of any other app never grant.
    public var bundleId: String?
    /// The products by product id.
    public var products: [ProductID: Product]

    public init(bundleId: String? = nil, products: [ProductID: Product] = [:]) {
        self.bundleId = bundleId
        self.products = products
    }

    /// The entitlements a product unlocks: its catalog entitlements, or its own id.
    public func entitlements(of productId: ProductID) -> [EntitlementID] {
        products[productId]?.entitlements ?? [EntitlementID(productId)]
    }
}

extension ProductCatalog: Codable {
    enum CodingKeys: String, CodingKey { case bundleId, products }

    public init(from decoder: any Decoder) throws {
        try UnknownKeys.refuse(in: decoder, known: ["bundleId", "products"], of: "a product catalog")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        products = try container.decodeIfPresent([ProductID: Product].self, forKey: .products) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encode(products, forKey: .products)
    }
}

extension ProductCatalog.Product: Codable {
    enum CodingKeys: String, CodingKey { case entitlements, type, duration }

    public init(from decoder: any Decoder) throws {
        try UnknownKeys.refuse(in: decoder, known: ["entitlements", "type", "duration"], of: "a catalog product")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entitlements = try container.decodeIfPresent([EntitlementID].self, forKey: .entitlements)
        type = try container.decodeIfPresent(ProductType.self, forKey: .type)
        duration = try container.decodeIfPresent(ISO8601Duration.self, forKey: .duration)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(entitlements, forKey: .entitlements)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(duration, forKey: .duration)
    }
}

extension ProductCatalog: AppStorePayload {}
