import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest
import XRPCRuntime

final class OAuthSessionTests: XCTestCase {
    private func signedIn(_ server: FakeOAuthServer, resolver: TableResolver? = nil) async throws -> (
        AtprotoOAuthClient, OAuthSession
    ) {
        let client = makeClient(resolver: resolver ?? TableResolver(pds: ["did:plc:alice": server.url]))
        let pending = try await client.authorize(.account("did:plc:alice"))
        return (client, try await client.complete(pending, callback: callback(pending)))
    }

    private static let getSession = XRPCRequest(method: .get, nsid: "com.atproto.server.getSession")

    func testCallsCarryDPoPAndANonceChallengeIsRetriedOnce() async throws {
        let server = try FakeOAuthServer()
        let (_, session) = try await signedIn(server)
        let response = try await session.send(Self.getSession)
        XCTAssertEqual(response.status, 200)
        let headers = server.resourceHeaders
        XCTAssertEqual(headers.count, 2, "the challenge, then one retry")
        let proofs = headers.compactMap { $0["dpop"].flatMap(CompactJWS.split) }.map {
            (try? JSONSerialization.jsonObject(with: Data($0.claims))) as? [String: Any] ?? [:]
        }
        XCTAssertEqual(proofs[0]["nonce"] as? String, "as-n2", "one origin: the token endpoint's nonce, then the PDS's")
        XCTAssertEqual(proofs[1]["nonce"] as? String, "rs-n1")
        XCTAssertEqual(proofs[1]["htu"] as? String, server.origin + "/xrpc/com.atproto.server.getSession")
        XCTAssertEqual(proofs[1]["ath"] as? String, DPoPProof.accessTokenHash("at-1"))
        XCTAssertEqual(headers[1]["authorization"], "DPoP at-1")
        let archive = try await currentArchive(of: session)
        XCTAssertEqual(archive.nonces[server.origin], "rs-n1", "the PDS's nonce, kept apart")
        XCTAssertEqual(archive.nonces.count, 1, "one origin here: AS and PDS are one server")
    }

    func testCredentialsNeverGoToAnotherHost() async throws {
        let server = try FakeOAuthServer()
        let other = try FakeOAuthServer()
        let (_, session) = try await signedIn(server)
        var request = Self.getSession
        request.serviceURL = other.url
        _ = try await session.send(request)
        XCTAssertEqual(other.resourceHeaders.count, 1)
        XCTAssertNil(other.resourceHeaders.first?["authorization"])
        XCTAssertNil(other.resourceHeaders.first?["dpop"])
    }

    func testConcurrentCallsNearExpiryShareOneRefresh() async throws {
        let server = try FakeOAuthServer()
        var behaviour = server.behaviour
        behaviour.expiresIn = 1
        behaviour.challengeNonce = false
        server.behaviour = behaviour
        let (_, session) = try await signedIn(server)
        try await Task.sleep(for: .milliseconds(1100))
        let statuses = await withTaskGroup(of: Int.self, returning: [Int].self) { group in
            for _ in 0..<50 { group.addTask { (try? await session.send(Self.getSession).status) ?? -1 } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 50))
        XCTAssertEqual(server.count("/oauth/token"), 2, "the code exchange and exactly one refresh")
        XCTAssertEqual(
            server.count("/.well-known/oauth-protected-resource"), 3, "the binding is checked again before the refresh")
    }

    func testABindingThatBrokeEndsTheSessionAtRefresh() async throws {
        let server = try FakeOAuthServer()
        let (_, session) = try await signedIn(server)
        var behaviour = server.behaviour
        behaviour.namedAuthorizationServer = "https://elsewhere.example.com"
        server.behaviour = behaviour
        let updates = session.updates()
        do {
            try await session.refresh()
            XCTFail("refreshed though the PDS names another issuer")
        } catch let error as OAuthSessionError {
            XCTAssertEqual(error.code, .sessionEnded)
            XCTAssertEqual(error.underlying?.code, .bindingMismatch)
        }
        XCTAssertEqual(server.count("/oauth/token"), 1, "no refresh was sent")
        var iterator = updates.makeAsyncIterator()
        if case .ended? = await iterator.next() {} else { XCTFail("no ended update") }
    }

