import Foundation
import LoopbackHTTPServer
import OAuthCore
import XCTest
import XRPCRuntime

@testable import AtprotoOAuth

/// A resource server that answers with two `WWW-Authenticate` fields, a `Bearer` challenge and then
/// the `DPoP` one: both reach the challenge parsing, through the real transport, and the session
/// acts on the second.
final class RepeatedChallengeTests: XCTestCase {
    private static let bearerThenDPoP: HTTPHeaderFields = {
        var fields = HTTPHeaderFields()
        fields.append("WWW-Authenticate", #"Bearer realm="pds""#)
        fields.append("WWW-Authenticate", #"DPoP error="use_dpop_nonce", algs="ES256""#)
        fields.append("DPoP-Nonce", "rs-n1")
        return fields
    }()

    func testBothFieldsReachTheChallengeParsingThroughTheTransport() async throws {
        let server = try LoopbackHTTPServer { _ in
            .json(#"{"error":"use_dpop_nonce"}"#, status: 401, headers: Self.bearerThenDPoP)
        }
        defer { server.stop() }
        let request = HTTPTransportRequest(
            method: "GET", url: server.baseURL.appendingPathComponent("xrpc/a.b.c"), timeout: .seconds(10))
        let response = try await URLSessionTransport().send(request)
        XCTAssertEqual(response.status, 401)
        let challenges = WWWAuthenticateChallenge.parse(response.headers)
        XCTAssertEqual(challenges.map { $0.scheme }, ["Bearer", "DPoP"])
        XCTAssertEqual(challenges.last?.parameters, ["error": "use_dpop_nonce", "algs": "ES256"])
        XCTAssertEqual(WWWAuthenticateChallenge.dpopError(in: response.headers), "use_dpop_nonce")
        XCTAssertTrue(OAuthSession.isNonceChallenge(response))
        XCTAssertEqual(OAuthError.fromResponse(response, "a call").serverCode, "use_dpop_nonce")
    }

    func testTheSessionRetriesWhenTheDPoPChallengeIsTheSecondField() async throws {
        let server = try FakeOAuthServer()
        server.behaviour.challengeBehindBearer = true
        let client = makeClient(resolver: TableResolver(pds: ["did:plc:alice": server.url]))
        let pending = try await client.authorize(.account("did:plc:alice"))
        let session = try await client.complete(pending, callback: callback(pending))
        let response = try await session.send(XRPCRequest(method: .get, nsid: "com.atproto.server.getSession"))
        XCTAssertEqual(response.status, 200, "the nonce challenge behind the Bearer one was seen and answered")
        XCTAssertEqual(server.resourceHeaders.count, 2, "the challenge, then one retry")
    }

    /// A transport may keep the fields apart (URLSession joins them into one value; others do not):
    /// the session reads every field, not the first.
    func testFieldsKeptApartAreAllRead() {
        let response = HTTPTransportResponse(status: 401, headers: Self.bearerThenDPoP)
        XCTAssertEqual(response.headers.values(for: "www-authenticate").count, 2)
        XCTAssertEqual(response.header("WWW-Authenticate"), #"Bearer realm="pds""#, "the subscript reads the first")
        XCTAssertTrue(OAuthSession.isNonceChallenge(response))
        XCTAssertEqual(OAuthSession.serverError(response, "a.b.c").serverCode, "use_dpop_nonce")
    }
}
