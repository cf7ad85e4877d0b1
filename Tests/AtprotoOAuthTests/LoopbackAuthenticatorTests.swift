import AtprotoOAuth
import Foundation
import OAuthCore
import XCTest

final class LoopbackAuthenticatorTests: XCTestCase {
    func testItTakesOneRedirectAndIgnoresOtherPaths() async throws {
        let visited = URLBox()
        let authenticator = OAuthLoopbackAuthenticator(timeout: .seconds(10)) { url in visited.set(url) }
        let redirect = try await authenticator.redirectURI(registered: "http://127.0.0.1/callback")
        let port = try XCTUnwrap(URLComponents(string: redirect)?.port)
        XCTAssertEqual(redirect, "http://127.0.0.1:\(port)/callback")
        let authorization = try XCTUnwrap(URL(string: "https://pds.example.com/oauth/authorize?request_uri=x"))
        let waiting = Task { try await authenticator.authenticate(authorization, redirectURI: redirect) }
        try await Task.sleep(for: .milliseconds(100))
        let http = URLSessionTransport.oauthDefault()
        let favicon = try await http.send(.getJSON(try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/favicon.ico"))))
        XCTAssertEqual(favicon.status, 404)
        let redirectURL = try XCTUnwrap(
            URL(string: "http://127.0.0.1:\(port)/callback?code=c&state=s&iss=https%3A%2F%2Fpds.example.com"))
        let page = try await http.send(.getJSON(redirectURL))
        XCTAssertEqual(page.status, 200)
        let callback = try await waiting.value
        XCTAssertEqual(
            callback.absoluteString,
            "http://127.0.0.1:\(port)/callback?code=c&state=s&iss=https%3A%2F%2Fpds.example.com")
        XCTAssertEqual(visited.value, authorization)
    }

    /// A command-line opener may wait for the browser: here it performs the redirect itself and returns
    /// only once the page answered, so the listener must accept before the closure returns.
    func testItListensWhileTheOpenerWaitsForTheRedirect() async throws {
        let page = StatusBox()
        let authenticator = OAuthLoopbackAuthenticator(timeout: .seconds(10)) { url in
            let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value ?? ""
            let port = URLComponents(url: url, resolvingAgainstBaseURL: false)?.port ?? 0
            guard let redirect = URL(string: "http://127.0.0.1:\(port)/callback?code=c&state=\(state)") else { return }
            var request = HTTPTransportRequest.getJSON(redirect)
            request.timeout = .seconds(3)
            page.set(try await URLSessionTransport.oauthDefault().send(request).status)
        }
        let redirect = try await authenticator.redirectURI(registered: "http://127.0.0.1/callback")
        let port = try XCTUnwrap(URLComponents(string: redirect)?.port)
        // The "authorization page" carries the port and a state, so the opener knows where to go.
        let authorization = try XCTUnwrap(URL(string: "https://127.0.0.1:\(port)/oauth/authorize?state=s1"))
        let start = ContinuousClock.now
        let callback = try await authenticator.authenticate(authorization, redirectURI: redirect)
        XCTAssertEqual(callback.absoluteString, "http://127.0.0.1:\(port)/callback?code=c&state=s1")
        XCTAssertEqual(page.value, 200, "the redirect was answered while the opener waited")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }

    func testAnOpenerThatFailsEndsTheWaitAtOnce() async throws {
        let authenticator = OAuthLoopbackAuthenticator(timeout: .seconds(30)) { _ in
            throw OAuthError(.transport, message: "no browser")
        }
        let redirect = try await authenticator.redirectURI(registered: "http://127.0.0.1/cb")
        let start = ContinuousClock.now
        do {
            _ = try await authenticator.authenticate(
                try XCTUnwrap(URL(string: "https://a.example")), redirectURI: redirect)
            XCTFail("the opener's failure was not reported")
        } catch let error as OAuthError {
            XCTAssertEqual(error.message, "no browser")
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }

    func testItTimesOutAndCanBeCancelled() async throws {
        let authenticator = OAuthLoopbackAuthenticator(timeout: .milliseconds(400)) { _ in }
        let redirect = try await authenticator.redirectURI(registered: "http://127.0.0.1/cb")
        let url = try XCTUnwrap(URL(string: "https://a.example"))
        do {
            _ = try await authenticator.authenticate(url, redirectURI: redirect)
            XCTFail("no timeout")
        } catch let error as OAuthError {
            XCTAssertEqual(error.code, .timedOut)
        }
        let patient = OAuthLoopbackAuthenticator(timeout: .seconds(30)) { _ in }
        let second = try await patient.redirectURI(registered: "http://127.0.0.1/cb")
        let start = ContinuousClock.now
        let task = Task { try await patient.authenticate(url, redirectURI: second) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("not cancelled")
        } catch let error as OAuthError {
            XCTAssertEqual(error.code, .cancelled)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
    }
}

// @unchecked Sendable: `url` is read and written under `lock`.
final class URLBox: @unchecked Sendable {
    private let lock = NSLock()
    private var url: URL?
    func set(_ value: URL) { lock.withLock { url = value } }
    var value: URL? { lock.withLock { url } }
}

// @unchecked Sendable: `status` is read and written under `lock`.
final class StatusBox: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int?
    func set(_ value: Int) { lock.withLock { status = value } }
    var value: Int? { lock.withLock { status } }
}
