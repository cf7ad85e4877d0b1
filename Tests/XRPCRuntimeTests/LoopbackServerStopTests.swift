import Foundation
import LoopbackHTTPServer
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stopping a loopback server leaves the servers started after it alone.
final class LoopbackServerStopTests: XCTestCase {
    /// A server stopped before its accept thread first ran used to close its listener at once; the
    /// next server's listener got the same descriptor number, the old thread then accepted on it and
    /// closed that server's connections unanswered ("Empty reply from server", "Connection reset by
    /// peer": IdentityCheckTests failed so about once in 15 runs under load).
    func testAServerStoppedAtOnceNeverTakesTheNextServersConnections() async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        for round in 0..<100 {
            let stopped = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 500) }
            stopped.stop()
            let next = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Data("ok".utf8)) }
            defer { next.stop() }
            do {
                let (body, response) = try await session.data(from: next.baseURL.appendingPathComponent("round"))
                XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, "round \(round)")
                XCTAssertEqual(body, Data("ok".utf8), "round \(round)")
            } catch {
                return XCTFail("round \(round): the next server's request failed: \(error)")
            }
        }
    }

    /// The same for the TCP proxy, whose listener is closed the same way.
    func testAProxyStoppedAtOnceNeverTakesTheNextServersConnections() async throws {
        let upstream = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Data("ok".utf8)) }
        defer { upstream.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        for round in 0..<100 {
            let stopped = try LoopbackTCPProxy(upstreamPort: upstream.port, cutAfterBytes: 0, cutConnections: 0)
            stopped.stop()
            let next = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Data("ok".utf8)) }
            defer { next.stop() }
            do {
                let (body, _) = try await session.data(from: next.baseURL.appendingPathComponent("round"))
                XCTAssertEqual(body, Data("ok".utf8), "round \(round)")
            } catch {
                return XCTFail("round \(round): the next server's request failed: \(error)")
            }
        }
    }
}
