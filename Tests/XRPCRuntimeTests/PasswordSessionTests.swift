import Foundation
import XCTest
import XRPCTesting

@testable import AtprotoData
@testable import AtprotoSyntax
@testable import XRPCAgents
@testable import XRPCCore

/// The password session: login, one shared refresh, fallback to a new login, the end of a session,
/// persistence, and where credentials may go.
final class PasswordSessionTests: XCTestCase {
    private let call = XRPCRequest(method: .get, nsid: "app.bsky.feed.getTimeline")

    private func service() throws -> URL { try XCTUnwrap(FakePDS.service) }

    private func loggedIn(
        _ pds: FakePDS,
        provider: PasswordSession.CredentialsProvider? = nil
    ) async throws -> PasswordSession {
        let session = PasswordSession(service: try service(), agent: pds.agent, credentialsProvider: provider)
        try await session.login(ATIdentifier(rawValue: pds.handle), password: pds.password)
        return session
    }

    func testLoginPublishesTheStateAndCallsGoToThePDSWithTheAccessToken() async throws {
        let pds = FakePDS()
        let session = PasswordSession(service: try service(), agent: pds.agent)
        var updates = session.updates().makeAsyncIterator()
        let archive = try await session.login("alice.test", password: "hunter2")
        XCTAssertEqual(archive.did, "did:plc:alice")
        XCTAssertEqual(archive.handle, "alice.test")
        XCTAssertEqual(archive.pdsEndpoint, FakePDS.pds)
        XCTAssertEqual(archive.email, "alice@example.com")
        XCTAssertEqual(archive.active, true)
        let published = await updates.next()
        XCTAssertEqual(published, .updated(archive))

        let response = try await session.send(call)
        XCTAssertEqual(response.status, 200)
        let sent = try XCTUnwrap(pds.requests.last)
        XCTAssertEqual(sent.serviceURL, FakePDS.pds, "calls go to the PDS from the DID document")
        XCTAssertEqual(sent.header("authorization"), "Bearer " + archive.accessToken.value)
        XCTAssertEqual(pds.requests.first?.serviceURL, FakePDS.service, "the login goes to the service")
    }

