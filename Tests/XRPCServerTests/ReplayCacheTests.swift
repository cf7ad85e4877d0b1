import Foundation
import XCTest
import XRPCCore

@testable import XRPCServer

/// The replay cache bounds each issuer's share, so one account filling it with its own tokens is
/// refused while others still get in; and tokens live no longer than the reference PDS issues them.
final class ReplayCacheTests: XCTestCase {
    static let bob = "did:plc:bob00000000000000000000000"

    func fixtureWithBob() throws -> (AuthFixture, TestSigningKey) {
        let fixture = try AuthFixture()
        let bob = try TestSigningKey(curve: .p256, seed: "bob")
        fixture.resolver.publish(Self.bob, key: bob)
        return (fixture, bob)
    }

    func testOneIssuerFloodingIsRefusedWhileOthersGetIn() async throws {
        let (f, bobKey) = try fixtureWithBob()
        let cache = ServiceAuthReplayCache()
        XCTAssertEqual(cache.perIssuerCapacity, 1_000)
        // Alice fills her share with hour-long tokens (as if accepted one by one).
        for index in 0..<cache.perIssuerCapacity {
            let outcome = cache.insert(
                issuer: AuthFixture.issuer, tokenID: "flood-\(index)", expiration: AuthFixture.now + 3600 - index,
                now: AuthFixture.now)
            XCTAssertEqual(outcome, .accepted)
        }
        let verifier = f.verifier(replayCache: cache)
        let error = await f.refusal(f.token(), verifier)
        XCTAssertEqual(error?.code, .rateLimitExceeded)
        XCTAssertEqual(error?.status, 429)
        XCTAssertEqual(error?.headers["retry-after"], String(3600 - 999))
        XCTAssertEqual(
            error?.message,
            "\(AuthFixture.issuer) already holds 1000 live service-auth tokens here; try again in 2601 s")
        // Bob is not locked out by her.
        let caller = try await verifier.verify(
            f.token(["iss": .string(Self.bob)], key: bobKey), method: AuthFixture.method)
        XCTAssertEqual(caller.did.rawValue, Self.bob)
        XCTAssertEqual(cache.count, 1_001)
    }

    func testAFloodThroughTheVerifierIsRefusedWithItsOwnError() async throws {
        let (f, bobKey) = try fixtureWithBob()
        let cache = ServiceAuthReplayCache(capacity: 10, perIssuerCapacity: 3)
        let verifier = f.verifier(replayCache: cache)
        for _ in 0..<3 { _ = try await verifier.verify(f.token(), method: AuthFixture.method) }
        // Another fragment of the same DID is the same issuer: no second share.
        for iss in [AuthFixture.issuer, AuthFixture.issuer + "#other_service"] {
            let error = await f.refusal(f.token(["iss": .string(iss)]), verifier)
            XCTAssertEqual(error?.code, .rateLimitExceeded, iss)
            XCTAssertEqual(error?.headers["retry-after"], "60")
        }
        for _ in 0..<3 {
            _ = try await verifier.verify(f.token(["iss": .string(Self.bob)], key: bobKey), method: AuthFixture.method)
        }
        XCTAssertEqual(cache.count, 6)
    }

    func testAnIssuersShareFreesAsItsTokensExpire() {
        let cache = ServiceAuthReplayCache(capacity: 10, perIssuerCapacity: 2)
        XCTAssertEqual(cache.insert(issuer: "did:plc:a", tokenID: "1", expiration: 100, now: 0), .accepted)
        XCTAssertEqual(cache.insert(issuer: "did:plc:a", tokenID: "2", expiration: 200, now: 0), .accepted)
        XCTAssertEqual(
            cache.insert(issuer: "did:plc:a", tokenID: "3", expiration: 300, now: 0), .issuerFull(retryAfter: 100))
        XCTAssertEqual(cache.insert(issuer: "did:plc:a", tokenID: "1", expiration: 100, now: 99), .replayed)
        // At exp the first token can no longer pass: its place is free, at once (no minute's wait).
        XCTAssertEqual(cache.insert(issuer: "did:plc:a", tokenID: "3", expiration: 300, now: 100), .accepted)
        XCTAssertEqual(cache.count, 2)
    }

    func testAFullCacheStillRefusesRatherThanForgets() {
        let cache = ServiceAuthReplayCache(capacity: 2, perIssuerCapacity: 5)
        XCTAssertEqual(cache.perIssuerCapacity, 2, "a share is never above the whole")
        XCTAssertEqual(cache.insert(issuer: "did:plc:a", tokenID: "1", expiration: 100, now: 0), .accepted)
        XCTAssertEqual(cache.insert(issuer: "did:plc:b", tokenID: "1", expiration: 100, now: 0), .accepted)
        XCTAssertEqual(cache.insert(issuer: "did:plc:c", tokenID: "1", expiration: 100, now: 1), .full)
        XCTAssertEqual(cache.insert(issuer: "did:plc:c", tokenID: "1", expiration: 200, now: 100), .accepted)
    }

    func testATokenWithoutAMethodLivesAtMostTwoMinutes() async throws {
        let f = try AuthFixture()
        let lenient = f.verifier(requiresMethodBinding: false)
        XCTAssertEqual(lenient.maximumUnboundLifetime, .seconds(120))
        XCTAssertEqual(lenient.maximumLifetime, .seconds(3660))
        let error = await f.refusal(f.token(["lxm": nil, "exp": .integer(AuthFixture.now + 3600)]), lenient)
        XCTAssertEqual(error?.code, .badJwt)
        XCTAssertEqual(
            error?.message, "a token without lxm expires more than 120 s from now (exp \(AuthFixture.now + 3600))")
        _ = try await lenient.verify(
            f.token(["lxm": nil, "exp": .integer(AuthFixture.now + 120)]), method: AuthFixture.method)
        // Bound to the method, an hour (and a minute for clocks) is the most.
        _ = try await lenient.verify(f.token(["exp": .integer(AuthFixture.now + 3660)]), method: AuthFixture.method)
        let late = await f.refusal(f.token(["exp": .integer(AuthFixture.now + 3661)]), lenient)
        XCTAssertEqual(late?.code, .badJwt)
    }
}
