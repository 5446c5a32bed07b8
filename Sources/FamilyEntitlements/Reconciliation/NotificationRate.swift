/// A count out of a total, such as REVOKE notifications out of all FAMILY_SHARED ones.
public struct NotificationRate: Hashable, Sendable, CustomStringConvertible {
    /// The notifications counted.
    public var count: Int
    /// The notifications they are counted among.
    public var total: Int

    public init(count: Int, total: Int) {
        self.count = count
        self.total = total
    }

    /// `count` as a fraction of `total` between 0 and 1, or nil when `total` is 0.
    public var fraction: Double? {
        total == 0 ? nil : Double(count) / Double(total)
    }

    public var description: String { "\(count)/\(total)" }
}
