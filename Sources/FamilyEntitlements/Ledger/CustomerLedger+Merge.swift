extension CustomerLedger {
    /// Absorbs every entry another ledger holds: the union of what both hold, as when two writers absorbed
    /// different notifications into copies of one stored ledger and the second must not drop the first's.
    ///
    /// Merging is absorbing: the ledgers of any split of a set of entries, merged in any order and any number of
    /// times, are equal to one ledger that absorbed them all (docs/ledger.md), so merge is commutative, associative
    /// and idempotent, in the entries held and in the decisions they lead to. Of compacted ledgers, the merge decides
    /// as the union of everything at every instant at or after the later of their compaction instants.
    ///
    /// Returns what each entry of `other` changed, in the canonical order of `other.history`.
    @discardableResult
    public mutating func merge(_ other: CustomerLedger) -> [LedgerChange] {
        absorb(other.history)
    }

    /// The union of this ledger and another: `merge(_:)` on a copy.
    public func merging(_ other: CustomerLedger) -> CustomerLedger {
        var merged = self
        merged.merge(other)
        return merged
    }
}
