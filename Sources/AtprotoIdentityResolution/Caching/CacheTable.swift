/// One table of ``CachingIdentityResolver``: entries with their lifetimes, least-recently-used
/// eviction, and the lookups in flight. Confined to the actor that owns it.
final class CacheTable<Key: Hashable & Sendable, Value: Sendable> {
    struct Entry {
        var result: Result<Value, IdentityError>
        var freshUntil: Double
        var staleUntil: Double
        var lastUsed: Double
    }

    let capacity: Int
    private(set) var entries: [Key: Entry] = [:]
    var inFlight: [Key: Task<Result<Value, IdentityError>, Never>] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The entry for `key`, marked as used at `time`.
    func entry(_ key: Key, usedAt time: Double) -> Entry? {
        guard var entry = entries[key] else { return nil }
        guard time < entry.staleUntil else {
            entries[key] = nil
            return nil
        }
        entry.lastUsed = time
        entries[key] = entry
        return entry
    }

    func store(
        _ key: Key, result: Result<Value, IdentityError>, freshUntil: Double, staleUntil: Double, at time: Double
    ) {
        entries[key] = Entry(result: result, freshUntil: freshUntil, staleUntil: staleUntil, lastUsed: time)
        guard entries.count > capacity else { return }
        // Evict the least recently used eighth at once, so a full table does not sort on every insert.
        let excess = entries.count - capacity + max(0, capacity / 8 - 1)
        let oldest = entries.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(excess).map(\.key)
        for key in oldest { entries[key] = nil }
    }

    func remove(_ key: Key) {
        entries[key] = nil
    }

    /// Removes every entry whose answer matches `predicate` (failures are kept).
    func removeAll(where predicate: (Value) -> Bool) {
        for (key, entry) in entries {
            if case .success(let value) = entry.result, predicate(value) { entries[key] = nil }
        }
    }
}
