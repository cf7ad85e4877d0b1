import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
import OAuthCore
import XCTest
import XRPCRuntime

@testable import AtprotoOAuth

private enum FaultQuery: XRPCQuery {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Output = XRPCNoParameters
    static var nsid: NSID { "com.example.fault.query" }
}

private enum FaultProcedure: XRPCProcedure {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Input = XRPCRawBody
    typealias Output = XRPCNoParameters
    static var nsid: NSID { "com.example.fault.procedure" }
}

/// 1,000 concurrent calls through an ``OAuthSession`` over a faulty loopback PDS and authorization
/// server: every call ends (success or a typed error) before the deadline, one refresh per expiry,
/// DPoP nonce challenges answered, no procedure twice. Prints its figures; `FAULT_SEED=<n>` replays
/// another seed.
final class OAuthSessionLoadTests: XCTestCase {
    static let rates: [LoopbackFaults.Fault: Double] = [
        .drop: 0.03, .serverError: 0.05, .slow: 0.05, .wrongContentType: 0.02, .truncated: 0.02, .expiredToken: 0.001,
    ]

    // @unchecked Sendable: one task sets `value` and later reads it; weak references are atomic.
    private final class WeakSession: @unchecked Sendable {
        weak var value: OAuthSession?
    }

    static func label(_ error: any Error) -> String {
        switch error {
        case let error as XRPCTransportError: return "transport.\(error.code)"
        // A call's error is labelled by its cause; a failure on this side by its code.
        case let error as XRPCCallError where error.code == .invalidOutput || error.code == .encodingFailed:
            return "client.\(error.code)"
        case let error as XRPCCallError: return label(error.underlying)
        case let error as XRPCError: return "xrpc.\(error.status.map(String.init) ?? "none").\(error.name ?? "-")"
        case let error as OAuthSessionError: return "session.\(error.code)"
        case let error as OAuthError: return "oauth.\(error.code)"
        default: return "untyped.\(type(of: error))"
        }
    }

    static func call(_ client: XRPCClient, _ index: Int) async -> String {
        var parameters = XRPCNoParameters()
        parameters.unknownFields["id"] = .integer(index)
        let kind = index % 2 == 0 ? "query." : "procedure."
        do {
            let output: XRPCNoParameters
            if index % 2 == 0 {
                output = try await client.query(FaultQuery.self, parameters: parameters)
            } else {
                let body = XRPCRawBody(data: Data(#"{"id":\#(index)}"#.utf8), contentType: "application/json")
                output = try await client.procedure(FaultProcedure.self, parameters: XRPCNoParameters(), input: body)
            }
            return kind + (output.unknownFields["id"] == .integer(index) ? "success" : "wrongAnswer")
        } catch {
            return kind + label(error)
        }
    }

    /// Signs in, runs `count` calls, and returns the report, the session weakly (once this returns,
    /// nothing should hold it) and whether a refresh task or a refresh-lock waiter was left.
    private func drive(_ server: FaultOAuthServer, count: Int, policy: XRPCRetryPolicy) async throws -> (
        ConcurrentCalls.Report, WeakSession, Bool
    ) {
        let lock = OAuthInProcessRefreshLock()
        let client = AtprotoOAuthClient(
            configuration: .development(), keyFactory: FixedKeyFactory(),
            resolver: TableResolver(pds: ["did:plc:alice": server.url]),
            // A call's timeout far above what the calls take: the 1000 take 1.5-3 s, but on Linux each
            // procedure has a connection of its own and URLSession opens at most 6 to a host (its
            // httpMaximumConnectionsPerHost; libcurl counts a queued transfer's wait in its timeout), so the
            // 500 procedures queue; on a busy CI machine, under ThreadSanitizer or not, the queue took
            // over 30 s twice (2026-11-27: 127 and 136 procedures timed out waiting in it, the queries
            // retried). The timeout bounds a hang, not the queue: a hang still shows as a call
            // pending at the run's deadline.
            agentFactory: {
                RetryingAgent(wrapping: URLSessionAgent(serviceURL: $0, timeout: .seconds(150)), policy: policy)
            },
            refreshLock: lock)
        let pending = try await client.authorize(.account("did:plc:alice"))
        let session = try await client.complete(pending, callback: callback(pending))
        let xrpc = XRPCClient(agent: session)
        let report = await ConcurrentCalls.run(count: count, deadline: .seconds(600)) { index in
            await Self.call(xrpc, index)
        }
        let watched = WeakSession()
        watched.value = session
        let leftover = await session.renewalInProgress
        let idle = await lock.isIdle
        return (report, watched, leftover || !idle)
    }

    func testAThousandConcurrentCallsUnderFaultsAllEndWithOneRefreshPerExpiry() async throws {
        let seed = ProcessInfo.processInfo.environment["FAULT_SEED"].flatMap { UInt64($0) } ?? 19
        let server = try FaultOAuthServer(faults: LoopbackFaults(seed: seed, rates: Self.rates))
        let policy = XRPCRetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10), maxDelay: .milliseconds(100))
        let (report, watched, renewing) = try await drive(server, count: 1000, policy: policy)
        let figures = server.snapshot
        print("OAuth session load (seed \(seed)): \(report)\n  server: \(figures)")
        XCTAssertEqual(report.pending, 0, "\(report.pending) calls still pending at the deadline")
        XCTAssertFalse(renewing, "a refresh task or a refresh-lock waiter outlived every call")
        // The last call's task may still be tearing down when the run returns: wait for it, up to 10 s.
        for _ in 0..<1000 where watched.value != nil { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertNil(watched.value, "the session is still referenced after every call ended")
        XCTAssertEqual(report.outcomes.filter { $0.key.contains("untyped") || $0.key.hasSuffix("wrongAnswer") }, [:])
        let successes = (report.outcomes["query.success"] ?? 0) + (report.outcomes["procedure.success"] ?? 0)
        XCTAssertGreaterThan(successes, 850, "\(report)")
        XCTAssertGreaterThan(figures.expiries, 0, "the run must expire tokens to test refreshes")
        XCTAssertGreaterThan(figures.nonceChallenges, 0, "the run must send nonce challenges")
        XCTAssertEqual(figures.staleRefreshes, 0, "a replaced refresh token was sent again: a second refresh")
        XCTAssertEqual(figures.needlessRefreshes, 0, "a refresh while the access token was good")
        XCTAssertLessThanOrEqual(figures.maxConcurrentRefreshes, 1, "refreshes overlapped")
        XCTAssertGreaterThan(figures.refreshes, 0, "the run must refresh")
        XCTAssertLessThanOrEqual(figures.refreshes, figures.expiries, "more refreshes than expiries")
        XCTAssertEqual(figures.duplicatedProcedures, [], "procedures the server acted on twice")
    }

    /// The duplicate count can fail: with procedures retried (the app's opt-in), some arrive twice.
    func testProceduresRetriedByOptInAreSeenTwiceByTheCounter() async throws {
        let server = try FaultOAuthServer(faults: LoopbackFaults(seed: 7, rates: Self.rates))
        let policy = XRPCRetryPolicy(
            maxAttempts: 3, initialDelay: .milliseconds(10), maxDelay: .milliseconds(100), retriesProcedures: true)
        let (report, _, _) = try await drive(server, count: 200, policy: policy)
        print("OAuth session, procedures retried (seed 7): \(report)\n  server: \(server.snapshot)")
        XCTAssertFalse(server.snapshot.duplicatedProcedures.isEmpty, "retried procedures must show as duplicates")
    }
}
