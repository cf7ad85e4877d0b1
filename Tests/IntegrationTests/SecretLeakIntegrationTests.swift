import AtprotoLexicons
import Foundation
import XCTest

/// The password flow against the real PDS with logging on (a refused login, login, calls, an
/// expired access token and its refresh, an explicit refresh, logout, a call after it): no token or
/// password appears in a log line, a description, a dump or an error.
final class SecretLeakIntegrationTests: XCTestCase {
    private final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [XRPCLogRecord] = []
        var logger: XRPCLogger {
            XRPCLogger(minimumLevel: .debug) { [self] record in lock.withLock { records.append(record) } }
        }
        var lines: [String] { lock.withLock { records }.flatMap { [$0.description] + printed($0) } }
    }

    private static func printed(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    func testNoSecretInLogsDescriptionsOrErrorsOfAPasswordFlowOnThePDS() async throws {
        let environment = try PDSEnvironment.current()
        guard let lifetime = environment.accessTokenLifetime, lifetime <= 30 else {
            throw XCTSkip("set ATPROTO_PDS_ACCESS_TTL (at most 30 s) to the PDS's --access-ttl to test refresh")
        }
        let capture = Capture()
        let wrongPassword = "wrong-\(UUID().uuidString)"
        let transport = RetryingAgent(
            wrapping: URLSessionAgent(serviceURL: environment.url, logger: capture.logger), logger: capture.logger)
        let session = PasswordSession(service: environment.url, transport: transport, logger: capture.logger)
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
            texts += Self.printed(error) + [error.localizedDescription]
        }
        let account = try await session.login(
            ATIdentifier(rawValue: environment.handle), password: environment.password)
        let client = XRPCClient(agent: session)
        _ = try await client.com.atproto.server.getSession()
        // Token times are whole seconds: one more second and a little is past any rounding.
        try await Task.sleep(for: .milliseconds(lifetime * 1000 + 1500))
        _ = try await client.com.atproto.server.getSession()
        let refreshed = try await session.refresh()
        texts += Self.printed(account) + Self.printed(refreshed) + Self.printed(session) + Self.printed(transport)
        try await session.logout()
        do {
            _ = try await client.com.atproto.server.getSession()
            XCTFail("a call after logout was accepted")
        } catch {
            texts += Self.printed(error) + [error.localizedDescription]
        }
        updates.cancel()
        let published = await updates.value
        texts += published.flatMap { Self.printed($0) }
        let archives = published.compactMap { update -> PasswordSessionArchive? in
            if case .updated(let archive) = update { return archive }
            return nil
        }

        let secrets =
            archives.flatMap { [$0.accessToken.value, $0.refreshToken.value] } + [environment.password, wrongPassword]
        XCTAssertGreaterThanOrEqual(archives.count, 3, "login, the refresh after expiry, the explicit refresh")
        let leaks = (capture.lines + texts).filter { text in secrets.contains { text.contains($0) } }
        XCTAssertEqual(leaks.count, 0, "secrets in: \(leaks.map { String($0.prefix(200)) })")
    }
}
