import Foundation
import HTTPTransport
import LoopbackHTTPServer
import XCTest

/// The default transport honours each request's own parameters: its redirect policy, its size bound,
/// its deadline; and what it reports never shows a secret.
final class URLSessionTransportTests: XCTestCase {
    func testOneTransportAppliesEachRequestsOwnRedirectPolicy() async throws {
        let target = try LoopbackHTTPServer { request in
            .init(body: Data((request.headers["authorization"] ?? "none").utf8))
        }
        defer { target.stop() }
        let location = target.baseURL.absoluteString + "/there"
        let redirecting = try LoopbackHTTPServer { _ in .init(status: 302, headers: ["Location": location]) }
        defer { redirecting.stop() }
        let url = redirecting.baseURL.appendingPathComponent("x")
        let transport = URLSessionTransport()

        let never = HTTPTransportRequest(
            method: "GET", url: url, headers: ["Authorization": "Bearer secret"], timeout: .seconds(5))
        let refused = try await transport.send(never)
        XCTAssertEqual(refused.status, 302, "no redirect followed")
        XCTAssertEqual(refused.header("Location"), location)

        var follow = never
        follow.redirects = .followDroppingCredentialsAcrossOrigins
        let followed = try await transport.send(follow)
        XCTAssertEqual(followed.status, 200, "the redirect followed")
        // Another port is another origin: the credential stays behind.
        XCTAssertEqual(String(decoding: followed.body, as: UTF8.self), "none")
    }

    func testTheAnswerIsBoundedAndTimed() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/big": return .init(body: Data(repeating: 0x61, count: 10_000))
            default: return .init(status: 200, body: Data("late".utf8), delay: 3)
            }
        }
        defer { server.stop() }
        let transport = URLSessionTransport()
        let big = HTTPTransportRequest(
            method: "GET", url: server.baseURL.appendingPathComponent("big"), maximumResponseSize: 1_000,
            timeout: .seconds(5))
        do {
            _ = try await transport.send(big)
            XCTFail("a 10 KB answer was read with a 1 KB bound")
        } catch {
            XCTAssertEqual(error.code, .tooLarge)
        }
        var unbounded = big
        unbounded.maximumResponseSize = .max
        let whole = try await transport.send(unbounded)
        XCTAssertEqual(whole.body.count, 10_000)

        let slow = HTTPTransportRequest(
            method: "GET", url: server.baseURL.appendingPathComponent("slow"), timeout: .milliseconds(300))
        let start = ContinuousClock.now
        do {
            _ = try await transport.send(slow)
            XCTFail("no timeout")
        } catch {
            XCTAssertEqual(error.code, .timedOut)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }

    func testARefusedConnectionIsCannotConnect() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200) }
        let url = server.baseURL.appendingPathComponent("x")
        server.stop()
        do {
            _ = try await URLSessionTransport().send(
                HTTPTransportRequest(method: "GET", url: url, timeout: .seconds(5)))
            XCTFail("a stopped server answered")
        } catch {
            XCTAssertEqual(error.code, .cannotConnect, error.description)
        }
    }

    func testDescriptionsShowNoHeaderValueQueryOrBody() throws {
        let url = try XCTUnwrap(URL(string: "https://user:pw@pds.example.com/oauth/token?code=secret-code#frag"))
        let request = HTTPTransportRequest(
            method: "POST", url: url, headers: ["DPoP": "secret-proof", "Authorization": "DPoP secret-token"],
            body: Data("refresh_token=secret-refresh".utf8))
        let error = HTTPTransportError(.timedOut, request: request, message: "no complete answer within 15 seconds")
        for text in [request.description, error.description, "\(error.url)"] {
            XCTAssertFalse(text.contains("secret"), text)
            XCTAssertFalse(text.contains("pw"), text)
        }
        XCTAssertEqual(request.description, "POST https://pds.example.com/oauth/token [Authorization, DPoP]")
        XCTAssertEqual(request.header("dpop"), "secret-proof")
    }
}
