import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCCore
import XRPCServer

/// A resolver over a table of DID documents that caches like a real one: it keeps answering the
/// document it gave first until `invalidate(did:)`, so key rotation can be staged.
// @unchecked Sendable: every mutable field is read and written only under `lock`.
final class TableResolver: IdentityResolver, @unchecked Sendable {
    private let lock = NSLock()
    private var current: [String: DIDDocument] = [:]
    private var cached: [String: DIDDocument] = [:]
    private var fetches = 0
    private var calls = 0

    func publish(_ did: String, key: TestSigningKey) {
        publish(did, keys: [("atproto", key)])
    }

    /// Publishes a document with a verification method per `(fragment, key)`.
    func publish(_ did: String, keys: [(fragment: String, key: TestSigningKey)]) {
        let document = DIDDocument(
            id: DID(rawValue: did),
            verificationMethods: keys.map {
                .init(
                    id: did + "#" + $0.fragment, type: "Multikey", controller: did, publicKeyMultibase: $0.key.multikey)
            })
        lock.lock()
        current[did] = document
        lock.unlock()
    }

    var fetchCount: Int { lock.withLock { fetches } }

    /// Every resolveDID call, cached or not.
    var callCount: Int { lock.withLock { calls } }

    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        guard let document = lookUp(did) else {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "not in the table")
        }
        return document
    }

    private func lookUp(_ did: DID) -> DIDDocument? {
        lock.withLock {
            calls += 1
            if let document = cached[did.rawValue] { return document }
            guard let document = current[did.rawValue] else { return nil }
            fetches += 1
            cached[did.rawValue] = document
            return document
        }
    }

    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "no handles here")
    }

    func invalidate(did: DID) async {
        lock.withLock { cached[did.rawValue] = nil }
    }
}

/// A settable clock for verifiers under test.
// @unchecked Sendable: `seconds` is read and written only under `lock`.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Int
    init(_ seconds: Int) { self.seconds = seconds }
    var value: Int {
        get { lock.withLock { seconds } }
        set { lock.withLock { seconds = newValue } }
    }
}

/// Service-auth verification: each check refuses what it must, with 401 and its reason's name.
final class ServiceAuthTests: XCTestCase {
    static let service: DID = "did:web:feeds.example.com"
    static let issuer = "did:plc:alice0000000000000000000"
    static let method: NSID = "app.bsky.feed.getFeedSkeleton"
    static let now = 1_800_000_000

    var key: TestSigningKey!
    var resolver: TableResolver!

    override func setUpWithError() throws {
        key = try TestSigningKey(curve: .secp256k1, seed: "alice")
        resolver = TableResolver()
        resolver.publish(Self.issuer, key: key)
    }

    func verifier(
        requiresMethodBinding: Bool = true, replayCache: ServiceAuthReplayCache? = ServiceAuthReplayCache(),
        at time: Int = now
    ) -> ServiceAuthVerifier {
        ServiceAuthVerifier(
            audience: Self.service, resolver: resolver, requiresMethodBinding: requiresMethodBinding,
            replayCache: replayCache, now: { Date(timeIntervalSince1970: TimeInterval(time)) })
    }

