import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
import XCTest
import XRPCRuntime

/// A server that drops connections without answering, procedures included: each call ends at once with
/// a typed error (no hang until the timeout) and no procedure is sent twice. On Linux a procedure
/// written on a pooled keep-alive connection that the server drops made libcurl retry it after a body
/// rewind FoundationNetworking does not do, so the call hung until its timeout; `URLSessionAgent` now
/// sends procedures on connections of their own there.
final class DroppedProcedureTests: XCTestCase {
    func testDroppedProceduresEndAtOnceAndAreNeverSentTwice() async throws {
        let pds = try FaultPDS(faults: LoopbackFaults(seed: 3, rates: [.drop: 0.05]), dropsProcedures: true)
        // A timeout far above the deadline: a call that waits for it shows up as pending.
        let transport = URLSessionAgent(serviceURL: pds.url, timeout: .seconds(120))
        let session = PasswordSession(service: pds.url, agent: transport)
        try await session.login("faulty.test", password: pds.password)
        let client = XRPCClient(agent: session)
        let report = await ConcurrentCalls.run(count: 400, deadline: .seconds(30)) { await faultCall(client, $0) }
        let figures = pds.snapshot
        print("dropped procedures: \(report)\n  server: \(figures)")
        XCTAssertEqual(report.pending, 0, "calls waited for their timeout: \(report)")
        XCTAssertGreaterThan(figures.faults[.drop] ?? 0, 5, "the run must drop connections to test anything")
        XCTAssertGreaterThan(report.outcomes["procedure.transport.connectionLost"] ?? 0, 0, "\(report)")
        XCTAssertEqual(report.outcomes.keys.filter { $0.contains("timedOut") }, [], "\(report)")
        XCTAssertEqual(figures.duplicatedProcedures, [], "procedures acted on twice")
    }
}
