import AtprotoSyntax
import Foundation

extension CachingIdentityResolver {
    /// The cache's answers, to save and restore across launches (failures are not kept).
    ///
    /// Lifetimes are kept as wall-clock dates, so a snapshot restored a day later holds only what is
    /// still within its stale lifetime, and serves those entries stale until refreshed.
    public struct Snapshot: Sendable, Hashable, Codable {
        /// One cached answer and until when it is fresh and may be served stale.
        public struct Entry<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
            /// The answer.
            public var value: Value
            /// Until when the answer is fresh.
            public var freshUntil: Date
            /// Until when the answer may be served while a refresh runs.
            public var staleUntil: Date
        }

        /// Handles and their DIDs, keyed by lower-cased handle.
        public var handles: [String: Entry<DID>]
        /// DID documents, keyed by DID.
        public var documents: [String: Entry<DIDDocument>]
        /// Identities, keyed by DID or lower-cased handle.
        public var identities: [String: Entry<AtprotoIdentity>]
    }

    /// The answers cached now.
    public func snapshot() -> Snapshot {
        let time = clockNow()
        let wall = Date()
        func entries<Key, Value>(_ table: CacheTable<Key, Value>, key: (Key) -> String) -> [String: Snapshot.Entry<
            Value
        >] {
            var result: [String: Snapshot.Entry<Value>] = [:]
            for (tableKey, entry) in table.entries {
                guard case .success(let value) = entry.result, time < entry.staleUntil else { continue }
                result[key(tableKey)] = Snapshot.Entry(
                    value: value, freshUntil: wall.addingTimeInterval(entry.freshUntil - time),
                    staleUntil: wall.addingTimeInterval(entry.staleUntil - time))
            }
            return result
        }
        return Snapshot(
            handles: entries(handles) { $0.rawValue },
            documents: entries(documents) { $0.rawValue },
            identities: entries(identities) { $0 })
    }

    /// Adds a snapshot's answers that are still within their stale lifetime (entries already cached
    /// are replaced).
    public func restore(_ snapshot: Snapshot) {
        let time = clockNow()
        let wall = Date()
        func restore<Key, Value>(
            _ table: CacheTable<Key, Value>, _ entries: [String: Snapshot.Entry<Value>], key: (String) -> Key
        ) {
            for (text, entry) in entries {
                let stale = time + entry.staleUntil.timeIntervalSince(wall)
                guard stale > time else { continue }
                table.store(
                    key(text), result: .success(entry.value),
                    freshUntil: time + entry.freshUntil.timeIntervalSince(wall),
                    staleUntil: stale, at: time)
            }
        }
        restore(handles, snapshot.handles) { ATHandle(rawValue: $0).normalized }
        restore(documents, snapshot.documents) { DID(rawValue: $0) }
        restore(identities, snapshot.identities) { $0 }
    }
}
