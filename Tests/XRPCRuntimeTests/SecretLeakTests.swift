import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
import SecretLeakTesting
import XCTest

@testable import XRPCAgents
@testable import XRPCCore

/// The whole password flow with logging on (login refused and accepted, calls, an expiry and its
/// refresh, an explicit refresh, logout, a dead refresh token and a refused re-login): no token or
/// password appears in a log line, a description, a dump or an error.
final class PasswordSecretLeakTests: XCTestCase {
    func testTheLeakCheckFindsAPlantedSecret() {
        let secret = "eyJ.planted-\(UUID().uuidString)"
        XCTAssertEqual(secretLeaks(in: ["fine", "Bearer \(secret)"], of: [secret]).count, 1)
        XCTAssertEqual(secretLeaks(in: printedForms(["token": secret]), of: [secret]).count, 3)
        XCTAssertEqual(secretLeaks(in: printedForms(XRPCSessionToken(secret)), of: [secret]), [])
    }

    func testNoSecretInLogsDescriptionsOrErrorsOfAWholePasswordFlow() async throws {
        let pds = try FaultPDS(faults: LoopbackFaults(seed: 0, rates: [:]))
        let capture = LogCapture()
        let wrongPassword = "wrong-password-\(UUID().uuidString)"
        let transport = RetryingAgent(
            wrapping: URLSessionAgent(serviceURL: pds.url, logger: capture.logger), logger: capture.logger)
        let session = PasswordSession(
            service: pds.url, agent: transport,
            credentialsProvider: { _ in PasswordSessionCredentials(identifier: "faulty.test", password: wrongPassword)
            },
            logger: capture.logger)
        var texts: [String] = []
        let updates = Task {
            var seen: [String] = []
            for await update in session.updates() { seen += printedForms(update) }
            return seen
        }
        do {
            try await session.login("faulty.test", password: wrongPassword)
            XCTFail("logged in with a wrong password")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }
        let archive = try await session.login("faulty.test", password: pds.password)
        let client = XRPCClient(agent: session)
        for index in 0..<4 { texts.append(await faultCall(client, index)) }
        pds.expireAccessToken()
        for index in 4..<8 { texts.append(await faultCall(client, index)) }
        let refreshed = try await session.refresh()
        texts += printedForms(archive) + printedForms(refreshed) + printedForms(session)
        texts += printedForms(PasswordSessionCredentials(identifier: "faulty.test", password: pds.password))
        texts += printedForms(refreshed.accessToken) + printedForms(refreshed.refreshToken) + printedForms(transport)

        // A restored session whose refresh token is dead and whose re-login is refused: it ends.
        let restored = PasswordSession(
            restoring: refreshed, agent: transport,
            credentialsProvider: { _ in PasswordSessionCredentials(identifier: "faulty.test", password: wrongPassword)
            },
            logger: capture.logger)
        try await session.logout()
        pds.expireAccessToken()
        do {
            _ = try await restored.send(
                XRPCRequest(method: .get, nsid: FaultPDS.query, queryItems: [.init(name: "id", value: "9")]))
            XCTFail("the restored session did not end")
        } catch {
            texts += printedForms(error) + [error.localizedDescription]
        }
        texts += printedForms(restored) + printedForms(await restored.endError as Any)
        updates.cancel()
        texts += await updates.value

        let secrets = pds.tokens + [pds.password, wrongPassword]
        XCTAssertGreaterThanOrEqual(pds.tokens.count, 6, "login, refreshes: tokens to look for")
        XCTAssertGreaterThan(capture.count, 10, "logging was on")
        XCTAssertEqual(secretLeaks(in: capture.lines, of: secrets), [], "in log lines")
        XCTAssertEqual(secretLeaks(in: texts, of: secrets), [], "in descriptions, dumps and errors")
    }
}