    func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "aud": .string(Self.service.rawValue), "exp": .integer(Self.now + 60),
            "iat": .integer(Self.now), "lxm": .string(Self.method.rawValue), "jti": .string(UUID().uuidString),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    /// The refusal of `token`, or a failure when it passes.
    func refusal(
        _ token: String, verifier: ServiceAuthVerifier? = nil, file: StaticString = #filePath, line: UInt = #line
    )
        async -> XRPCServerError?
    {
        do {
            let caller = try await (verifier ?? self.verifier()).verify(token, method: Self.method)
            XCTFail("accepted as \(caller.did)", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(error.status, 401, "\(error)", file: file, line: line)
            XCTAssertFalse(error.message.contains(token), "the token leaked into the message", file: file, line: line)
            return error
        }
    }

    func testAValidES256KTokenGivesItsCaller() async throws {
        let caller = try await verifier().verify(TestTokens.make(claims(), key: key), method: Self.method)
        XCTAssertEqual(caller.did.rawValue, Self.issuer)
        XCTAssertEqual(caller.method, Self.method)
        XCTAssertEqual(caller.expiration, Date(timeIntervalSince1970: TimeInterval(Self.now + 60)))
    }

    func testAValidES256TokenGivesItsCaller() async throws {
        let p256 = try TestSigningKey(curve: .p256, seed: "bob")
        resolver.publish("did:plc:bob", key: p256)
        let caller = try await verifier().verify(
            TestTokens.make(claims(["iss": .string("did:plc:bob")]), key: p256), method: Self.method)
        XCTAssertEqual(caller.did, "did:plc:bob")
    }

    func testAnotherAudienceIsRefused() async {
        let token = TestTokens.make(claims(["aud": .string("did:web:other.example.com")]), key: key)
        let error = await refusal(token)
        XCTAssertEqual(error?.code, .badJwtAudience)
    }

    func testTheServiceFragmentOfOurAudienceIsAccepted() async throws {
        let token = TestTokens.make(claims(["aud": .string(Self.service.rawValue + "#bsky_fg")]), key: key)
        _ = try await verifier().verify(token, method: Self.method)
        let lookalike = TestTokens.make(claims(["aud": .string(Self.service.rawValue + ".evil.com")]), key: key)
        let error = await refusal(lookalike)
        XCTAssertEqual(error?.code, .badJwtAudience)
    }

    func testAnotherMethodIsRefused() async {
        let token = TestTokens.make(claims(["lxm": .string("app.bsky.feed.describeFeedGenerator")]), key: key)
        let error = await refusal(token)
        XCTAssertEqual(error?.code, .badJwtLexiconMethod)
    }

    func testATokenWithoutMethodIsRefusedUnlessAllowed() async throws {
        let token = TestTokens.make(claims(["lxm": nil]), key: key)
        let error = await refusal(token)
        XCTAssertEqual(error?.code, .badJwtLexiconMethod)
        _ = try await verifier(requiresMethodBinding: false).verify(token, method: Self.method)
    }

    func testAnExpiredTokenIsRefused() async {
        for exp in [Self.now - 1, Self.now] {
            let error = await refusal(TestTokens.make(claims(["exp": .integer(exp)]), key: key))
            XCTAssertEqual(error?.code, .jwtExpired, "exp \(exp - Self.now) s from now")
        }
    }

    func testATokenValidForTooLongIsRefused() async {
        let error = await refusal(TestTokens.make(claims(["exp": .integer(Self.now + 7200)]), key: key))
        XCTAssertEqual(error?.code, .badJwt)
    }

    func testATokenSignedByAnotherKeyIsRefused() async throws {
        let mallory = try TestSigningKey(curve: .secp256k1, seed: "mallory")
        let error = await refusal(TestTokens.make(claims(), key: mallory))
        XCTAssertEqual(error?.code, .badJwtSignature)
        XCTAssertEqual(resolver.fetchCount, 2, "the signature failure looked once more, uncached")
    }

    func testAHighSSignatureIsRefused() async throws {
        let error = await refusal(TestTokens.make(claims(), key: key, highS: true))
        XCTAssertEqual(error?.code, .badJwtSignature)
        // The same token with its low-S signature passes: only the S half differs.
        _ = try await verifier().verify(TestTokens.make(claims(), key: key), method: Self.method)
    }

    func testAnAlgorithmThatIsNotTheKeysCurveIsRefused() async {
        let error = await refusal(TestTokens.make(claims(), key: key, alg: "ES256"))
        XCTAssertEqual(error?.code, .badJwtSignature)
    }

    func testAChangedPayloadIsRefused() async {
        let token = TestTokens.make(claims(), key: key)
        let parts = token.split(separator: ".").map(String.init)
        let forged = TestTokens.base64URL(Array(JSONValue.object(claims(["iss": .string(Self.issuer)])).serialized()))
        let error = await refusal([parts[0], forged, parts[2]].joined(separator: "."))
        XCTAssertEqual(error?.code, .badJwtSignature)
    }

    func testARotatedKeyIsFoundWithAFreshDocument() async throws {
        let verifier = verifier()
        _ = try await verifier.verify(TestTokens.make(claims(), key: key), method: Self.method)
        let rotated = try TestSigningKey(curve: .secp256k1, seed: "alice, rotated")
        resolver.publish(Self.issuer, key: rotated)
        // The resolver still caches the old document; the verifier asks again once.
        let caller = try await verifier.verify(TestTokens.make(claims(), key: rotated), method: Self.method)
        XCTAssertEqual(caller.did.rawValue, Self.issuer)
        XCTAssertEqual(resolver.fetchCount, 2)
        // The rotated-out key no longer signs for the account.
        let error = await refusal(TestTokens.make(claims(), key: key), verifier: verifier)
        XCTAssertEqual(error?.code, .badJwtSignature)
    }

    func testAProvenKeyIsReusedBrieflyWithoutTheResolver() async throws {
        let remembering = verifier()
        _ = try await remembering.verify(TestTokens.make(claims(), key: key), method: Self.method)
        _ = try await remembering.verify(TestTokens.make(claims(), key: key), method: Self.method)
        XCTAssertEqual(resolver.callCount, 1, "the second token was proved by the remembered key")
        let asking = ServiceAuthVerifier(
            audience: Self.service, resolver: resolver, recentKeyLifetime: .zero,
            now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) })
        _ = try await asking.verify(TestTokens.make(claims(), key: key), method: Self.method)
        _ = try await asking.verify(TestTokens.make(claims(), key: key), method: Self.method)
        XCTAssertEqual(resolver.callCount, 3, "with no lifetime every token asks the resolver")
    }

    func testARememberedKeyExpires() async throws {
        let clock = Clock(Self.now)
        let verifier = ServiceAuthVerifier(
            audience: Self.service, resolver: resolver, now: { Date(timeIntervalSince1970: TimeInterval(clock.value)) })
        _ = try await verifier.verify(TestTokens.make(claims(), key: key), method: Self.method)
        clock.value = Self.now + 61
        _ = try await verifier.verify(
            TestTokens.make(claims(["exp": .integer(Self.now + 120)]), key: key), method: Self.method)
        XCTAssertEqual(resolver.callCount, 2, "past its lifetime the key is asked for again")
    }

    func testAReplayedTokenIsRefused() async throws {
        let verifier = verifier()
        let token = TestTokens.make(claims(), key: key)
        _ = try await verifier.verify(token, method: Self.method)
        let error = await refusal(token, verifier: verifier)
        XCTAssertEqual(error?.code, .jwtReplayed)
        // Another jti of the same issuer passes.
        _ = try await verifier.verify(TestTokens.make(claims(), key: key), method: Self.method)
    }

    func testReplayProtectionNeedsAJTI() async throws {
        let token = TestTokens.make(claims(["jti": nil]), key: key)
        let error = await refusal(token)
        XCTAssertEqual(error?.code, .badJwt)
        let lenient = verifier(replayCache: nil)
        _ = try await lenient.verify(token, method: Self.method)
        _ = try await lenient.verify(token, method: Self.method)
    }

    func testAForgedTokenDoesNotUseUpItsJTI() async throws {
        let verifier = verifier()
        let mallory = try TestSigningKey(curve: .secp256k1, seed: "mallory")
        let shared = claims()
        _ = await refusal(TestTokens.make(shared, key: mallory), verifier: verifier)
        _ = try await verifier.verify(TestTokens.make(shared, key: key), method: Self.method)
    }

    func testAFullReplayCacheRefusesRatherThanForgets() async throws {
        let cache = ServiceAuthReplayCache(capacity: 1)
        let verifier = ServiceAuthVerifier(
            audience: Self.service, resolver: resolver, replayCache: cache,
            now: { Date(timeIntervalSince1970: TimeInterval(Self.now)) })
        _ = try await verifier.verify(TestTokens.make(claims(), key: key), method: Self.method)
        // Another issuer: the whole cache is full, not only alice's share of it.
        let bob = try TestSigningKey(curve: .p256, seed: "bob")
        resolver.publish("did:plc:bob", key: bob)
        do {
            _ = try await verifier.verify(
                TestTokens.make(claims(["iss": .string("did:plc:bob")]), key: bob), method: Self.method)
            XCTFail("a token was accepted while its jti could not be held")
        } catch {
            XCTAssertEqual(error.code, .notEnoughResources)
            XCTAssertEqual(error.status, 503)
        }
        XCTAssertEqual(cache.count, 1)
        // Once the held token has expired, its place is free again.
        let later = ServiceAuthVerifier(
            audience: Self.service, resolver: resolver, replayCache: cache,
            now: { Date(timeIntervalSince1970: TimeInterval(Self.now + 61)) })
        _ = try await later.verify(
            TestTokens.make(claims(["exp": .integer(Self.now + 120)]), key: key), method: Self.method)
    }

    func testMalformedTokensAreBadJwt() async {
        let good = TestTokens.make(claims(), key: key)
        let parts = good.split(separator: ".").map(String.init)
        let header = { (json: String) in TestTokens.base64URL(Array(json.utf8)) }
        let cases = [
            "not a token", parts[0] + "." + parts[1], good + ".extra", "@@@." + parts[1] + "." + parts[2],
            header("[1]") + "." + parts[1] + "." + parts[2],
            header(#"{"alg":"none"}"#) + "." + parts[1] + ".",
            header(#"{"alg":"HS256"}"#) + "." + parts[1] + "." + parts[2],
            TestTokens.make(claims(), key: key, typ: "at+jwt"),
            TestTokens.make(claims(["iss": .string("alice")]), key: key),
            TestTokens.make(claims(["exp": .string("soon")]), key: key),
            TestTokens.make(claims(["iat": .string("now")]), key: key),
            TestTokens.make(claims(["lxm": .integer(5)]), key: key),
            TestTokens.make(claims(["jti": .integer(5)]), key: key),
            TestTokens.make(claims(["aud": nil]), key: key),
            String(repeating: "a", count: 9000),
        ]
        for token in cases {
            let error = await refusal(token)
            XCTAssertEqual(error?.code, .badJwt, String(token.prefix(60)))
        }
    }

    func testAnUnresolvableIssuerIsRefused() async {
        let error = await refusal(TestTokens.make(claims(["iss": .string("did:plc:nobody")]), key: key))
        XCTAssertEqual(error?.code, .badJwtSignature)
    }

    func testTheAuthorizationHeaderMustBeABearerToken() async throws {
        let verifier = verifier()
        for headers: HTTPHeaderFields in [[:], ["Authorization": "Basic abc"], ["Authorization": "Bearer"]] {
            do {
                _ = try await verifier.authenticate(
                    XRPCServerRequest(method: "GET", path: "/x", headers: headers), for: Self.method)
                XCTFail("accepted \(headers)")
            } catch {
                XCTAssertEqual(error.code, .authenticationRequired)
                XCTAssertEqual(error.status, 401)
            }
        }
        let request = XRPCServerRequest(
            method: "GET", path: "/x", headers: ["authorization": "bearer " + TestTokens.make(claims(), key: key)])
        _ = try await verifier.authenticate(request, for: Self.method)
    }
}
