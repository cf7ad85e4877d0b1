import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCCore
import XRPCServer

/// One issuer (`alice`, a k256 `#atproto` key) in a table resolver, a fixed clock, and tokens from
/// her to the feed service: what the hardening tests build on.
struct AuthFixture {
    static let service = ServiceAuthTests.service
    static let issuer = ServiceAuthTests.issuer
    static let method = ServiceAuthTests.method
    static let now = ServiceAuthTests.now

    let key: TestSigningKey
    let resolver = TableResolver()

    init() throws {
        key = try TestSigningKey(curve: .secp256k1, seed: "alice")
        resolver.publish(Self.issuer, key: key)
    }

    /// A verifier at `time` (default `now`) with the given limits.
    func verifier(
        at time: Date = Date(timeIntervalSince1970: TimeInterval(now)), requiresMethodBinding: Bool = true,
        maximumLifetime: Duration? = nil, replayCache: ServiceAuthReplayCache? = ServiceAuthReplayCache(),
        recentKeyLifetime: Duration = .seconds(60)
    ) -> ServiceAuthVerifier {
        guard let maximumLifetime else {
            return ServiceAuthVerifier(
                audience: Self.service, resolver: resolver, requiresMethodBinding: requiresMethodBinding,
                replayCache: replayCache, recentKeyLifetime: recentKeyLifetime, now: { time })
        }
        return ServiceAuthVerifier(
            audience: Self.service, resolver: resolver, requiresMethodBinding: requiresMethodBinding,
            maximumLifetime: maximumLifetime, replayCache: replayCache, recentKeyLifetime: recentKeyLifetime,
            now: { time })
    }

    /// Alice's claims for `method`, valid 60 s from `now`, with `changes` applied (`nil` removes).
    static func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(service.rawValue), "exp": .integer(now + 60),
            "iat": .integer(now), "lxm": .string(method.rawValue), "jti": .string(UUID().uuidString),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    /// A token of `claims(changes)` signed by `key` (default alice's).
    func token(_ changes: [String: JSONValue?] = [:], key: TestSigningKey? = nil) -> String {
        TestTokens.make(Self.claims(changes), key: key ?? self.key)
    }

    /// What `verifier` answers for `token` called as `method`.
    func outcome(_ token: String, _ verifier: ServiceAuthVerifier, method: NSID = method) async
        -> Result<ServiceAuthCaller, XRPCServerError>
    {
        do {
            return .success(try await verifier.verify(token, method: method))
        } catch {
            return .failure(error)
        }
    }

    /// The refusal of `token`, failing the test when it passes or is not a 401 naming no token.
    func refusal(
        _ token: String, _ verifier: ServiceAuthVerifier, file: StaticString = #filePath, line: UInt = #line
    ) async -> XRPCServerError? {
        switch await outcome(token, verifier) {
        case .success(let caller):
            XCTFail("accepted as \(caller.issuer)", file: file, line: line)
            return nil
        case .failure(let error):
            XCTAssertFalse(error.message.contains(token), "the token leaked into the message", file: file, line: line)
            return error
        }
    }
}
