import Foundation
import XCTest
import XRPCTesting

@testable import AtprotoData
@testable import XRPCCore

/// An app's OAuth/DPoP session plugs in through `XRPCAgent` unchanged: the nonce challenge is one
/// more retry inside the agent.
final class DPoPAgentTests: XCTestCase {
    /// A DPoP-like agent as an app would write it: adds `Authorization: DPoP <token>` and a `DPoP`
    /// proof carrying the server's latest nonce; on `use_dpop_nonce` it stores the nonce and retries once.
    private actor DPoPLikeAgent: XRPCAgent {
        let inner: any XRPCAgent
        private(set) var nonce: String?

        init(wrapping inner: any XRPCAgent) { self.inner = inner }

        func defaultServiceURL() async -> URL? { await inner.defaultServiceURL() }

        func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
            ["Authorization": "DPoP access-token", "DPoP": "proof(htm=GET,nonce=\(nonce ?? "none"))"]
        }

        func send(_ request: XRPCRequest) async throws -> XRPCResponse {
            let response = try await inner.send(signed(request))
            if let fresh = response.header("DPoP-Nonce") { nonce = fresh }
            guard response.status == 401, Self.isNonceChallenge(response), nonce != nil else { return response }
            return try await inner.send(signed(request))
        }

        private func signed(_ request: XRPCRequest) -> XRPCRequest {
            var signed = request
            signed.setHeader("Authorization", "DPoP access-token")
            signed.setHeader("DPoP", "proof(htm=\(request.method.rawValue),nonce=\(nonce ?? "none"))")
            return signed
        }

        private static func isNonceChallenge(_ response: XRPCResponse) -> Bool {
            (try? JSONValue.parse(response.body))?.objectValue?["error"]?.stringValue == "use_dpop_nonce"
        }
    }

    func testANonceChallengeIsAnsweredWithOneRetryCarryingTheNonce() async throws {
        let server = StubAgent { request in
            guard request.header("DPoP") == "proof(htm=GET,nonce=n-1)" else {
                return XRPCResponse(
                    status: 401, headers: ["DPoP-Nonce": "n-1", "Content-Type": "application/json"],
                    body: Data(#"{"error":"use_dpop_nonce","message":"Authorization server requires nonce"}"#.utf8))
            }
            return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        }
        let agent = DPoPLikeAgent(wrapping: server)
        let client = XRPCClient(agent: agent)
        _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
        XCTAssertEqual(
            server.requests.map { $0.header("DPoP") }, ["proof(htm=GET,nonce=none)", "proof(htm=GET,nonce=n-1)"])
        XCTAssertEqual(server.requests.last?.header("Authorization"), "DPoP access-token")
        let nonce = await agent.nonce
        XCTAssertEqual(nonce, "n-1")

        _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
        XCTAssertEqual(server.requests.count, 3, "the stored nonce is used at once on the next call")
    }

    func testASecondChallengeIsNotRetriedAgain() async throws {
        let server = StubAgent { _ in
            XRPCResponse(
                status: 401, headers: ["DPoP-Nonce": "always-new"], body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))
        }
        let client = XRPCClient(agent: DPoPLikeAgent(wrapping: server))
        do {
            _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
            XCTFail("expected the challenge to surface")
        } catch let call {
            let error = try XCTUnwrap(call.serverError, "\(call)")
            XCTAssertEqual(error.status, 401)
            XCTAssertEqual(error.name, "use_dpop_nonce")
        }
        XCTAssertEqual(server.requests.count, 2)
    }
}
