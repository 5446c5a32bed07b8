/// A transaction id as a key of the newest snapshots. An id written as a decimal number without leading zeros, as
/// Apple writes them, is held as its value, so that the key is hashed without its string and the snapshots' dictionary
/// holds no string to retain and release (a long history's ids are each a string of their own in memory, fetched
/// again by each visit); any other id is held as it is. Two ids are the same key exactly when they are the same
/// string: a number is never held as text.
///
/// Invariants: `.number` holds exactly the ids `value(of:)` reads, and `.text` only the others, so that equal keys are
/// equal ids and `id` gives the id back.
enum TransactionKey: Hashable {
    case number(UInt64)
    case text(String)

    init(_ id: String) {
        self = Self.value(of: id).map(TransactionKey.number) ?? .text(id)
    }

    /// The value of `id` where it is written as a decimal without leading zeros, as `number(_:)` reads it. In place
    /// where the string is stored as contiguous UTF-8, as a decoded one is; byte by byte otherwise (a string bridged
    /// from Foundation on Apple systems), so that the same id always has the same value.
    static func value(of id: String) -> UInt64? {
        id.utf8.withContiguousStorageIfAvailable { number($0) } ?? number(id.utf8)
    }

    /// The value of an id written as a decimal without leading zeros, of at most 19 digits (below 2^64); "0" alone is
    /// one, so that the number gives back the id. Nil for any other id.
    static func number(_ bytes: some Collection<UInt8>) -> UInt64? {
        guard let first = bytes.first, bytes.count <= 19, first != UInt8(ascii: "0") || bytes.count == 1 else {
            return nil
        }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }

    /// The transaction id.
    var id: String {
        switch self {
        case .number(let value): String(value)
        case .text(let id): id
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .number(let value): hasher.combine(value)
        case .text(let id): hasher.combine(id)
        }
    }
}

/// A key of a transaction id: the id's value where it is a number (`UInt64`), or `TransactionKey`, each giving two ids
/// the same key exactly where they are the same string.
protocol TransactionIDKey: Hashable {
    init?(transactionId: String)
    var transactionId: String { get }
}

extension UInt64: TransactionIDKey {
    init?(transactionId: String) {
        guard let value = TransactionKey.value(of: transactionId) else { return nil }
        self = value
    }

    var transactionId: String { String(self) }
}

extension TransactionKey: TransactionIDKey {
    init?(transactionId: String) { self.init(transactionId) }

    var transactionId: String { id }
}
