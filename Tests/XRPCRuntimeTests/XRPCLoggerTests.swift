import Foundation
import XCTest
import XRPCTesting

@testable import XRPCAgents
@testable import XRPCCore

/// The log sink: levels, laziness, the record's text, and what the agents write to it.
final class XRPCLoggerTests: XCTestCase {
    // @unchecked Sendable: `stored` is read and written under `lock`.
    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [XRPCLogRecord] = []
        func append(_ record: XRPCLogRecord) { lock.withLock { stored.append(record) } }
        var records: [XRPCLogRecord] { lock.withLock { stored } }
    }

    func testRecordsBelowTheMinimumLevelAreNeitherBuiltNorWritten() {
        let lines = Lines()
        let logger = XRPCLogger(minimumLevel: .info) { lines.append($0) }
        var built = 0
        func message(_ text: String) -> String {
            built += 1
            return text
        }
        logger.log(.debug, "Test", message("hidden"))
        logger.log(.warning, "Test", message("shown"), ["b": "2", "a": "1"])
        XCTAssertEqual(built, 1, "a debug message is not built at info")
        XCTAssertEqual(lines.records.map(\.description), ["[warning] Test: shown a=1 b=2"])
        XCTAssertFalse(XRPCLogger.disabled.isEnabled(.error))
        XCTAssertTrue(logger.isEnabled(.error))
        XCTAssertFalse(logger.isEnabled(.debug))
    }

    func testARetryAndASessionRefreshAreLogged() async throws {
        let lines = Lines()
        let logger = XRPCLogger(minimumLevel: .debug) { lines.append($0) }
        let pds = FakePDS()
        let timelineCalls = Counter()
        let flaky = StubAgent { request in
            if request.nsid == "app.bsky.feed.getTimeline" {
                timelineCalls.increment()
                if timelineCalls.value == 1 { return XRPCResponse(status: 503) }
            }
            return try await pds.agent.send(request)
        }
        let retrying = RetryingAgent(
            wrapping: flaky, policy: XRPCRetryPolicy(initialDelay: .milliseconds(1)),
            environment: RetryingAgent.Environment(now: { Date() }, sleep: { _ in }, random: { 0 }), logger: logger)
        let service = try XCTUnwrap(FakePDS.service)
        let session = PasswordSession(service: service, agent: retrying, logger: logger)
        try await session.login(ATIdentifier(rawValue: pds.handle), password: pds.password)
        pds.expireAccessTokens()
        let response = try await session.send(XRPCRequest(method: .get, nsid: "app.bsky.feed.getTimeline"))
        XCTAssertEqual(response.status, 200)
        let texts = lines.records.map(\.description)
        XCTAssertTrue(texts.contains { $0.hasPrefix("[info] PasswordSession: logged in") }, "\(texts)")
        XCTAssertTrue(
            texts.contains {
                $0.hasPrefix("[warning] RetryingAgent: retrying GET app.bsky.feed.getTimeline after status 503")
            }, "\(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("[info] PasswordSession: refreshed the session") }, "\(texts)")
        XCTAssertFalse(texts.contains { $0.contains(FakePDS.marker) || $0.contains(pds.password) }, "\(texts)")
    }
}
