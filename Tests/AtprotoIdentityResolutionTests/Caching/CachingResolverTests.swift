import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

// @unchecked Sendable: `seconds` is read and written under `lock`.
/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 0.0

    func advance(_ delta: Double) { lock.withLock { seconds += delta } }
    var now: @Sendable () -> Double { { [self] in lock.withLock { seconds } } }
}

final class CachingResolverTests: XCTestCase {
    let alice = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"

    /// A standard resolver over the loopback server: handles by HTTPS only, DIDs from its /plc.
    func backend(_ server: IdentityTestServer) -> StandardIdentityResolver {
        StandardIdentityResolver(
            handles: WellKnownHandleResolver(hostOverrides: HostOverrides(["alice.test": server.baseURL])),
            dids: PLCDirectoryResolver(directory: server.baseURL.appendingPathComponent("plc")))
    }

    func testAHundredConcurrentLookupsOfOneHandleMakeOneRequest() async throws {
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: alice, delay: 0.3)
        let cache = CachingIdentityResolver(wrapping: backend(server))
        let dids = try await withThrowingTaskGroup(of: DID.self) { group in
            for index in 0..<100 {
                group.addTask {
                    try await cache.resolveHandle(ATHandle(rawValue: index % 2 == 0 ? "alice.test" : "ALICE.test"))
                }
            }
            return try await group.reduce(into: [DID]()) { $0.append($1) }
        }
        XCTAssertEqual(dids.count, 100)
        XCTAssertEqual(Set(dids.map(\.rawValue)), [alice])
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 1)
    }

    func testAnswersLiveTheirLifetimeThenAreServedStaleWhileOneRefreshRuns() async throws {
        let server = try IdentityTestServer()
        let clock = ManualClock()
        server.route("/.well-known/atproto-did", text: alice)
        let cache = CachingIdentityResolver(
            wrapping: backend(server),
            configuration: .init(
                answerLifetime: .seconds(60), failureLifetime: .seconds(5), staleLifetime: .seconds(600)),
            clock: clock.now)
        let handle = ATHandle(rawValue: "alice.test")
        _ = try await cache.resolveHandle(handle)
        clock.advance(59)
        _ = try await cache.resolveHandle(handle)
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 1, "fresh: no request")

        // Stale: the old answer comes back at once while one refresh (slow) runs.
        let other = "did:plc:bbbbbbbbbbbbbbbbbbbbbbbb"
        server.route("/.well-known/atproto-did", text: other, delay: 0.3)
        clock.advance(2)
        let stale1 = try await cache.resolveHandle(handle)
        let stale2 = try await cache.resolveHandle(handle)
        XCTAssertEqual([stale1.rawValue, stale2.rawValue], [alice, alice])
        try await waitUntil { server.count("/.well-known/atproto-did") == 2 }
        try await Task.sleep(for: .milliseconds(500))
        let refreshed = try await cache.resolveHandle(handle)
        XCTAssertEqual(refreshed.rawValue, other)
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 2, "one refresh for two stale reads")

        // Past the stale lifetime: the caller waits for a new answer.
        server.route("/.well-known/atproto-did", text: alice)
        clock.advance(60 + 601)
        let renewed = try await cache.resolveHandle(handle)
        XCTAssertEqual(renewed.rawValue, alice)
    }

    func testDefiniteFailuresAreRememberedBrieflyAndPassingFaultsNotAtAll() async throws {
        let server = try IdentityTestServer()
        let clock = ManualClock()
        let cache = CachingIdentityResolver(
            wrapping: backend(server), configuration: .init(failureLifetime: .seconds(5)), clock: clock.now)
        let handle = ATHandle(rawValue: "alice.test")
        for _ in 0..<3 {
            let error = await identityError { _ = try await cache.resolveHandle(handle) }
            XCTAssertEqual(error?.code, .handleNotFound)
        }
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 1)
        clock.advance(6)
        server.route("/.well-known/atproto-did", text: alice, status: 503)
        for _ in 0..<2 {
            let error = await identityError { _ = try await cache.resolveHandle(handle) }
            XCTAssertEqual(error?.code, .unexpectedStatus)
        }
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 1 + 2, "a 503 is not remembered")
    }

    /// A resolver that wraps a cache, as an app's logging or metrics wrapper would.
    private struct Wrapper: IdentityResolver {
        let inner: any IdentityResolver
        func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
            try await inner.resolveHandle(handle)
        }
        func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument { try await inner.resolveDID(did) }
        func invalidate(did: DID) async { await inner.invalidate(did: did) }
    }

    func testInvalidateThroughTheProtocolReachesACacheBelowWrappers() async throws {
        let server = try IdentityTestServer()
        server.route("/plc/" + alice, text: documentText(did: alice, handle: "alice.test"))
        let inner = CachingIdentityResolver(wrapping: backend(server))
        let outer = CachingIdentityResolver(wrapping: Wrapper(inner: inner))
        let resolver: any IdentityResolver = Wrapper(inner: outer)
        _ = try await resolver.resolveDID(DID(rawValue: alice))
        let before = [await inner.entryCounts.documents, await outer.entryCounts.documents]
        XCTAssertEqual(before, [1, 1])
        await resolver.invalidate(did: DID(rawValue: alice))
        let after = [await inner.entryCounts.documents, await outer.entryCounts.documents]
        XCTAssertEqual(after, [0, 0], "each cache forgets the DID, the outer one forwarding to the inner one")
    }

    func testInvalidateForgetsADIDAndTheHandlesThatNamedIt() async throws {
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: alice)
        server.route("/plc/" + alice, text: documentText(did: alice, handle: "alice.test"))
        let cache = CachingIdentityResolver(wrapping: backend(server))
        _ = try await cache.resolveIdentity(ATIdentifier(rawValue: "alice.test"))
        _ = try await cache.resolveDID(DID(rawValue: alice))
        _ = try await cache.resolveHandle(ATHandle(rawValue: "alice.test"))
        let before = await cache.entryCounts
        XCTAssertEqual([before.handles, before.documents, before.identities], [1, 1, 1])
        await cache.invalidate(did: DID(rawValue: alice))
        let after = await cache.entryCounts
        XCTAssertEqual([after.handles, after.documents, after.identities], [0, 0, 0])
        _ = try await cache.resolveHandle(ATHandle(rawValue: "alice.test"))
        await cache.invalidate(handle: ATHandle(rawValue: "ALICE.test"))
        let afterHandle = await cache.entryCounts
        XCTAssertEqual(afterHandle.handles, 0)
    }

    func testTheCacheStaysWithinItsSize() async throws {
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: alice)
        let overrides = HostOverrides(
            Dictionary(uniqueKeysWithValues: (0..<40).map { ("h\($0).test", server.baseURL) }))
        let cache = CachingIdentityResolver(
            wrapping: StandardIdentityResolver(
                handles: WellKnownHandleResolver(hostOverrides: overrides),
                dids: PLCDirectoryResolver(directory: server.baseURL)),
            configuration: .init(maximumEntries: 16))
        for index in 0..<40 { _ = try await cache.resolveHandle(ATHandle(rawValue: "h\(index).test")) }
        let counts = await cache.entryCounts
        XCTAssertLessThanOrEqual(counts.handles, 16)
        XCTAssertGreaterThan(counts.handles, 0)
        // The newest is still cached.
        _ = try await cache.resolveHandle(ATHandle(rawValue: "h39.test"))
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 40)
    }

    func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("condition not met in \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

final class CacheSnapshotTests: XCTestCase {
    func testASnapshotRestoresIntoAnotherCacheWithoutRequests() async throws {
        let alice = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: alice)
        server.route("/plc/" + alice, text: documentText(did: alice, handle: "alice.test"))
        let backend = StandardIdentityResolver(
            handles: WellKnownHandleResolver(hostOverrides: HostOverrides(["alice.test": server.baseURL])),
            dids: PLCDirectoryResolver(directory: server.baseURL.appendingPathComponent("plc")))
        let first = CachingIdentityResolver(wrapping: backend)
        let identity = try await first.resolveIdentity(ATIdentifier(rawValue: "alice.test"))
        let saved = try JSONEncoder().encode(await first.snapshot())

        let second = CachingIdentityResolver(wrapping: backend)
        await second.restore(try JSONDecoder().decode(CachingIdentityResolver.Snapshot.self, from: saved))
        let restored = try await second.resolveIdentity(ATIdentifier(rawValue: "alice.test"))
        XCTAssertEqual(restored, identity)
        let document = try await second.resolveDID(DID(rawValue: alice))
        XCTAssertEqual(document, identity.document)
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 1)
        XCTAssertEqual(server.count("/plc/" + alice), 1)
    }
}
