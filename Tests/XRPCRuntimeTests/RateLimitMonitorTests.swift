import Foundation
import LoopbackHTTPServer
import XCTest

@testable import XRPCAgents
@testable import XRPCCore

/// A client's rate-limit monitor against a loopback server that sends `RateLimit-*` fields on a
/// success and on a 429: every call's figures are kept per service and handed to the handler.
final class RateLimitMonitorTests: XCTestCase {
    /// The first call succeeds with one request left; every later one is refused with none.
    private static func limitedServer(calls: CallCounter) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { _ in
            let reset = "2000000000"
            if calls.next() == 1 {
                return .json(
                    "{}",
                    headers: [
                        "RateLimit-Limit": "3", "RateLimit-Remaining": "1", "RateLimit-Reset": reset,
                        "RateLimit-Policy": "3;w=300",
                    ])
            }
            return .json(
                #"{"error": "RateLimitExceeded", "message": "slow down"}"#, status: 429,
                headers: [
                    "RateLimit-Limit": "3", "RateLimit-Remaining": "0", "RateLimit-Reset": reset,
                    "RateLimit-Policy": "3;w=300", "Retry-After": "120",
                ])
        }
    }

    func testFiguresOfASuccessAndOfA429ReachTheClientAndItsHandler() async throws {
        let calls = CallCounter()
        let server = try Self.limitedServer(calls: calls)
        defer { server.stop() }
        let seen = ReadingLog()
        var client = XRPCClient(agent: URLSessionAgent(serviceURL: server.baseURL))
        client.rateLimits = XRPCRateLimitMonitor { seen.append($0) }
        XCTAssertNil(client.rateLimits.latest(), "nothing before the first answer")

        _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
        let first = try XCTUnwrap(client.rateLimits.latest())
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.nsid, TestQuery.nsid)
        XCTAssertEqual(
            first.rateLimit,
            XRPCRateLimit(
                limit: 3, remaining: 1, reset: Date(timeIntervalSince1970: 2_000_000_000), policy: "3;w=300"))
        XCTAssertEqual(client.rateLimits.latest(for: server.baseURL.appendingPathComponent("xrpc")), first)
        XCTAssertNil(client.rateLimits.latest(for: URL(string: "https://elsewhere.example")))

        // A copy of the client (another header, a proxy) reports to the same monitor.
        do {
            _ = try await client.withHeader("X-Copy", "1").query(TestQuery.self, parameters: XRPCNoParameters())
            XCTFail("the second call is refused")
        } catch {
            XCTAssertEqual(error.code, .rateLimited)
            XCTAssertEqual(error.rateLimit?.remaining, 0, "the error carries the figures too")
            XCTAssertEqual(error.retryAfter, .seconds(120))
        }
        let refused = try XCTUnwrap(client.rateLimits.latest())
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(refused.rateLimit.remaining, 0)
        XCTAssertEqual(client.rateLimits.all, [refused], "one service, its latest reading")
        XCTAssertEqual(seen.all.map { $0.status }, [200, 429])
        XCTAssertEqual(seen.all.map { $0.rateLimit.remaining }, [1, 0])
    }

    func testAnAnswerWithoutFiguresKeepsTheLastReading() async throws {
        let calls = CallCounter()
        let server = try LoopbackHTTPServer { _ in
            calls.next() == 1 ? .json("{}", headers: ["RateLimit-Remaining": "9"]) : .json("{}")
        }
        defer { server.stop() }
        let client = XRPCClient(agent: URLSessionAgent(serviceURL: server.baseURL))
        _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
        _ = try await client.query(TestQuery.self, parameters: XRPCNoParameters())
        XCTAssertEqual(client.rateLimits.latest()?.rateLimit.remaining, 9)
    }
}

// @unchecked Sendable: `count` is read and written only under `lock`.
/// Counts calls across the server's connection threads.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// The number of this call, from 1.
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

// @unchecked Sendable: `items` is read and written only under `lock`.
/// The readings a monitor's handler got, in order.
private final class ReadingLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [XRPCRateLimitMonitor.Reading] = []
    func append(_ reading: XRPCRateLimitMonitor.Reading) { lock.withLock { items.append(reading) } }
    var all: [XRPCRateLimitMonitor.Reading] { lock.withLock { items } }
}
