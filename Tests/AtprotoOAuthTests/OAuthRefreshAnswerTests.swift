import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest
import XRPCRuntime

/// Refresh answers the client cannot use or refuses: the rotated refresh token is kept when it can be
/// read (the server refuses a spent one as a replay), the session ends with its reason otherwise, and
/// refused tokens are revoked without the revocation hiding why.
final class OAuthRefreshAnswerTests: XCTestCase {
    private func signedIn(_ server: FakeOAuthServer) async throws -> OAuthSession {
        let client = makeClient(resolver: TableResolver(pds: ["did:plc:alice": server.url]))
        let pending = try await client.authorize(.account("did:plc:alice"))
        return try await client.complete(pending, callback: callback(pending))
    }

    private func change(_ server: FakeOAuthServer, _ edit: (inout FakeOAuthServer.Behaviour) -> Void) {
        var behaviour = server.behaviour
        edit(&behaviour)
        server.behaviour = behaviour
    }

    /// The error `session.refresh()` throws.
    private func refreshError(_ session: OAuthSession, file: StaticString = #filePath, line: UInt = #line) async
        -> OAuthSessionError?
    {
        do {
            try await session.refresh()
            XCTFail("the refresh was accepted", file: file, line: line)
        } catch let error as OAuthSessionError {
            return error
        } catch {
            XCTFail("untyped: \(error)", file: file, line: line)
        }
        return nil
    }

    func testAnAnswerWithoutTokenTypeKeepsItsRefreshTokenAndTheGrant() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        let updates = session.updates()
        change(server) { $0.tokenType = nil }
        let error = await refreshError(session)
        XCTAssertEqual(error?.code, .requestFailed, "\(String(describing: error))")
        XCTAssertEqual(error?.underlying?.kind, .invalidResponse)
        let kept = try await currentArchive(of: session)
        XCTAssertEqual(kept.refreshToken?.value, "rt-2", "the rotated refresh token is kept")
        XCTAssertEqual(kept.accessToken.value, "at-1", "the old access token stays until a usable answer")
        guard case .updated(let published)? = await firstUpdate(of: updates) else {
            return XCTFail("nothing published")
        }
        XCTAssertEqual(published.refreshToken?.value, "rt-2", "the app stores the rotated token")
        // The next refresh sends the rotated token; the spent one would be refused as a replay.
        change(server) { $0.tokenType = "DPoP" }
        let refreshed = try await session.refresh()
        XCTAssertEqual(refreshed.refreshToken?.value, "rt-3")
        XCTAssertEqual(refreshed.accessToken.value, "at-3")
        XCTAssertEqual(server.revokedTokens, [], "an unusable answer is no refusal of the grant")
    }

    func testAnUnusableAnswerWithoutARefreshTokenEndsTheSessionSayingWhy() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) {
            $0.tokenType = nil
            $0.sendsRefreshToken = false
        }
        let error = await refreshError(session)
        XCTAssertEqual(error?.code, .sessionEnded)
        XCTAssertEqual(error?.underlying?.kind, .invalidResponse)
        XCTAssertTrue(error?.message.contains("no refresh token") == true, "\(String(describing: error))")
        let ended = await session.endError
        XCTAssertEqual(ended, error)
    }

    func testRefreshedTokensForAnotherAccountEndTheSessionWithTheReasonAndAreRevoked() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) { $0.tokenSub = "did:plc:mallory" }
        let error = await refreshError(session)
        XCTAssertEqual(error?.code, .sessionEnded)
        XCTAssertEqual(error?.underlying?.kind, .bindingMismatch, "the reason the session ended")
        XCTAssertTrue(error?.underlying?.message.contains("did:plc:mallory") == true, "\(String(describing: error))")
        XCTAssertEqual(server.revokedTokens, ["rt-2"], "the refused grant is revoked")
    }

    func testARefreshAnswerOfAnotherTokenTypeEndsTheSessionAndIsRevoked() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) { $0.tokenType = "Bearer" }
        let error = await refreshError(session)
        XCTAssertEqual(error?.code, .sessionEnded)
        XCTAssertEqual(error?.underlying?.kind, .invalidResponse)
        XCTAssertEqual(server.revokedTokens, ["rt-2"])
    }

    func testAFailingRevocationNeverHidesWhyTheTokensWereRefused() async throws {
        let server = try FakeOAuthServer()
        let session = try await signedIn(server)
        change(server) {
            $0.tokenSub = "did:plc:mallory"
            $0.revocationUnavailable = true
        }
        let error = await refreshError(session)
        XCTAssertEqual(error?.code, .sessionEnded)
        XCTAssertEqual(error?.underlying?.kind, .bindingMismatch)
        XCTAssertEqual(server.revokedTokens, ["rt-2"], "the revocation was tried")
    }
}
