import Foundation

/// The `jti`s of accepted service-auth tokens, each kept until its token expires, so that a token is
/// accepted once.
///
/// Bounded twice. Each issuer (a DID, whatever its `iss` fragment) holds at most
/// ``perIssuerCapacity`` live IDs: one that sends more tokens than that within their lifetimes is
/// refused (429 `RateLimitExceeded`, with `Retry-After`) while everyone else still gets in. And the
/// whole cache holds at most ``capacity``: when that many live IDs from many issuers fill it, new
/// tokens are refused (503) rather than an ID forgotten that could then be replayed.
///
/// One cache per service, shared by every verifier of that service (it is a reference type).
// @unchecked Sendable: `byIssuer`, `count`'s total and the purge times are read and written only under `lock`.
public final class ServiceAuthReplayCache: @unchecked Sendable {
    // Safety: every `var` is touched only under `lock`; the capacities are immutable.
    private let lock = NSLock()
    /// Each issuer's held IDs (`jti`) with their tokens' `exp`.
    private var byIssuer: [String: [String: Int]] = [:]
    private var total = 0
    private var nextPurge = Int.min
    private var lastPurge = Int.min
    /// The most token IDs held at once.
    public let capacity: Int
    /// The most token IDs one issuer holds at once.
    public let perIssuerCapacity: Int

    /// A cache of at most `capacity` token IDs (default 100,000), at most `perIssuerCapacity` of
    /// them (default 1,000, and never above `capacity`) from any one issuer.
    ///
    /// A PDS mints a fresh token for each call it proxies, living 60 s: 1,000 live tokens are an
    /// issuer calling this service about 16 times a second. Raise it for a service that takes
    /// longer-lived tokens (up to an hour, bound to a method) or busier callers.
    public init(capacity: Int = 100_000, perIssuerCapacity: Int = 1_000) {
        self.capacity = max(1, capacity)
        self.perIssuerCapacity = min(max(1, perIssuerCapacity), self.capacity)
    }

    /// How many token IDs are held.
    public var count: Int {
        lock.withLock { total }
    }

    /// Records `tokenID` of `issuer` (its DID), valid until `expiration` (Unix seconds), if it was not
    /// seen.
    ///
    /// - Returns: `.accepted`; `.replayed` when it is held already; `.issuerFull` when the issuer
    ///   holds ``perIssuerCapacity`` live IDs, with the seconds until its first one expires; `.full`
    ///   when the cache holds ``capacity`` live IDs.
    func insert(issuer: String, tokenID: String, expiration: Int, now: Int) -> Outcome {
        lock.withLock {
            if let held = byIssuer[issuer]?[tokenID], held > now { return .replayed }
            // A held ID whose token has expired can go: its token can no longer pass. All of them every
            // minute; when full, at most once a second (the clock moves in seconds).
            if now >= nextPurge || (total >= capacity && now > lastPurge) { purge(now: now) }
            var held = byIssuer[issuer] ?? [:]
            if held.count >= perIssuerCapacity {
                let before = held.count
                held = held.filter { $0.value > now }
                total -= before - held.count
                byIssuer[issuer] = held.isEmpty ? nil : held
                if held.count >= perIssuerCapacity {
                    let first = held.values.min() ?? now
                    return .issuerFull(retryAfter: max(1, UnixSeconds.subtracting(first, now)))
                }
            }
            guard total < capacity else { return .full }
            if held.updateValue(expiration, forKey: tokenID) == nil { total += 1 }
            byIssuer[issuer] = held
            return .accepted
        }
    }

    /// Drops every ID whose token has expired. Called under `lock`.
    private func purge(now: Int) {
        var kept: [String: [String: Int]] = [:]
        var count = 0
        for (issuer, held) in byIssuer {
            let live = held.filter { $0.value > now }
            if !live.isEmpty {
                kept[issuer] = live
                count += live.count
            }
        }
        byIssuer = kept
        total = count
        lastPurge = now
        nextPurge = UnixSeconds.adding(now, 60)
    }

    enum Outcome: Equatable {
        case accepted, replayed, full
        case issuerFull(retryAfter: Int)
    }
}
