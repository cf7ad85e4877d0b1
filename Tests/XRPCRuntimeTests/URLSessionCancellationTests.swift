import Foundation
import LoopbackHTTPServer
import XCTest

@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// Cancelling calls in flight never hangs: on Linux FoundationNetworking's own `data(for:)` could
/// deadlock when a cancel met a completing response (seen in CI as a stuck integration test).
final class URLSessionCancellationTests: XCTestCase {
    func testManyCallsCancelledAroundTheirCompletionAllEnd() async throws {
        // Answers arrive after 0-40 ms; cancellations land around then, some before, some after.
        let server = try LoopbackHTTPServer { request in
            let delay = Double(request.target.count % 5) * 0.01
            return LoopbackHTTPServer.Response.json("{}", headers: [:]).delayed(by: delay)
        }
        defer { server.stop() }
        let agent = URLSessionAgent(serviceURL: server.baseURL)
        let started = ContinuousClock.now
        var outcomes: [String] = []
        for round in 0..<10 {
            let results = await withTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    let call = Task {
                        try await agent.send(
                            XRPCRequest(
                                method: .get,
                                nsid: NSID(rawValue: "com.example.q\(String(repeating: "x", count: index))")))
                    }
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(index % 4 * 10 + round % 3))
                        call.cancel()
                        do {
                            _ = try await call.value
                            return "answered"
                        } catch let error as XRPCTransportError {
                            return error.kind == .cancelled ? "cancelled" : "other: \(error)"
                        } catch {
                            return "other: \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            outcomes += results
        }
        XCTAssertEqual(outcomes.count, 200)
        XCTAssertTrue(
            outcomes.allSatisfy { $0 == "answered" || $0 == "cancelled" },
            "\(outcomes.filter { $0.hasPrefix("other") })")
        XCTAssertTrue(outcomes.contains("cancelled"))
        XCTAssertLessThan(started.duration(to: .now), .seconds(30))
    }
}

extension LoopbackHTTPServer.Response {
    func delayed(by seconds: Double) -> Self {
        var copy = self
        copy.delay = seconds
        return copy
    }
}
