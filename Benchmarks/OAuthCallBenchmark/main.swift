// Calls per second through the OAuth session (DPoP proof signed by swift-crypto per call) and through
// the password session (a bearer token), against the same in-process loopback server, in one run,
// rounds interleaved.
//
//     swift run -c release --package-path Benchmarks --traits SwiftCryptoSigner oauth-call-bench [calls]

#if SwiftCryptoSigner
    import AtprotoIdentityResolution
    import AtprotoOAuth
    import Foundation
    import LoopbackHTTPServer
    import OAuthCore
    import SwiftCryptoSigner
    import XRPCRuntime

    /// No identity lookups happen here (tokens never expire during the run).
    struct NoResolver: IdentityResolver {
        func invalidate(did: DID) async {}
        func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
            throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "benchmark")
        }
        func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "benchmark")
        }
    }

    let calls = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
    let body = Data(#"{"did":"did:plc:bench","handle":"bench.test"}"#.utf8)
    let server = try LoopbackHTTPServer { _ in
        LoopbackHTTPServer.Response(
            status: 200, headers: ["Content-Type": "application/json", "DPoP-Nonce": "n1"], body: body)
    }
    defer { server.stop() }
    let base = server.baseURL
    let did = DID(rawValue: "did:plc:bench")
    let request = XRPCRequest(method: .get, nsid: "com.atproto.server.getSession")

    let password = PasswordSession(
        restoring: PasswordSessionArchive(
            service: base, did: did, handle: ATHandle(rawValue: "bench.test"), accessToken: XRPCSessionToken("access"),
            refreshToken: XRPCSessionToken("refresh")))

    let factory = SwiftCryptoES256KeyFactory()
    let key = try await factory.makeKey()
    let metadata = try JSONDecoder().decode(
        AuthorizationServerMetadata.self,
        from: Data(
            #"{"issuer":"\#(base.absoluteString)","authorization_endpoint":"\#(base.absoluteString)/a","token_endpoint":"\#(base.absoluteString)/t"}"#
                .utf8))
    let now = Date()
    let oauthArchive = OAuthSessionArchive(
        did: did, handle: nil, pdsEndpoint: base, issuer: base.absoluteString, authorizationServer: metadata,
        clientID: OAuthClientConfiguration.development().clientID, scope: "atproto",
        accessToken: XRPCSessionToken("access"),
        refreshToken: XRPCSessionToken("refresh"), issuedAt: now, expiresAt: now.addingTimeInterval(3600),
        dpopKey: try key.exportForArchive(), nonces: [:])
    let client = AtprotoOAuthClient(configuration: .development(), keyFactory: factory, resolver: NoResolver())
    let oauth = try await client.restore(oauthArchive)

    /// Calls per second for `count` calls through `agent`, `width` at a time.
    func rate(_ agent: any XRPCAgent, count: Int, width: Int) async throws -> Double {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<width {
                group.addTask {
                    for _ in stride(from: lane, to: count, by: width) {
                        let response = try await agent.send(request)
                        guard response.status == 200 else {
                            throw OAuthError(.invalidResponse, message: "HTTP \(response.status)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        return Double(count) / (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
    }

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    // Proof signing alone, for the share of the difference it explains.
    let signStart = ContinuousClock.now
    for _ in 0..<calls {
        _ = try await DPoPProof.make(method: "GET", url: base, nonce: "n1", accessToken: "access", signer: key)
    }
    let signElapsed = ContinuousClock.now - signStart
    let perProof =
        (Double(signElapsed.components.seconds) + Double(signElapsed.components.attoseconds) / 1e18) / Double(calls)

    _ = try await rate(password, count: 200, width: 1)
    _ = try await rate(oauth, count: 200, width: 1)
    print("oauth-call-bench: \(calls) calls per round, 5 rounds interleaved, medians; loopback server in process")
    for width in [1, 8] {
        var passwordRates: [Double] = [], oauthRates: [Double] = []
        for _ in 0..<5 {
            passwordRates.append(try await rate(password, count: calls, width: width))
            oauthRates.append(try await rate(oauth, count: calls, width: width))
        }
        let p = median(passwordRates), o = median(oauthRates)
        print(
            String(
                format: "  %d at a time: password session %.0f calls/s, OAuth session %.0f calls/s (%.2fx)", width, p,
                o,
                o / p))
    }
    print(String(format: "  one DPoP proof (ES256 by swift-crypto, JSON, base64url): %.1f µs", perProof * 1e6))
#else
    print(
        "oauth-call-bench needs the SwiftCryptoSigner trait: swift run -c release --package-path Benchmarks --traits SwiftCryptoSigner oauth-call-bench"
    )
#endif
