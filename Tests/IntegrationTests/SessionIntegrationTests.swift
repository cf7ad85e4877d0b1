import AtprotoLexicons
import Foundation
import XCTest

/// `PasswordSession` over `URLSessionAgent` against a real PDS: login, the session's account, and a
/// call that outlives its access token going through exactly one refresh.
final class SessionIntegrationTests: XCTestCase {
    func testLoginReadsTheAccountAndItsPDS() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        let archive = try await XCTUnwrapAsync(await account.session.archive)

        XCTAssertEqual(archive.handle.rawValue, environment.handle)
        XCTAssertTrue(archive.did.isValid, "\(archive.did)")
        let pds = try XCTUnwrap(archive.pdsEndpoint, "the DID document names the account's PDS")
        XCTAssertEqual(pds.host, environment.url.host)
        XCTAssertEqual(pds.port, environment.url.port)
        let read = try await account.session.getSession()
        XCTAssertEqual(read.did, archive.did)
        XCTAssertEqual(account.sentNSIDs, ["com.atproto.server.createSession", "com.atproto.server.getSession"])
    }

    func testAWrongPasswordIsAnAuthenticationFailure() async throws {
        let environment = try PDSEnvironment.current()
        let session = PasswordSession(service: environment.url, agent: environment.recordingTransport())
        do {
            try await session.login(
                ATIdentifier(rawValue: environment.handle), password: environment.password + "-wrong")
            XCTFail("a wrong password logged in")
        } catch let error as PasswordSessionError {
            XCTAssertEqual(error.code, .authenticationFailed)
            XCTAssertEqual(error.underlying?.status, 401)
        }
    }

    func testACallAfterTheAccessTokenExpiredGoesThroughOneRefresh() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        try await waitPastAccessTokenLifetime(environment)
        let updates = account.session.updates()
        let before = try await XCTUnwrapAsync(await account.session.archive)

        let created = try await account.client.createRecord(
            AppBskyFeedPost(text: "after expiry", createdAt: now()), repo: account.repo)

        XCTAssertEqual(created.uri.authority, account.repo)
        XCTAssertEqual(
            account.sentNSIDs,
            [
                "com.atproto.server.createSession", "com.atproto.repo.createRecord",
                "com.atproto.server.refreshSession", "com.atproto.repo.createRecord",
            ])
        let after = try await XCTUnwrapAsync(await account.session.archive)
        XCTAssertNotEqual(after.accessToken, before.accessToken)
        XCTAssertNotEqual(after.refreshToken, before.refreshToken, "refresh tokens are single use")
        var iterator = updates.makeAsyncIterator()
        guard case .updated(let published)? = await iterator.next() else {
            return XCTFail("the refreshed session was not published")
        }
        XCTAssertEqual(published, after)
    }

    func testConcurrentCallsAfterExpiryShareOneRefresh() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        try await waitPastAccessTokenLifetime(environment)

        // Writes: a create refused for the expired token was not applied, so sending it again after
        // the one refresh makes exactly one record (the PDS applies a repo's writes one at a time).
        let client = account.client
        let repo = account.repo
        let created = try await withThrowingTaskGroup(of: ATURI.self) { group in
            for index in 0..<5 {
                group.addTask {
                    let post = AppBskyFeedPost(text: "after expiry \(index)", createdAt: LexiconDatetime.now())
                    return try await client.createRecord(post, repo: repo).uri
                }
            }
            return try await group.reduce(into: [ATURI]()) { $0.append($1) }
        }

        XCTAssertEqual(Set(created).count, 5, "five distinct records: \(created)")
        let refreshes = account.sentNSIDs.filter { $0 == "com.atproto.server.refreshSession" }
        XCTAssertEqual(refreshes.count, 1, "\(account.sentNSIDs)")
        let calls = account.sentNSIDs.filter { $0 == "com.atproto.repo.createRecord" }
        XCTAssertGreaterThanOrEqual(calls.count, 6, "at least one call was rejected and retried: \(account.sentNSIDs)")
        XCTAssertLessThanOrEqual(calls.count, 10, "each call is retried at most once: \(account.sentNSIDs)")
        // Every acknowledged create is stored.
        for uri in created {
            let read = try await client.getRecord(AppBskyFeedPost.self, repo: repo, rkey: try XCTUnwrap(uri.rkey))
            XCTAssertTrue(read.value.text.hasPrefix("after expiry "), "\(uri): \(read.value.text)")
        }
    }

    func testLogoutRevokesTheRefreshToken() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        let archive = try await XCTUnwrapAsync(await account.session.archive)
        try await account.session.logout()

        let restored = PasswordSession(restoring: archive, agent: environment.recordingTransport())
        do {
            try await restored.refresh()
            XCTFail("a logged-out refresh token still worked")
        } catch let error as PasswordSessionError {
            XCTAssertEqual(error.code, .sessionEnded)
            XCTAssertEqual(error.underlying?.name, "ExpiredToken")
        }
    }

    func testAnExpiredSessionWithARevokedRefreshTokenLogsInAgainThroughTheProvider() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        let stale = try await XCTUnwrapAsync(await account.session.archive)
        try await account.session.logout()
        try await waitPastAccessTokenLifetime(environment)

        let transport = environment.recordingTransport()
        let asked = ProviderCalls()
        let restored = PasswordSession(restoring: stale, agent: transport) { request in
            await asked.record(request)
            return PasswordSessionCredentials(identifier: environment.handle, password: environment.password)
        }
        let read = try await XRPCClient(agent: restored).com.atproto.server.getSession()

        XCTAssertEqual(read.did, stale.did)
        XCTAssertEqual(
            transport.requests.map(\.nsid),
            [
                "com.atproto.server.getSession", "com.atproto.server.refreshSession",
                "com.atproto.server.createSession", "com.atproto.server.getSession",
            ])
        let requests = await asked.requests
        XCTAssertEqual(requests.map(\.reason), [.sessionExpired])
        XCTAssertEqual(requests.first?.did, stale.did)
    }

    private func waitPastAccessTokenLifetime(_ environment: PDSEnvironment) async throws {
        guard let lifetime = environment.accessTokenLifetime, lifetime <= 30 else {
            throw XCTSkip("set ATPROTO_PDS_ACCESS_TTL (at most 30 s) to the PDS's --access-ttl to test refresh")
        }
        // Token times are whole seconds: one more second and a little is past any rounding.
        try await Task.sleep(for: .milliseconds(lifetime * 1000 + 1500))
    }
}

/// `XCTUnwrap` for an optional read from an actor.
func XCTUnwrapAsync<T>(
    _ value: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let resolved = try await value()
    return try XCTUnwrap(resolved, file: file, line: line)
}

/// The credentials requests a session made.
actor ProviderCalls {
    private(set) var requests: [PasswordSessionCredentialsRequest] = []

    func record(_ request: PasswordSessionCredentialsRequest) {
        requests.append(request)
    }
}
