import Foundation
import LoopbackHTTPServer
import XCTest

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession transport against a loopback HTTP server: what goes on the wire, what comes back,
/// and how failures without a response are reported.
final class URLSessionAgentTests: XCTestCase {
    /// Answers with the request it saw as JSON: method, target, headers, body.
    private static func echo(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let json = JSONValue.object([
            "method": .string(request.method), "target": .string(request.target),
            "headers": .object(request.headers.joinedByName.mapValues { .string($0) }),
            "body": .string(String(decoding: request.body, as: UTF8.self)),
        ])
        return .init(
            status: 201, headers: ["Content-Type": "application/json", "RateLimit-Remaining": "7"],
            body: json.serialized())
    }

    private func echoed(_ response: XRPCResponse) throws -> [String: JSONValue] {
        try XCTUnwrap(JSONValue.parse(response.body).objectValue)
    }

    func testSendsMethodPathQueryHeadersAndBodyAndReadsTheAnswer() async throws {
        let server = try LoopbackHTTPServer(handler: Self.echo)
        defer { server.stop() }
        let agent = URLSessionAgent(
            serviceURL: server.baseURL, headers: ["User-Agent": "xrpc-tests", "X-Both": "agent"])
        let request = XRPCRequest(
            method: .post, nsid: "com.example.do",
            queryItems: [URLQueryItem(name: "tag", value: "a+b"), URLQueryItem(name: "tag", value: "c")],
            headers: ["atproto-proxy": "did:web:x#y", "X-Both": "request"], body: Data(#"{"x":1}"#.utf8),
            contentType: "application/json")
        let response = try await agent.send(request)
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.rateLimit?.remaining, 7)
        let seen = try echoed(response)
        XCTAssertEqual(seen["method"]?.stringValue, "POST")
        XCTAssertEqual(seen["target"]?.stringValue, "/xrpc/com.example.do?tag=a%2Bb&tag=c")
        XCTAssertEqual(seen["body"]?.stringValue, #"{"x":1}"#)
        let headers = try XCTUnwrap(seen["headers"]?.objectValue)
        XCTAssertEqual(headers["atproto-proxy"]?.stringValue, "did:web:x#y")
        XCTAssertEqual(headers["content-type"]?.stringValue, "application/json")
        XCTAssertEqual(headers["user-agent"]?.stringValue, "xrpc-tests")
        XCTAssertEqual(headers["x-both"]?.stringValue, "request", "a request's own header wins over the agent's")
    }

    func testARequestNamingAnotherServiceGoesThere() async throws {
        let own = try LoopbackHTTPServer { _ in .json(#"{"server":"own"}"#) }
        let other = try LoopbackHTTPServer { _ in .json(#"{"server":"other"}"#) }
        defer {
            own.stop()
            other.stop()
        }
        let agent = URLSessionAgent(serviceURL: own.baseURL)
        let response = try await agent.send(XRPCRequest(method: .get, nsid: "a.b.c", serviceURL: other.baseURL))
        XCTAssertEqual(try echoed(response)["server"]?.stringValue, "other")
        let plain = try await agent.send(XRPCRequest(method: .get, nsid: "a.b.c"))
        XCTAssertEqual(try echoed(plain)["server"]?.stringValue, "own")
    }

    func testARequestTimeoutBelowOneSecondEndsTheCallAsTimedOut() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: Data("late".utf8), delay: 3) }
        defer { server.stop() }
        let agent = URLSessionAgent(serviceURL: server.baseURL)
        let start = Date()
        do {
            _ = try await agent.send(XRPCRequest(method: .get, nsid: "a.b.slow", timeout: .milliseconds(300)))
            XCTFail("expected a timeout")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .timedOut)
            XCTAssertEqual(error.nsid, "a.b.slow")
            XCTAssertTrue(error.description.contains("timed out"), error.description)
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(elapsed, 0.25)
        XCTAssertLessThan(elapsed, 2, "the call ends at its timeout, not when the server answers")
    }

    func testCancellingTheTaskEndsTheCallAsCancelled() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, delay: 3) }
        defer { server.stop() }
        let agent = URLSessionAgent(serviceURL: server.baseURL)
        let start = Date()
        let task = Task { try await agent.send(XRPCRequest(method: .get, nsid: "a.b.slow")) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .cancelled, error.description)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testARefusedConnectionIsCannotConnect() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        let url = server.baseURL
        server.stop()
        let agent = URLSessionAgent(serviceURL: url)
        do {
            _ = try await agent.send(XRPCRequest(method: .get, nsid: "a.b.c"))
            XCTFail("expected a connection failure")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .cannotConnect, error.description)
            XCTAssertEqual(error.service, url.absoluteString)
            XCTAssertTrue(
                error.description.hasPrefix("a.b.c on \(url.absoluteString) could not connect"), error.description)
        }
    }

    func testAConnectionClosedWithoutAnswerIsConnectionLost() async throws {
        let server = try LoopbackHTTPServer { _ in .init(dropConnection: true) }
        defer { server.stop() }
        do {
            _ = try await URLSessionAgent(serviceURL: server.baseURL).send(XRPCRequest(method: .post, nsid: "a.b.c"))
            XCTFail("expected a lost connection")
        } catch let error as XRPCTransportError {
            XCTAssertEqual(error.code, .connectionLost, error.description)
        }
    }

    func testARedirectToAnotherOriginDropsCredentials() async throws {
        let target = try LoopbackHTTPServer(handler: Self.echo)
        defer { target.stop() }
        let location = target.baseURL.absoluteString + "/xrpc/a.b.c"
        let redirecting = try LoopbackHTTPServer { _ in .init(status: 302, headers: ["Location": location]) }
        defer { redirecting.stop() }
        let agent = URLSessionAgent(serviceURL: redirecting.baseURL)
        let response = try await agent.send(
            XRPCRequest(method: .get, nsid: "a.b.c", headers: ["Authorization": "Bearer secret", "X-Keep": "1"]))
        XCTAssertEqual(response.status, 201)
        let headers = try XCTUnwrap(echoed(response)["headers"]?.objectValue)
        XCTAssertNil(headers["authorization"], "credentials must not follow a redirect to another host")
        XCTAssertEqual(headers["x-keep"]?.stringValue, "1")
    }
}
