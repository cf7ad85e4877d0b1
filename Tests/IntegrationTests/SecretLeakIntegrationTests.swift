import AtprotoLexicons
import Foundation
import SecretLeakTesting
import XCTest

/// The password flow against the real PDS with logging on (a refused login, login, calls, an
/// expired access token and its refresh, an explicit refresh, logout, a call after it): no token or
/// password appears in a log line, a description, a dump or an error.
final class SecretLeakIntegrationTests: XCTestCase {
    func testNoSecretInLogsDescriptionsOrErrorsOfAPasswordFlowOnThePDS() async throws {
        let environment = try PDSEnvironment.current()
        guard let lifetime = environment.accessTokenLifetime, lifetime <= 30 else {
            throw XCTSkip("set ATPROTO_PDS_ACCESS_TTL (at most 30 s) to the PDS's --access-ttl to test refresh")
        }
        let capture = LogCapture()
        let wrongPassword = "wrong-\(UUID().uuidString)"
        let transport = RetryingAgent(
            wrapping: URLSessionAgent(serviceURL: environment.url, logger: capture.logger), logger: capture.logger)
        let session = PasswordSession(service: environment.url, agent: transport, logger: capture.logger)
        let updates = Task {
            var seen: [PasswordSessionUpdate] = []
            for await update in session.updates() { seen.append(update) }
            return seen
        }
        var texts: [String] = []
        do {
            try await session.login(ATIdentifier(rawValue: environment.handle), password: wrongPassword)
            XCTFail("logged in with a wrong password")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }
        let account = try await session.login(
            ATIdentifier(rawValue: environment.handle), password: environment.password)
        let client = XRPCClient(agent: session)
        _ = try await client.com.atproto.server.getSession()
        // Token times are whole seconds: one more second and a little is past any rounding.
        try await Task.sleep(for: .milliseconds(lifetime * 1000 + 1500))
        _ = try await client.com.atproto.server.getSession()
        let refreshed = try await session.refresh()
        texts += printedForms(account) + printedForms(refreshed) + printedForms(session) + printedForms(transport)
        try await session.logout()
        do {
            _ = try await client.com.atproto.server.getSession()
            XCTFail("a call after logout was accepted")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }
        updates.cancel()
        let published = await updates.value
        texts += published.flatMap { printedForms($0) }
        let archives = published.compactMap { update -> PasswordSessionArchive? in
            if case .updated(let archive) = update { return archive }
            return nil
        }

        let secrets =
            archives.flatMap { [$0.accessToken.value, $0.refreshToken.value] } + [environment.password, wrongPassword]
        XCTAssertGreaterThanOrEqual(archives.count, 3, "login, the refresh after expiry, the explicit refresh")
        XCTAssertEqual(secretLeaks(in: capture.lines + texts, of: secrets), [])
    }
}
