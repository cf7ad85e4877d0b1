import AtprotoSyntax
import Foundation

/// Wraps any ``IdentityResolver`` with a cache: one lookup in flight per key, separate lifetimes for
/// answers and failures, stale answers served while one refresh runs, a bounded size.
///
/// ```swift
/// let resolver = CachingIdentityResolver(wrapping: try StandardIdentityResolver())
/// let identity = try await resolver.resolveIdentity(ATIdentifier(rawValue: "alice.example.com"))
/// // On the firehose: an #identity event for a DID
/// await resolver.invalidate(did: event.did)
/// ```
///
/// Only definite failures are cached (not found, a mismatch, a malformed answer), for
/// ``Configuration/failureLifetime``; a timeout or an unreachable server is never cached. The cache
/// lives in memory; ``snapshot()`` and ``restore(_:)`` let an app keep it across launches.
public actor CachingIdentityResolver: IdentityResolver {
    /// Lifetimes and size.
    public struct Configuration: Sendable, Hashable {
        /// How long an answer is fresh. Default 1 hour.
        public var answerLifetime: Duration
        /// How long a definite failure is remembered. Default 5 minutes.
        public var failureLifetime: Duration
        /// How long past its freshness an answer may still be served while one refresh runs in the
        /// background. Default 1 day.
        public var staleLifetime: Duration
        /// The most entries kept per table (handles, documents, identities); the least recently used
        /// go first. Default 10,000.
        public var maximumEntries: Int

        /// Creates a configuration.
        public init(
            answerLifetime: Duration = .seconds(3600),
            failureLifetime: Duration = .seconds(300),
            staleLifetime: Duration = .seconds(86_400),
            maximumEntries: Int = 10_000
        ) {
            self.answerLifetime = answerLifetime
            self.failureLifetime = failureLifetime
            self.staleLifetime = staleLifetime
            self.maximumEntries = max(1, maximumEntries)
        }
    }

    /// The resolver asked on a miss.
    public nonisolated let wrapped: any IdentityResolver
    /// Lifetimes and size.
    public nonisolated let configuration: Configuration
    private let now: @Sendable () -> Double
    func clockNow() -> Double { now() }
    let handles: CacheTable<ATHandle, DID>
    let documents: CacheTable<DID, DIDDocument>
    let identities: CacheTable<String, AtprotoIdentity>

    /// Wraps `resolver`.
    ///
    /// - Parameters:
    ///   - resolver: The resolver asked on a miss.
    ///   - configuration: How long answers and failures are kept, and how many.
    ///   - clock: Seconds on a monotonic clock; tests pass their own to move time.
    public init(
        wrapping resolver: any IdentityResolver,
        configuration: Configuration = Configuration(),
        clock: (@Sendable () -> Double)? = nil
    ) {
        self.wrapped = resolver
        self.configuration = configuration
        self.now = clock ?? MonotonicSeconds.now
        self.handles = CacheTable(capacity: configuration.maximumEntries)
        self.documents = CacheTable(capacity: configuration.maximumEntries)
        self.identities = CacheTable(capacity: configuration.maximumEntries)
    }

    /// The DID of `handle`, from the cache when fresh.
    public func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        let resolver = wrapped
        let key = handle.normalized
        return try await lookup(handles, key) { () async -> Result<DID, IdentityError> in
            do throws(IdentityError) { return .success(try await resolver.resolveHandle(key)) } catch {
                return .failure(error)
            }
        }
    }

    /// The document of `did`, from the cache when fresh.
    public func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        let resolver = wrapped
        return try await lookup(documents, did) { () async -> Result<DIDDocument, IdentityError> in
            do throws(IdentityError) { return .success(try await resolver.resolveDID(did)) } catch {
                return .failure(error)
            }
        }
    }

    /// The identity of `identifier` (as the wrapped resolver checks it), from the cache when fresh.
    public func resolveIdentity(_ identifier: ATIdentifier) async throws(IdentityError) -> AtprotoIdentity {
        let resolver = wrapped
        let key = identifier.handle?.normalized.rawValue ?? identifier.rawValue
        return try await lookup(identities, key) { () async -> Result<AtprotoIdentity, IdentityError> in
            do throws(IdentityError) {
                let identity = try await resolver.resolveIdentity(ATIdentifier(rawValue: key))
                await self.remember(identity)
                return .success(identity)
            } catch { return .failure(error) }
        }
    }

    /// Stores the parts of a resolved identity: its document, and its handle when verified.
    private func remember(_ identity: AtprotoIdentity) {
        let time = now()
        let fresh = time + configuration.answerLifetime.seconds
        let stale = fresh + configuration.staleLifetime.seconds
        documents.store(
            identity.did, result: .success(identity.document), freshUntil: fresh, staleUntil: stale, at: time)
        if let handle = identity.verifiedHandle {
            handles.store(handle, result: .success(identity.did), freshUntil: fresh, staleUntil: stale, at: time)
        }
    }

    /// Forgets everything cached about `did`: its document, its identity, and handles that named it;
    /// then the wrapped resolver forgets what it holds. Call it when the firehose announces an
    /// `#identity` event for the DID.
    public func invalidate(did: DID) async {
        documents.remove(did)
        identities.remove(did.rawValue)
        identities.removeAll { $0.did == did }
        handles.removeAll { $0 == did }
        await wrapped.invalidate(did: did)
    }

    /// Forgets what is cached about `handle`.
    public func invalidate(handle: ATHandle) {
        let key = handle.normalized
        handles.remove(key)
        identities.remove(key.rawValue)
    }

    /// Forgets everything.
    public func removeAll() {
        handles.removeAll { _ in true }
        documents.removeAll { _ in true }
        identities.removeAll { _ in true }
    }

    /// How many entries each table holds (answers and remembered failures).
    public var entryCounts: (handles: Int, documents: Int, identities: Int) {
        (handles.count, documents.count, identities.count)
    }

    // MARK: Lookup

    private func lookup<Key: Hashable & Sendable, Value: Sendable>(
        _ table: CacheTable<Key, Value>,
        _ key: Key,
        _ fetch: @escaping @Sendable () async -> Result<Value, IdentityError>
    ) async throws(IdentityError) -> Value {
        let time = now()
        if let entry = table.entry(key, usedAt: time) {
            if time < entry.freshUntil { return try entry.result.get() }
            if case .success(let value) = entry.result, time < entry.staleUntil {
                if table.inFlight[key] == nil { startLookup(table, key, fetch) }
                return value
            }
        }
        let task = table.inFlight[key] ?? startLookup(table, key, fetch)
        return try await task.value.get()
    }

    @discardableResult
    private func startLookup<Key: Hashable & Sendable, Value: Sendable>(
        _ table: CacheTable<Key, Value>,
        _ key: Key,
        _ fetch: @escaping @Sendable () async -> Result<Value, IdentityError>
    ) -> Task<Result<Value, IdentityError>, Never> {
        let task = Task {
            let result = await fetch()
            self.finish(table, key, result)
            return result
        }
        table.inFlight[key] = task
        return task
    }

    private func finish<Key: Hashable & Sendable, Value: Sendable>(
        _ table: CacheTable<Key, Value>,
        _ key: Key,
        _ result: Result<Value, IdentityError>
    ) {
        table.inFlight[key] = nil
        let time = now()
        switch result {
        case .success:
            let fresh = time + configuration.answerLifetime.seconds
            table.store(
                key, result: result, freshUntil: fresh, staleUntil: fresh + configuration.staleLifetime.seconds,
                at: time)
        case .failure(let error) where Self.isDefinite(error):
            let fresh = time + configuration.failureLifetime.seconds
            table.store(key, result: result, freshUntil: fresh, staleUntil: fresh, at: time)
        case .failure:
            // A passing fault: keep a stale answer if there is one, remember nothing new.
            break
        }
    }

    /// Failures that say something about the identity, not about the network.
    static func isDefinite(_ error: IdentityError) -> Bool {
        [
            .invalidIdentifier, .handleNotFound, .handleConflict, .handleMismatch, .unsupportedDIDMethod,
            .didNotFound, .documentMismatch, .malformedAnswer, .answerTooLarge,
        ].contains(error.code)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Seconds on the continuous clock since the first call.
enum MonotonicSeconds {
    private static let origin = ContinuousClock.now

    @Sendable static func now() -> Double { origin.duration(to: ContinuousClock.now).seconds }
}
