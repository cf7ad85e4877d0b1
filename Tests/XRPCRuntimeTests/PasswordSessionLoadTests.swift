import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
import XCTest

@testable import XRPCAgents
@testable import XRPCCore

/// A query and a procedure of ``FaultPDS``, each carrying a call id.
enum FaultQuery: XRPCQuery {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Output = XRPCNoParameters
    static var nsid: NSID { FaultPDS.query }
}

enum FaultProcedure: XRPCProcedure {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Input = XRPCRawBody
    typealias Output = XRPCNoParameters
    static var nsid: NSID { FaultPDS.procedure }
}

/// The outcome of one call as a label: `success`, or the typed error's kind; `untyped` is a failure.
func outcomeLabel(_ error: any Error) -> String {
    switch error {
    case let error as XRPCTransportError: return "transport.\(error.code)"
    // A call's error is labelled by its cause; a failure on this side by its code.
    case let error as XRPCCallError where error.code == .invalidOutput || error.code == .encodingFailed:
        return "client.\(error.code)"
    case let error as XRPCCallError: return outcomeLabel(error.underlying)
    case let error as XRPCError: return "xrpc.\(error.status.map(String.init) ?? "none").\(error.name ?? "-")"
    case let error as PasswordSessionError: return "session.\(error.code)"
    default: return "untyped.\(type(of: error))"
    }
}

/// A call of ``FaultPDS`` through `client`: even indices query, odd ones send the procedure. The
/// label starts with `query.` or `procedure.`.
func faultCall(_ client: XRPCClient, _ index: Int) async -> String {
    (index % 2 == 0 ? "query." : "procedure.") + (await unlabelledFaultCall(client, index))
}