    func testAnUnavailableServerFailsTheRefreshButKeepsTheSession() async throws {
        let server = try FakeOAuthServer()
        let (_, session) = try await signedIn(server)
        var behaviour = server.behaviour
        behaviour.resourceMetadataUnavailable = true
        server.behaviour = behaviour
        do {
            try await session.refresh()
            XCTFail("refreshed without the binding check")
        } catch let error as OAuthSessionError {
            XCTAssertEqual(error.code, .requestFailed, "\(error)")
        }
        let ended = await session.endError
        XCTAssertNil(ended, "a 503 does not end the session")
        behaviour.resourceMetadataUnavailable = false
        server.behaviour = behaviour
        let archive = try await session.refresh()
        XCTAssertEqual(archive.refreshToken?.value, "rt-2")
    }

    func testADeadGrantEndsOnceAndLaterCallsFailFast() async throws {
        let server = try FakeOAuthServer()
        let (_, session) = try await signedIn(server)
        var behaviour = server.behaviour
        behaviour.refuseRefresh = true
        server.behaviour = behaviour
        let results = await withTaskGroup(of: String.self, returning: [String].self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await session.send(Self.getSession)
                        return "sent"
                    } catch let error as OAuthSessionError {
                        return error.code.rawValue
                    } catch {
                        return "other"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(Set(results), ["sessionEnded"])
        XCTAssertEqual(server.count("/oauth/token"), 2, "one refresh attempt for all callers")
        let error = await session.endError
        XCTAssertEqual(error?.underlying?.serverCode, "invalid_grant")
        let before = server.resourceHeaders.count
        _ = try? await session.send(Self.getSession)
        XCTAssertEqual(server.resourceHeaders.count, before, "an ended session sends nothing")
    }

    func testArchivesRoundTripWithoutShowingSecrets() async throws {
        let server = try FakeOAuthServer()
        let (client, session) = try await signedIn(server)
        let archive = try await currentArchive(of: session)
        let data = try JSONEncoder().encode(archive)
        let decoded = try JSONDecoder().decode(OAuthSessionArchive.self, from: data)
        XCTAssertEqual(decoded, archive)
        var dumped = ""
        dump(archive, to: &dumped)
        for text in ["\(archive)", String(reflecting: archive), dumped, "\(OAuthSessionUpdate.updated(archive))"] {
            XCTAssertFalse(text.contains("at-1") || text.contains("rt-1"), text)
        }
        let restored = try await client.restore(decoded)
        let response = try await restored.send(Self.getSession)
        XCTAssertEqual(response.status, 200)
        try await restored.signOut()
        XCTAssertEqual(server.count("/oauth/revoke"), 1)
        let after = await restored.archive
        XCTAssertNil(after)
    }

    func testTokensThatCannotBeStoredEndTheSession() async throws {
        let server = try FakeOAuthServer()
        let store = FlakyStore()
        let client = AtprotoOAuthClient(
            configuration: .development(), keyFactory: FixedKeyFactory(),
            resolver: TableResolver(pds: ["did:plc:alice": server.url]), refreshLock: OAuthInProcessRefreshLock(),
            store: store)
        let pending = try await client.authorize(.account("did:plc:alice"))
        let session = try await client.complete(pending, callback: callback(pending))
        XCTAssertEqual(store.saves, 1)
        store.failing = true
        do {
            try await session.refresh()
            XCTFail("kept tokens the store refused")
        } catch let error as OAuthSessionError {
            XCTAssertEqual(error.code, .sessionEnded)
        }
        let ended = await session.endError
        XCTAssertNotNil(ended)
    }
}

// @unchecked Sendable: `count` and `fail` are read and written under `lock`.
/// A store that can be told to fail.
final class FlakyStore: OAuthSessionStore, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var fail = false
    var saves: Int { lock.withLock { count } }
    var failing: Bool {
        get { lock.withLock { fail } }
        set { lock.withLock { fail = newValue } }
    }
    func archive(for did: DID) async throws -> OAuthSessionArchive? { nil }
    func save(_ archive: OAuthSessionArchive) async throws {
        try lock.withLock {
            if fail { throw OAuthError(.transport, message: "disk full") }
            count += 1
        }
    }
    func delete(_ did: DID) async throws {}
}
