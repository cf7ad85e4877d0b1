import Foundation

/// The `jti`s of accepted service-auth tokens, each kept until its token expires, so that a token is
/// accepted once. Bounded: when full of unexpired entries it refuses new tokens (503) rather than
/// forget one that could then be replayed.
///
/// One cache per service, shared by every verifier of that service (it is a reference type).
// @unchecked Sendable: `entries` and `nextPurge` are read and written only under `lock`; `capacity` is a let.
public final class ServiceAuthReplayCache: @unchecked Sendable {
    // Safety: `entries` and `nextPurge` are touched only under `lock`; `capacity` is immutable.
    private let lock = NSLock()
    private var entries: [String: Int] = [:]
    private var nextPurge = 0
    /// The most token IDs held at once.
    public let capacity: Int

    /// A cache of at most `capacity` token IDs (default 100,000).
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// How many token IDs are held.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    /// Records `tokenID` of `issuer`, valid until `expiration` (Unix seconds), if it was not seen.
    ///
    /// - Returns: `.accepted`, `.replayed` when it is held already, `.full` when the cache holds
    ///   `capacity` unexpired IDs.
    func insert(issuer: String, tokenID: String, expiration: Int, now: Int) -> Outcome {
        let key = issuer + " " + tokenID
        lock.lock()
        defer { lock.unlock() }
        if let held = entries[key], held >= now { return .replayed }
        if entries.count >= capacity || now >= nextPurge {
            entries = entries.filter { $0.value >= now }
            nextPurge = UnixSeconds.adding(now, 60)
        }
        guard entries.count < capacity else { return .full }
        entries[key] = expiration
        return .accepted
    }

    enum Outcome {
        case accepted, replayed, full
    }
}