private func unlabelledFaultCall(_ client: XRPCClient, _ index: Int) async -> String {
    var parameters = XRPCNoParameters()
    parameters.unknownFields["id"] = .integer(index)
    do {
        if index % 2 == 0 {
            let output = try await client.query(FaultQuery.self, parameters: parameters)
            return output.unknownFields["id"] == .integer(index) ? "success" : "wrongAnswer"
        }
        let body = XRPCRawBody(data: Data(#"{"id":\#(index)}"#.utf8), contentType: "application/json")
        let output = try await client.procedure(FaultProcedure.self, parameters: XRPCNoParameters(), input: body)
        return output.unknownFields["id"] == .integer(index) ? "success" : "wrongAnswer"
    } catch {
        return outcomeLabel(error)
    }
}

/// 1,000 concurrent calls through a ``PasswordSession`` over a faulty loopback PDS: every call ends
/// (success or a typed error) before the deadline, one refresh per expiry, no procedure twice.
///
/// Prints its figures; `FAULT_SEED=<n>` replays another seed, `LOAD_LOG=1` prints the session's log.
final class PasswordSessionLoadTests: XCTestCase {
    static let rates: [LoopbackFaults.Fault: Double] = [
        .drop: 0.03, .serverError: 0.05, .slow: 0.05, .wrongContentType: 0.02, .truncated: 0.02, .expiredToken: 0.001,
    ]

    // @unchecked Sendable: one task sets `value` and later reads it; weak references are atomic.
    private final class WeakSession: @unchecked Sendable {
        weak var value: PasswordSession?
    }

    /// Logs in, runs `count` calls, checks that no refresh task is left, and returns the session
    /// weakly: once this returns, nothing should hold it.
    private func drive(_ pds: FaultPDS, count: Int, policy: XRPCRetryPolicy) async throws -> (
        ConcurrentCalls.Report, WeakSession, Bool
    ) {
        // The timeout bounds a hang, not URLSession's queue: on Linux the 500 procedures, each on a
        // connection of its own, wait for one of the 6 a host gets, and on a busy CI machine that
        // wait alone can pass any short timeout (see OAuthSessionLoadTests). A hang still shows as a
        // call pending at the deadline.
        let transport = RetryingAgent(
            wrapping: URLSessionAgent(serviceURL: pds.url, timeout: .seconds(150)), policy: policy)
        let logger = XRPCLogger(minimumLevel: .info) { record in
            if ProcessInfo.processInfo.environment["LOAD_LOG"] != nil { print(record) }
        }
        let session = PasswordSession(service: pds.url, agent: transport, logger: logger)
        try await session.login("faulty.test", password: pds.password)
        let client = XRPCClient(agent: session)
        let report = await ConcurrentCalls.run(count: count, deadline: .seconds(600)) { index in
            await faultCall(client, index)
        }
        let watched = WeakSession()
        watched.value = session
        return (report, watched, await session.renewalInProgress)
    }

    private func run(
        seed: UInt64, count: Int, policy: XRPCRetryPolicy, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> (FaultPDS, ConcurrentCalls.Report) {
        let pds = try FaultPDS(faults: LoopbackFaults(seed: seed, rates: Self.rates))
        let (report, watched, renewing) = try await drive(pds, count: count, policy: policy)
        XCTAssertEqual(
            report.pending, 0, "\(report.pending) calls still pending at the deadline", file: file, line: line)
        XCTAssertFalse(renewing, "a refresh task outlived every call", file: file, line: line)
        // The last call's task may still be tearing down when the run returns: wait for it, up to 10 s.
        for _ in 0..<1000 where watched.value != nil { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertNil(watched.value, "the session is still referenced after every call ended", file: file, line: line)
        return (pds, report)
    }

    func testAThousandConcurrentCallsUnderFaultsAllEndWithOneRefreshPerExpiry() async throws {
        let policy = XRPCRetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10), maxDelay: .milliseconds(100))
        let seed = ProcessInfo.processInfo.environment["FAULT_SEED"].flatMap { UInt64($0) } ?? 19
        let (pds, report) = try await run(seed: seed, count: 1000, policy: policy)
        let figures = pds.snapshot
        print("password session load (seed \(seed)): \(report)\n  server: \(figures)")
        XCTAssertEqual(report.outcomes.filter { $0.key.contains("untyped") || $0.key.hasSuffix("wrongAnswer") }, [:])
        XCTAssertGreaterThan(
            (report.outcomes["query.success"] ?? 0) + (report.outcomes["procedure.success"] ?? 0), 850, "\(report)")
        XCTAssertGreaterThan(figures.expiries, 0, "the run must expire tokens to test refreshes")
        XCTAssertEqual(figures.staleRefreshes, 0, "a rotated refresh token was sent again: a second refresh")
        XCTAssertEqual(figures.needlessRefreshes, 0, "a refresh while the access token was good")
        XCTAssertLessThanOrEqual(figures.maxConcurrentRefreshes, 1, "refreshes overlapped")
        XCTAssertGreaterThan(figures.refreshes, 0, "the run must refresh")
        XCTAssertLessThanOrEqual(figures.refreshes, figures.expiries, "more refreshes than expiries")
        XCTAssertEqual(figures.duplicatedProcedures, [], "procedures the server acted on twice")
    }

    /// The duplicate count can fail: with procedures retried (the app's opt-in), some arrive twice.
    func testProceduresRetriedByOptInAreSeenTwiceByTheCounter() async throws {
        let policy = XRPCRetryPolicy(
            maxAttempts: 3, initialDelay: .milliseconds(10), maxDelay: .milliseconds(100), retriesProcedures: true)
        let (pds, report) = try await run(seed: 7, count: 200, policy: policy)
        print("password session, procedures retried (seed 7): \(report)\n  server: \(pds.snapshot)")
        XCTAssertFalse(pds.snapshot.duplicatedProcedures.isEmpty, "retried procedures must show as duplicates")
    }
}

/// One fault kind at a time, for finding which one costs what: skipped unless `FAULTS` is set, e.g.
/// `COUNT=1000 FAULTS=drop=0.03` shows FoundationNetworking's hang on a dropped procedure (procedures
/// are dropped before any answer here; see ``FaultPDS``). Example:
/// `FAULTS=drop=0.1 swift test --skip-build --filter FaultProbeTests` (`COUNT` calls, 200 by default,
/// no retries).
final class FaultProbeTests: XCTestCase {
    func testProbe() async throws {
        guard let spec = ProcessInfo.processInfo.environment["FAULTS"] else { throw XCTSkip("FAULTS is not set") }
        var rates: [LoopbackFaults.Fault: Double] = [:]
        for part in spec.split(separator: ",") {
            let pair = part.split(separator: "=")
            guard pair.count == 2, let fault = LoopbackFaults.Fault(rawValue: String(pair[0])),
                let rate = Double(pair[1])
            else { throw XCTSkip("FAULTS is a list of fault=rate, e.g. drop=0.1,slow=0.2") }
            rates[fault] = rate
        }
        let pds = try FaultPDS(faults: LoopbackFaults(seed: 3, rates: rates), dropsProcedures: true)
        let transport = URLSessionAgent(serviceURL: pds.url, timeout: .seconds(10))
        let session = PasswordSession(service: pds.url, agent: transport)
        try await session.login("faulty.test", password: pds.password)
        let client = XRPCClient(agent: session)
        let count = ProcessInfo.processInfo.environment["COUNT"].flatMap { Int($0) } ?? 200
        let report = await ConcurrentCalls.run(count: count, deadline: .seconds(60)) { await faultCall(client, $0) }
        print("probe \(spec): \(report)\n  server: \(pds.snapshot)")
        XCTAssertEqual(report.pending, 0)
    }
}
