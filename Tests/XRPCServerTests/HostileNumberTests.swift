import Foundation
import XCTest
import XRPCCore
import XRPCServerTestLexicons

@testable import XRPCServer

/// Numbers a caller controls, at the ends of their range: every one gets an answer (a refusal or a
/// pass), none traps. A trap here would end the whole server process on one unauthenticated request.
final class HostileNumberTests: XCTestCase {
    static let extremes = [Int.min, Int.min + 1, -1, 0, 1, Int.max - 1, Int.max]

    func testAnExtremeExpIsRefusedNotATrap() async throws {
        let f = try AuthFixture()
        // exp = -2^63 used to trap computing "expired N s ago" (now - exp overflows).
        for exp in Self.extremes {
            let error = await f.refusal(f.token(["exp": .integer(exp)]), f.verifier())
            XCTAssertEqual(error?.code, exp > AuthFixture.now ? .badJwt : .jwtExpired, "exp \(exp)")
            XCTAssertEqual(error?.status, 401)
            XCTAssertTrue(error?.message.contains("exp \(exp)") == true, error?.message ?? "")
        }
    }

    func testAnExtremeExpThroughTheRouterIs401() async throws {
        let f = try AuthFixture()
        var router = XRPCRouter()
        router.query(ComExampleTestGetItems.self, auth: f.verifier()) { _ in ComExampleTestGetItems.Output(items: []) }
        for exp in [Int.min, Int.max] {
            let token = f.token(["exp": .integer(exp), "lxm": .string("com.example.test.getItems")])
            let response = await router.respond(
                to: XRPCServerRequest(
                    method: "GET", path: "/xrpc/com.example.test.getItems",
                    query: "feed=at://did:plc:a/app.bsky.feed.generator/r",
                    headers: ["Authorization": "Bearer " + token]
                ))
            let (status, name, _) = try TestRouter.error(response)
            XCTAssertEqual(status, 401, "exp \(exp)")
            XCTAssertEqual(name, exp == Int.min ? "JwtExpired" : "BadJwt")
        }
    }

    func testAnExtremeIatDoesNotTrap() async throws {
        let f = try AuthFixture()
        // iat is informational (RFC 7519 4.1.6): any integer passes, none is computed with.
        for iat in Self.extremes {
            let caller = try await f.verifier().verify(f.token(["iat": .integer(iat)]), method: AuthFixture.method)
            XCTAssertEqual(caller.did.rawValue, AuthFixture.issuer)
        }
    }

    func testAnExtremeClockDoesNotTrap() async throws {
        let f = try AuthFixture()
        // A clock beyond Int's range of seconds (or NaN) reads as the nearest end: the token has
        // expired or is too far off, and nothing traps converting the time.
        let token = f.token()
        for time in [1e30, -1e30, .infinity, -.infinity, .nan] {
            let error = await f.refusal(token, f.verifier(at: Date(timeIntervalSince1970: time)))
            let code = try XCTUnwrap(error?.code)
            XCTAssertTrue([.jwtExpired, .badJwt].contains(code), "\(time): \(code)")
        }
    }

    func testExtremeLifetimesDoNotTrap() async throws {
        let f = try AuthFixture()
        // Remembering a key until now + Int64.max seconds used to trap; it saturates instead.
        let forever = f.verifier(maximumLifetime: .seconds(Int64.max), recentKeyLifetime: .seconds(Int64.max))
        _ = try await forever.verify(f.token(["exp": .integer(Int.max)]), method: AuthFixture.method)
        _ = try await forever.verify(f.token(), method: AuthFixture.method)
        XCTAssertEqual(f.resolver.callCount, 1, "the key was remembered")
        let never = f.verifier(maximumLifetime: .seconds(Int64.min), recentKeyLifetime: .seconds(Int64.min))
        let error = await f.refusal(f.token(), never)
        XCTAssertEqual(error?.code, .badJwt)
    }

    func testTheReplayCacheSaturatesAtTheEndOfTime() {
        let cache = ServiceAuthReplayCache()
        let issuer = AuthFixture.issuer
        XCTAssertEqual(cache.insert(issuer: issuer, tokenID: "a", expiration: .max, now: .max - 1), .accepted)
        XCTAssertEqual(cache.insert(issuer: issuer, tokenID: "a", expiration: .max, now: .max - 1), .replayed)
        XCTAssertEqual(cache.insert(issuer: issuer, tokenID: "b", expiration: .max, now: .min), .accepted)
    }

    func testUnixSecondsClamp() {
        XCTAssertEqual(UnixSeconds.subtracting(0, .min), .max)
        XCTAssertEqual(UnixSeconds.subtracting(-2, .max), .min)
        XCTAssertEqual(UnixSeconds.adding(.max, 60), .max)
        XCTAssertEqual(UnixSeconds.adding(.min, -1), .min)
        XCTAssertEqual(UnixSeconds.adding(5, -7), -2)
        XCTAssertEqual(UnixSeconds.clamped(9_223_372_036_854_775_807.0), .max)
        XCTAssertEqual(UnixSeconds.clamped(-9_223_372_036_854_775_808.0), .min)
        XCTAssertEqual(UnixSeconds.clamped(-1.5), -1)
        XCTAssertEqual(UnixSeconds.of(Date(timeIntervalSince1970: -1.5)), -2)
        XCTAssertEqual(UnixSeconds.of(.seconds(Int64.max)), .max)
    }

    func testHugeIntegerParametersAre400NamingThem() async throws {
        let router = TestRouter.make()
        let feed = "feed=at://did:plc:a/app.bsky.feed.generator/r"
        let limits = [
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            String(repeating: "9", count: 4000), "1e400", "0x10", "%205", "5%20", "NaN",
        ]
        for limit in limits {
            let response = await router.respond(
                to: XRPCServerRequest(
                    method: "GET", path: "/xrpc/com.example.test.getItems", query: feed + "&limit=" + limit))
            let (status, name, message) = try TestRouter.error(response)
            XCTAssertEqual(status, 400, limit)
            XCTAssertEqual(name, "InvalidRequest", limit)
            XCTAssertTrue(message?.hasPrefix("limit: ") == true, message ?? "")
        }
    }

    func testExtremeIntegersInTheInputGetAnAnswer() async throws {
        let router = TestRouter.make()
        let counts = [
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e400", "-1e400", "1e-400",
        ]
        for count in counts {
            let response = await router.respond(
                to: XRPCServerRequest(
                    method: "POST", path: "/xrpc/com.example.test.putItem",
                    headers: ["Content-Type": "application/json"], body: Data(#"{"text":"hi","count":\#(count)}"#.utf8))
            )
            XCTAssertTrue([200, 400].contains(response.status), "\(count): \(response.status)")
        }
    }
}
