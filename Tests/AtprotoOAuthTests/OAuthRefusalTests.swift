import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest
import XRPCRuntime

/// A PDS that keeps refusing, refresh answers the client cannot use, and tokens the client refuses:
/// bounded refreshes per session, no spent refresh token replayed, refused tokens revoked.
final class OAuthRefusalTests: XCTestCase {
    private static let getSession = XRPCRequest(method: .get, nsid: "com.atproto.server.getSession")
    private static let callPath = "/xrpc/com.atproto.server.getSession"

    private func signedIn(_ server: FakeOAuthServer) async throws -> OAuthSession {
        var behaviour = server.behaviour
        behaviour.challengeNonce = false
        server.behaviour = behaviour
        let client = makeClient(resolver: TableResolver(pds: ["did:plc:alice": server.url]))
        let pending = try await client.authorize(.account("did:plc:alice"))
        return try await client.complete(pending, callback: callback(pending))
    }

    private func change(_ server: FakeOAuthServer, _ edit: (inout FakeOAuthServer.Behaviour) -> Void) {
        var behaviour = server.behaviour
        edit(&behaviour)
        server.behaviour = behaviour
    }

    /// `count` concurrent calls; each ends as `status <n>` or the code of the session error it threw.
    private func concurrentCalls(_ session: OAuthSession, count: Int) async -> [String] {
        await withTaskGroup(of: String.self, returning: [String].self) { group in
            for _ in 0..<count {
                group.addTask {
                    do {
                        return "status \(try await session.send(Self.getSession).status)"
                    } catch let error as OAuthSessionError {
                        return error.code.rawValue + (error.underlying?.serverCode.map { " " + $0 } ?? "")
                    } catch {
                        return "untyped \(type(of: error))"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    // MARK: The refresh budget of a session

    func testAPersistentRefusalCostsTwoRefreshesHoweverManyCallersWait() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) { $0.refuseCalls = true }
        let results = await concurrentCalls(session, count: 50)
        let refreshes = server.count("/oauth/token") - 1
        print("50 callers under a persistent refusal: \(refreshes) refreshes, \(server.count(Self.callPath)) calls")
        XCTAssertEqual(Set(results), ["requestFailed invalid_token"], "every caller ends with the session's error")
        XCTAssertEqual(refreshes, 2, "two refreshes for the session, not two per caller")
        XCTAssertLessThanOrEqual(server.count(Self.callPath), 150, "each caller sends at most three times")
        let ended = await session.endError
        XCTAssertNil(ended, "the grant is alive: the session is kept")

        // Once every caller has ended, the budget comes back: a lone caller gets what one always did.
        let before = server.count(Self.callPath)
        let later = await concurrentCalls(session, count: 1)
        XCTAssertEqual(later, ["requestFailed invalid_token"])
        XCTAssertEqual(server.count(Self.callPath), before + 3, "sent, refreshed, sent, refreshed, sent")
        XCTAssertEqual(server.count("/oauth/token"), 5)
    }

    func testAPassingRefusalCostsOneRefreshForAllCallers() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) { $0.refusedTokens = ["at-1"] }
        let results = await concurrentCalls(session, count: 50)
        XCTAssertEqual(results, Array(repeating: "status 200", count: 50))
        XCTAssertEqual(server.count("/oauth/token"), 2, "the code exchange and exactly one refresh")
        XCTAssertLessThanOrEqual(server.count(Self.callPath), 100, "each caller sends at most twice")
    }

    // MARK: Endless nonce challenges

    func testAnEndlessNonceChallengeThrowsAfterTwoAttemptsAsAtTheServer() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) { $0.challengeEveryCall = true }
        do {
            let response = try await session.send(Self.getSession)
            XCTFail("returned HTTP \(response.status) instead of throwing")
        } catch let error as OAuthSessionError {
            XCTAssertEqual(error.code, .requestFailed)
            XCTAssertEqual(error.underlying?.serverCode, "use_dpop_nonce", "\(error)")
            XCTAssertEqual(error.underlying?.status, 401)
        }
        XCTAssertEqual(server.count(Self.callPath), 2, "the challenge, then one retry")
        XCTAssertEqual(server.count("/oauth/token"), 1, "a nonce challenge is no reason to refresh")
        let ended = await session.endError
        XCTAssertNil(ended)
    }
}
