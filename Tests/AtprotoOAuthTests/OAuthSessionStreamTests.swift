import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest
import XRPCRuntime

/// The OAuth session as the agent of an event stream: the service it names, and the DPoP-bound
/// credentials of the WebSocket upgrade.
final class OAuthSessionStreamTests: XCTestCase {
    private func signedIn(_ server: FakeOAuthServer) async throws -> OAuthSession {
        let client = makeClient(resolver: TableResolver(pds: ["did:plc:alice": server.url]))
        let pending = try await client.authorize(.account("did:plc:alice"))
        return try await client.complete(pending, callback: callback(pending))
    }

    private static func claims(_ proof: String?) -> [String: Any] {
        guard let parts = proof.flatMap(CompactJWS.split) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(parts.claims))) as? [String: Any] ?? [:]
    }

    func testStreamsGoToTheAccountsPDSWithADPoPProofOfTheUpgrade() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        let service = await session.defaultServiceURL()
        XCTAssertEqual(service, server.url, "the account's PDS, where calls go")
        let origin = try XCTUnwrap(URLComponents(string: server.origin))
        let stream = try XCTUnwrap(
            URL(
                string:
                    "ws://\(origin.host ?? "")\(origin.port.map { ":\($0)" } ?? "")/xrpc/com.example.stream?cursor=4"))
        let headers = try await session.eventStreamHeaders(for: stream, rejection: nil)
        XCTAssertEqual(headers["Authorization"], "DPoP at-1")
        let claims = Self.claims(headers["DPoP"])
        XCTAssertEqual(claims["htm"] as? String, "GET")
        XCTAssertEqual(
            claims["htu"] as? String, server.origin + "/xrpc/com.example.stream",
            "the upgrade's HTTP URL, without its query")
        XCTAssertEqual(claims["ath"] as? String, DPoPProof.accessTokenHash("at-1"))
    }

    func testAnotherHostGetsNoCredentials() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        let elsewhere = try XCTUnwrap(URL(string: "wss://relay.example.com/xrpc/com.atproto.sync.subscribeRepos"))
        let headers = try await session.eventStreamHeaders(for: elsewhere, rejection: nil)
        XCTAssertEqual(headers, [:])
    }

    func testARefusedUpgradeRefreshesTheTokenFirst() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        let stream = try XCTUnwrap(URL(string: server.origin + "/xrpc/com.example.stream"))
        let refusal = XRPCEventStreamError(
            .rejected, nsid: "com.example.stream", name: "ExpiredToken", status: 400, message: "expired")
        let headers = try await session.eventStreamHeaders(for: stream, rejection: refusal)
        XCTAssertEqual(server.count("/oauth/token"), 2, "the code exchange, then one refresh")
        XCTAssertEqual(headers["Authorization"], "DPoP at-2")
        XCTAssertEqual(Self.claims(headers["DPoP"])["ath"] as? String, DPoPProof.accessTokenHash("at-2"))
    }

    func testASignedOutSessionNamesNoServiceAndGivesNoCredentials() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        try await session.signOut()
        let service = await session.defaultServiceURL()
        XCTAssertNil(service)
        let stream = try XCTUnwrap(URL(string: server.origin + "/xrpc/com.example.stream"))
        do {
            _ = try await session.eventStreamHeaders(for: stream, rejection: nil)
            XCTFail("a signed-out session must not hand out headers")
        } catch let error as OAuthSessionError {
            XCTAssertEqual(error.code, .sessionEnded)
        }
    }
}
