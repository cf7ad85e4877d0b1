import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
@_spi(Plumbing) import OAuthCore
import SecretLeakTesting
import XCTest
import XRPCRuntime

@testable import AtprotoOAuth

/// A signer whose archived "private key" is 32 random bytes, so a test can look for them.
private struct MarkedSigner: ES256Signer {
    let key: Data
    let publicJWK: ECPublicJWK
    init(key: Data) throws {
        self.key = key
        publicJWK = try ECPublicJWK(x: Array(repeating: 1, count: 32), y: Array(repeating: 2, count: 32))
    }
    func sign(_ message: [UInt8]) async throws -> [UInt8] { Array(repeating: 0xAB, count: 64) }
    func exportForArchive() throws -> OAuthSigningKeyArchive { OAuthSigningKeyArchive(kind: "test-marked", data: key) }
}

private struct MarkedKeyFactory: ES256KeyFactory {
    let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
    func makeKey() async throws -> any ES256Signer { try MarkedSigner(key: key) }
    func restoreKey(from archive: OAuthSigningKeyArchive) async throws -> any ES256Signer {
        try MarkedSigner(key: archive.data)
    }

    /// The key as base64, base64url and hex.
    var forms: [String] {
        [key.base64EncodedString(), Base64URL.encode(Array(key)), key.map { String(format: "%02x", $0) }.joined()]
    }
}

/// The whole OAuth flow with logging on (PAR, a refused callback, the code exchange, DPoP calls with
/// nonce challenges, a refresh, a restore, revocation, a refused refresh): no token, DPoP key or
/// proof, code, PKCE verifier, state or client assertion appears in a log line, a description, a
/// dump or an error.
final class OAuthSecretLeakTests: XCTestCase {
    func testTheLeakCheckFindsAPlantedVerifier() throws {
        let pkce = PKCE()
        XCTAssertEqual(secretLeaks(in: printedForms(pkce), of: [pkce.verifier]), [], "PKCE prints no verifier")
        XCTAssertEqual(secretLeaks(in: ["x=\(pkce.verifier)"], of: [pkce.verifier]).count, 1)
    }

    func testNoSecretInLogsDescriptionsOrErrorsOfAWholeOAuthFlow() async throws {
        let server = try FaultOAuthServer(faults: LoopbackFaults(seed: 0, rates: [:]), nonceChallengeRate: 0.5)
        let capture = LogCapture()
        let keys = MarkedKeyFactory()
        let assertion = "client-assertion-\(UUID().uuidString)"
        let configuration = try OAuthClientConfiguration.confidential(
            metadataURL: try XCTUnwrap(URL(string: "https://app.example.com/client-metadata.json")),
            redirectURI: "https://app.example.com/callback", assertion: { _ in assertion })
        let client = AtprotoOAuthClient(
            configuration: configuration, keyFactory: keys,
            resolver: TableResolver(pds: ["did:plc:alice": server.url]), refreshLock: OAuthInProcessRefreshLock(),
            logger: capture.logger)
        var texts: [String] = []
        let code = "authorization-code-\(UUID().uuidString)"

        let pending = try await client.authorize(.account("did:plc:alice"))
        texts += printedForms(pending) + printedForms(pending.pkce) + printedForms(pending.dpopKey)
        do {
            _ = try await client.complete(pending, callback: callback(pending, state: "forged", code: code))
            XCTFail("a forged state was accepted")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }
        let session = try await client.complete(pending, callback: callback(pending, code: code))
        let xrpc = XRPCClient(agent: session)
        for index in 0..<8 { texts.append(await OAuthSessionLoadTests.call(xrpc, index)) }
        let refreshed = try await session.refresh()
        for index in 8..<12 { texts.append(await OAuthSessionLoadTests.call(xrpc, index)) }
        texts += printedForms(refreshed) + printedForms(session) + printedForms(refreshed.accessToken)
        texts += printedForms(refreshed.refreshToken as Any) + printedForms(refreshed.dpopKey)
        let restored = try await client.restore(refreshed)
        texts += printedForms(restored)
        try await session.signOut()
        do {
            try await restored.refresh()
            XCTFail("a revoked grant was refreshed")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }
        do {
            _ = try await restored.send(XRPCRequest(method: .get, nsid: "com.example.fault.query"))
            XCTFail("an ended session sent a call")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }

        let secrets = server.tokens + keys.forms + [code, assertion, pending.pkce.verifier, pending.state]
        XCTAssertGreaterThanOrEqual(server.tokens.count, 10, "tokens and proofs to look for")
        XCTAssertGreaterThan(capture.count, 10, "logging was on")
        XCTAssertEqual(secretLeaks(in: capture.lines, of: secrets), [], "in log lines")
        XCTAssertEqual(secretLeaks(in: texts, of: secrets), [], "in descriptions, dumps and errors")
    }
}
