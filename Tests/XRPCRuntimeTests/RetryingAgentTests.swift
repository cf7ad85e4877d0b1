import Foundation
import XCTest
import XRPCTesting

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// The retry policy: which failures are retried, how long it waits, and that procedures are opt-in.
final class RetryingAgentTests: XCTestCase {
    // @unchecked Sendable: every `var` is read and written under `lock`.
    /// Answers with scripted outcomes in order (the last one repeats) and records the waits.
    private final class Script: @unchecked Sendable {
        enum Outcome {
            case status(Int, HTTPHeaderFields)
            case transport(XRPCTransportError.Code)
        }

        private let lock = NSLock()
        private var outcomes: [Outcome]
        private var sleepsRecorded: [Duration] = []
        private var sent = 0

        init(_ outcomes: [Outcome]) { self.outcomes = outcomes }

        var sleeps: [Duration] { lock.withLock { sleepsRecorded } }
        var requests: Int { lock.withLock { sent } }

        func agent(
            policy: XRPCRetryPolicy, random: Double = 0.5, now: Date = Date(timeIntervalSince1970: 1_700_000_000)
        )
            -> RetryingAgent
        {
            let stub = StubAgent { [self] request in
                let outcome: Outcome = lock.withLock {
                    sent += 1
                    return outcomes.count > 1 ? outcomes.removeFirst() : outcomes[0]
                }
                switch outcome {
                case .status(let status, let headers): return XRPCResponse(status: status, headers: headers)
                case .transport(let kind):
                    throw XRPCTransportError(kind, nsid: request.nsid, message: "scripted")
                }
            }
            let environment = RetryingAgent.Environment(
                now: { now },
                sleep: { [self] duration in lock.withLock { sleepsRecorded.append(duration) } },
                random: { random })
            return RetryingAgent(wrapping: stub, policy: policy, environment: environment)
        }
    }

    private let query = XRPCRequest(method: .get, nsid: "app.bsky.feed.getTimeline")
    private let procedure = XRPCRequest(method: .post, nsid: "com.atproto.repo.createRecord")

    func testRetryableStatusesBackOffExponentiallyWithJitterThenSucceed() async throws {
        let script = Script([.status(503, [:]), .status(500, [:]), .status(502, [:]), .status(200, [:])])
        let policy = XRPCRetryPolicy(maxAttempts: 4, initialDelay: .seconds(1), maxDelay: .seconds(3))
        let response = try await script.agent(policy: policy, random: 0.5).send(query)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(script.requests, 4)
        // Half the backoff plus half of the other half: 1 s -> 0.75 s, 2 s -> 1.5 s, capped 3 s -> 2.25 s.
        XCTAssertEqual(script.sleeps, [.milliseconds(750), .milliseconds(1500), .milliseconds(2250)])
    }

    func testJitterStaysBetweenHalfAndAllOfTheBackoff() async throws {
        let low = Script([.status(429, [:]), .status(200, [:])])
        _ = try await low.agent(policy: XRPCRetryPolicy(initialDelay: .seconds(2)), random: 0).send(query)
        XCTAssertEqual(low.sleeps, [.seconds(1)])
        let high = Script([.status(429, [:]), .status(200, [:])])
        _ = try await high.agent(policy: XRPCRetryPolicy(initialDelay: .seconds(2)), random: 0.999_999).send(query)
        XCTAssertLessThanOrEqual(high.sleeps[0], .seconds(2))
        XCTAssertGreaterThan(high.sleeps[0], .milliseconds(1999))
    }

    func testGivesUpAfterMaxAttemptsAndReturnsTheLastResponse() async throws {
        let script = Script([.status(503, ["Content-Type": "text/plain"])])
        let response = try await script.agent(policy: XRPCRetryPolicy(maxAttempts: 3)).send(query)
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(script.requests, 3)
        XCTAssertEqual(script.sleeps.count, 2)
    }

    func testOtherStatusesAreNotRetried() async throws {
        for status in [200, 400, 401, 404, 501] {
            let script = Script([.status(status, [:])])
            let response = try await script.agent(policy: .default).send(query)
            XCTAssertEqual(response.status, status)
            XCTAssertEqual(script.requests, 1, "status \(status)")
        }
    }

    func testRetryAfterSecondsAndHTTPDateAreHonoured() async throws {
        let seconds = Script([.status(429, ["Retry-After": "7"]), .status(200, [:])])
        _ = try await seconds.agent(policy: .default).send(query)
        XCTAssertEqual(seconds.sleeps, [.seconds(7)])

        let now = Date(timeIntervalSince1970: 784_111_767)
        let date = Script([.status(503, ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"]), .status(200, [:])])
        _ = try await date.agent(policy: .default, now: now).send(query)
        XCTAssertEqual(date.sleeps, [.seconds(10)])
    }

    func testRateLimitResetIsHonouredFor429() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let script = Script([
            .status(429, ["RateLimit-Remaining": "0", "RateLimit-Reset": "1700000042"]), .status(200, [:]),
        ])
        _ = try await script.agent(policy: .default, now: now).send(query)
        XCTAssertEqual(script.sleeps, [.seconds(42)])
    }

    func testAServerDelayLongerThanTheLimitIsNotWaitedFor() async throws {
        let script = Script([.status(429, ["Retry-After": "3600"]), .status(200, [:])])
        let response = try await script.agent(policy: XRPCRetryPolicy(maxServerDelay: .seconds(60))).send(query)
        XCTAssertEqual(response.status, 429)
        XCTAssertEqual(response.retryAfter, .seconds(3600), "the caller can see how long to wait")
        XCTAssertEqual(script.requests, 1)
        XCTAssertEqual(script.sleeps, [])
    }

    func testProceduresAreRetriedOnlyWhenOptedIn() async throws {
        let off = Script([.status(503, [:]), .status(200, [:])])
        let first = try await off.agent(policy: .default).send(procedure)
        XCTAssertEqual(first.status, 503)
        XCTAssertEqual(off.requests, 1)

        let on = Script([.status(503, [:]), .status(200, [:])])
        let second = try await on.agent(policy: XRPCRetryPolicy(retriesProcedures: true)).send(procedure)
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(on.requests, 2)
    }

    func testTransportFailuresAreRetriedButCancellationIsNot() async throws {
        let failing = Script([.transport(.cannotConnect), .transport(.timedOut), .status(200, [:])])
        let response = try await failing.agent(policy: .default).send(query)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(failing.requests, 3)

        let cancelled = Script([.transport(.cancelled), .status(200, [:])])
        do {
            _ = try await cancelled.agent(policy: .default).send(query)
            XCTFail("cancellation must not be retried")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .cancelled)
        }
        XCTAssertEqual(cancelled.requests, 1)

        let exhausted = Script([.transport(.connectionLost)])
        do {
            _ = try await exhausted.agent(policy: XRPCRetryPolicy(maxAttempts: 2)).send(query)
            XCTFail("the last failure is thrown")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .connectionLost)
        }
        XCTAssertEqual(exhausted.requests, 2)
    }

    func testCancellationDuringTheWaitStopsRetrying() async throws {
        let stub = StubAgent { _ in XRPCResponse(status: 503) }
        let agent = RetryingAgent(wrapping: stub, policy: XRPCRetryPolicy(initialDelay: .seconds(30)))
        let request = query
        let task = Task { try await agent.send(request) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .cancelled)
        }
        XCTAssertEqual(stub.requests.count, 1)
    }
}