    func testTwoHundredConcurrentCallsWithAnExpiredTokenShareOneRefreshAndAllSucceed() async throws {
        let pds = FakePDS()
        pds.refreshDelay = .milliseconds(50)
        let session = try await loggedIn(pds)
        pds.expireAccessTokens()
        let request = call
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 { group.addTask { try await session.send(request).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses.count, 200)
        XCTAssertEqual(Set(statuses), [200])
        XCTAssertEqual(pds.count("com.atproto.server.refreshSession"), 1)
        XCTAssertEqual(pds.count("app.bsky.feed.getTimeline"), 400, "each call is sent once, then retried once")
        let fresh = try await XCTUnwrapAsync(await session.archive)
        XCTAssertTrue(fresh.accessToken.value.contains("access2"), "the refreshed token is in use")
    }

    /// Sent again after each refresh its rejection led to, but at most twice: a server that rejects
    /// every token costs a call three sends and two refreshes, never a loop.
    func testACallRejectedEveryTimeIsSentAtMostThreeTimes() async throws {
        let pds = FakePDS()
        let session = try await loggedIn(pds)
        let stubborn = StubAgent { request in
            if request.nsid == "com.atproto.server.refreshSession" { return try await pds.agent.send(request) }
            return FakePDS.error(401, "AuthenticationRequired", "no")
        }
        let archive = try await XCTUnwrapAsync(await session.archive)
        let other = PasswordSession(restoring: archive, agent: stubborn)
        let response = try await other.send(call)
        XCTAssertEqual(response.status, 401)
        let refresh: NSID = "com.atproto.server.refreshSession"
        XCTAssertEqual(stubborn.requests.map(\.nsid), [call.nsid, refresh, call.nsid, refresh, call.nsid])
    }

    /// The bound holds per session: fifty callers waiting on a server that rejects every token cost two
    /// refreshes in all, not two each, and each ends with the server's rejection.
    func testFiftyCallersRejectedEveryTimeShareTwoRefreshes() async throws {
        let pds = FakePDS()
        pds.refreshDelay = .milliseconds(20)
        let session = try await loggedIn(pds)
        let stubborn = StubAgent { request in
            if request.nsid == "com.atproto.server.refreshSession" { return try await pds.agent.send(request) }
            return FakePDS.error(401, "AuthenticationRequired", "no")
        }
        let archive = try await XCTUnwrapAsync(await session.archive)
        let other = PasswordSession(restoring: archive, agent: stubborn)
        let request = call
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 { group.addTask { try await other.send(request).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 401, count: 50))
        let nsids = stubborn.requests.map(\.nsid)
        XCTAssertEqual(nsids.filter { $0 == "com.atproto.server.refreshSession" }.count, 2)
        XCTAssertLessThanOrEqual(nsids.filter { $0 == request.nsid }.count, 150, "at most three sends per caller")
        // Once every caller has ended, the budget comes back: a lone caller gets what one always did.
        _ = try await other.send(request)
        XCTAssertEqual(stubborn.requests.count, nsids.count + 5, "sent, refreshed, sent, refreshed, sent")
    }

    func testADeadRefreshTokenFallsBackToTheCredentialsProviderThenRetries() async throws {
        let pds = FakePDS()
        let asked = Counter()
        let session = try await loggedIn(pds) { request in
            asked.increment()
            XCTAssertEqual(request.reason, .sessionExpired)
            XCTAssertEqual(request.did, "did:plc:alice")
            return PasswordSessionCredentials(identifier: "alice.test", password: "hunter2")
        }
        var updates = session.updates().makeAsyncIterator()
        pds.expireAccessTokens()
        pds.expireRefreshTokens()
        let response = try await session.send(call)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(asked.value, 1)
        XCTAssertEqual(pds.count("com.atproto.server.refreshSession"), 1)
        XCTAssertEqual(pds.count("com.atproto.server.createSession"), 2)
        guard case .updated(let renewed)? = await updates.next() else { return XCTFail("expected a new state") }
        XCTAssertTrue(renewed.accessToken.value.contains("access2"))
    }

    func testWhenTheNewLoginFailsTooTheSessionEndsAndLaterCallsFailFast() async throws {
        let pds = FakePDS()
        let session = try await loggedIn(pds) { _ in
            PasswordSessionCredentials(identifier: "alice.test", password: "wrong")
        }
        var updates = session.updates().makeAsyncIterator()
        pds.expireAccessTokens()
        pds.expireRefreshTokens()
        do {
            _ = try await session.send(call)
            XCTFail("the session should have ended")
        } catch let error as PasswordSessionError {
            XCTAssertEqual(error.code, .sessionEnded)
            XCTAssertTrue(error.message.contains("did:plc:alice"), error.message)
            XCTAssertTrue(error.message.contains("logging in again failed"), error.message)
            XCTAssertEqual(error.underlying?.name, "AuthenticationRequired")
        }
        guard case .ended? = await updates.next() else { return XCTFail("expected the end to be published") }
        let before = pds.total
        for _ in 0..<5 {
            do {
                _ = try await session.send(call)
                XCTFail("an ended session fails fast")
            } catch let error as PasswordSessionError {
                XCTAssertEqual(error.code, .sessionEnded)
            }
        }
        XCTAssertEqual(pds.total, before, "no request leaves an ended session")
        let archive = await session.archive
        XCTAssertNil(archive)
    }

    func testWithoutAProviderOrCredentialsTheSessionEnds() async throws {
        for provider: PasswordSession.CredentialsProvider? in [nil, { _ in nil }] {
            let pds = FakePDS()
            let session = try await loggedIn(pds, provider: provider)
            pds.expireAccessTokens()
            pds.expireRefreshTokens()
            do {
                _ = try await session.send(call)
                XCTFail("the session should have ended")
            } catch let error as PasswordSessionError {
                XCTAssertEqual(error.code, .sessionEnded)
                XCTAssertEqual(error.underlying?.name, "ExpiredToken")
            }
            XCTAssertEqual(pds.count("com.atproto.server.createSession"), 1, "only the first login")
            let ended = await session.endError
            XCTAssertEqual(ended?.code, .sessionEnded)
        }
    }

    func testATransientRefreshFailureKeepsTheSessionForTheNextCall() async throws {
        let pds = FakePDS()
        let session = try await loggedIn(pds)
        pds.expireAccessTokens()
        pds.refreshFailure = 503
        do {
            _ = try await session.send(call)
            XCTFail("the refresh failed")
        } catch let error as PasswordSessionError {
            XCTAssertEqual(error.code, .requestFailed)
            XCTAssertEqual(error.underlying?.status, 503)
        }
        pds.refreshFailure = nil
        let response = try await session.send(call)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(pds.count("com.atproto.server.refreshSession"), 2)
    }

    func testTwoFactorLoginSurfacesADistinctErrorAndTheProviderIsAskedForTheCode() async throws {
        let pds = FakePDS()
        pds.authFactorToken = "123456"
        let session = PasswordSession(service: try service(), agent: pds.agent) { request in
            PasswordSessionCredentials(
                identifier: "alice.test", password: "hunter2",
                authFactorToken: request.reason == .authFactorTokenRequired ? "123456" : nil)
        }
        do {
            try await session.login("alice.test", password: "hunter2")
            XCTFail("expected a request for the code")
        } catch let error as PasswordSessionError {
            XCTAssertEqual(error.code, .authFactorTokenRequired)
            XCTAssertEqual(error.underlying?.name, "AuthFactorTokenRequired")
        }
        try await session.login("alice.test", password: "hunter2", authFactorToken: "123456")

        pds.expireAccessTokens()
        pds.expireRefreshTokens()
        let response = try await session.send(call)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(
            pds.count("com.atproto.server.createSession"), 4, "two logins, then one without and one with the code")
    }

    func testTheArchiveRoundTripsThroughCodableAndRestoresTheSession() async throws {
        let pds = FakePDS()
        let archive = try await loggedIn(pds).archive
        let stored = try JSONEncoder().encode(archive)
        let fields = try XCTUnwrap(JSONValue.parse(stored).objectValue)
        XCTAssertEqual(fields["did"]?.stringValue, "did:plc:alice")
        XCTAssertEqual(fields["accessJwt"]?.stringValue, archive?.accessToken.value)
        let restored = try JSONDecoder().decode(PasswordSessionArchive.self, from: stored)
        XCTAssertEqual(restored, archive)

        let session = PasswordSession(restoring: restored, agent: pds.agent)
        let response = try await session.send(call)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(pds.count("com.atproto.server.createSession"), 1, "restoring needs no login")
    }

    func testTokensNeverAppearInDescriptionsDumpsOrErrors() async throws {
        let pds = FakePDS()
        let session = try await loggedIn(pds) { _ in
            PasswordSessionCredentials(identifier: "alice.test", password: "wrong")
        }
        let archive = try await XCTUnwrapAsync(await session.archive)
        XCTAssertTrue(archive.accessToken.value.contains(FakePDS.marker), "the fake tokens carry the marker")
        var texts = [
            archive.description, archive.debugDescription, String(reflecting: archive), String(describing: archive),
            dumped(archive), "\(archive.accessToken)", String(reflecting: archive.refreshToken),
            session.description, String(reflecting: session), dumped(session),
            PasswordSessionUpdate.updated(archive).description, "\(PasswordSessionUpdate.updated(archive))",
        ]
        texts += pds.requests.map { "\($0) \(String(reflecting: $0)) \(dumped($0))" }
        pds.expireAccessTokens()
        pds.expireRefreshTokens()
        do {
            _ = try await session.send(call)
        } catch {
            texts += ["\(error)", String(reflecting: error), dumped(error)]
        }
        let credentials = PasswordSessionCredentials(identifier: "alice.test", password: FakePDS.marker)
        texts += [credentials.description, String(reflecting: credentials), dumped(credentials)]
        for text in texts {
            XCTAssertFalse(text.contains(FakePDS.marker), text)
            XCTAssertFalse(text.contains("hunter2"), text)
        }
    }

    func testCredentialsGoOnlyToTheSessionsOwnHosts() async throws {
        let pds = FakePDS()
        let session = try await loggedIn(pds)
        let elsewhere = try XCTUnwrap(URL(string: "https://video.example.com"))
        _ = try await session.send(
            XRPCRequest(method: .get, nsid: "app.bsky.video.getJobStatus", serviceURL: elsewhere))
        let foreign = try XCTUnwrap(pds.requests.last)
        XCTAssertEqual(foreign.serviceURL, elsewhere)
        XCTAssertNil(foreign.header("authorization"), "no session token for another host")
        XCTAssertEqual(pds.count("com.atproto.server.refreshSession"), 0, "its 401 is not the session's business")

        let lookalike = try XCTUnwrap(URL(string: "https://pds.test.evil.example"))
        _ = try await session.send(XRPCRequest(method: .get, nsid: "a.b.c", serviceURL: lookalike))
        XCTAssertNil(pds.requests.last?.header("authorization"))

        let ownPort = try XCTUnwrap(URL(string: "https://PDS.test:443/"))
        _ = try await session.send(XRPCRequest(method: .get, nsid: "a.b.c", serviceURL: ownPort))
        XCTAssertNotNil(pds.requests.last?.header("authorization"), "same origin written differently")

        let client = XRPCClient(agent: session).proxied(to: .bskyChat)
        _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
        let proxied = try XCTUnwrap(pds.requests.last)
        XCTAssertEqual(proxied.serviceURL, FakePDS.pds, "a proxied call goes to the PDS...")
        XCTAssertNotNil(proxied.header("authorization"), "...with the token the PDS needs to proxy it")
        XCTAssertEqual(proxied.header("atproto-proxy"), "did:web:api.bsky.chat#bsky_chat")

        _ = try await session.send(XRPCRequest(method: .get, nsid: "a.b.c", headers: ["authorization": "Bearer own"]))
        XCTAssertEqual(pds.requests.last?.header("Authorization"), "Bearer own", "a request's own credentials stay")
    }

    func testGetSessionUpdatesTheHandleAndLogoutEndsTheSessionHereAndOnTheServer() async throws {
        let pds = FakePDS()
        let session = try await loggedIn(pds)
        var updates = session.updates().makeAsyncIterator()
        pds.locked { pds.handle = "alice.example.com" }
        let updated = try await session.getSession()
        XCTAssertEqual(updated.handle, "alice.example.com")
        guard case .updated(let published)? = await updates.next() else { return XCTFail("expected an update") }
        XCTAssertEqual(published.handle, "alice.example.com")

        let refreshToken = updated.refreshToken.value
        try await session.logout()
        let loggedOut = await updates.next()
        XCTAssertEqual(loggedOut, .loggedOut)
        let delete = try XCTUnwrap(pds.requests.last)
        XCTAssertEqual(delete.nsid, "com.atproto.server.deleteSession")
        XCTAssertEqual(delete.header("authorization"), "Bearer " + refreshToken)
        XCTAssertEqual(delete.serviceURL, FakePDS.service)
        _ = try await session.send(call)
        XCTAssertNil(pds.requests.last?.header("authorization"), "a logged-out session sends no token")
    }
}

// @unchecked Sendable: `count` is read and written under `lock`.
/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// Unwraps an optional produced by an async expression.
func XCTUnwrapAsync<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    try XCTUnwrap(value, file: file, line: line)
}
