import BoundedURLLoading
import Foundation
import LoopbackHTTPServer
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The package's one bounded loader, on its own session and on an app's: limits, deadlines,
/// cancellation, redirects.
final class BoundedURLLoaderTests: XCTestCase {
    private func ownLoader(redirect: BoundedURLLoader.RedirectPolicy? = nil) -> BoundedURLLoader {
        BoundedURLLoader(configuration: .ephemeral, resourceTimeout: .seconds(10), redirect: redirect)
    }

    /// A loader with a session per request (on Linux the transport's loader for requests with a body).
    private func unpooledLoader(redirect: BoundedURLLoader.RedirectPolicy? = nil) -> BoundedURLLoader {
        BoundedURLLoader(sessionPerRequest: .ephemeral, resourceTimeout: .seconds(10), redirect: redirect)
    }

    /// The loaders whose calls end at a deadline or a cancellation alike.
    private func everyLoader() -> [BoundedURLLoader] {
        [ownLoader(), BoundedURLLoader(session: URLSession(configuration: .ephemeral)), unpooledLoader()]
    }

    private func request(_ url: URL, path: String = "/x") -> URLRequest {
        URLRequest(url: url.appendingPathComponent(path))
    }

    func testOwnSessionStopsAtAnAnnouncedOrSentLengthOverTheLimit() async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: Data(repeating: 7, count: 100)) }
        defer { server.stop() }
        let loader = ownLoader()
        guard
            case .failure(.tooLarge(10, announced: true)) = await loader.load(
                request(server.baseURL), limit: 10, timeout: .seconds(5))
        else { return XCTFail("a Content-Length over the limit must end the call") }
        guard case .success(let answer) = await loader.load(request(server.baseURL), limit: 100, timeout: .seconds(5))
        else { return XCTFail("a body of exactly the limit is read") }
        XCTAssertEqual(answer.body.count, 100)
    }

    func testAnAppsSessionHoldsTheBodyToTheLimit() async throws {
        let server = try LoopbackHTTPServer { _ in
            .init(headers: ["X-Seen": "yes"], body: Data(repeating: 7, count: 100))
        }
        defer { server.stop() }
        let loader = BoundedURLLoader(session: URLSession(configuration: .ephemeral))
        guard
            case .failure(.tooLarge(99, announced: false)) = await loader.load(
                request(server.baseURL), limit: 99, timeout: nil)
        else { return XCTFail("a body over the limit is refused") }
        guard case .success(let answer) = await loader.load(request(server.baseURL), limit: 100, timeout: nil)
        else { return XCTFail("a body of the limit is read") }
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers["x-seen"], "yes", "header names are lowercased")
        XCTAssertEqual(answer.body.count, 100)
    }

    func testTheLoaderNeverInvalidatesAnAppsSession() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        defer { server.stop() }
        let watcher = InvalidationWatcher()
        let session = URLSession(configuration: .ephemeral, delegate: watcher, delegateQueue: nil)
        do {
            let loader = BoundedURLLoader(session: session)
            _ = await loader.load(request(server.baseURL), limit: 10, timeout: .seconds(5))
        }
        // The loader is gone; an invalidation would reach the app's delegate by now.
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertFalse(watcher.invalidated, "the app's session was invalidated")
        session.finishTasksAndInvalidate()
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertTrue(watcher.invalidated, "the watcher sees an invalidation")
    }

    func testADeadlineEndsTheCallOnEitherSession() async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: Data("late".utf8), delay: 3) }
        defer { server.stop() }
        for loader in everyLoader() {
            let start = ContinuousClock.now
            guard
                case .failure(.timedOut) = await loader.load(
                    request(server.baseURL), limit: 100, timeout: .milliseconds(300))
            else { return XCTFail("expected the deadline") }
            let elapsed = start.duration(to: .now)
            XCTAssertGreaterThan(elapsed, .milliseconds(250))
            XCTAssertLessThan(elapsed, .seconds(2), "the call ends at its deadline, not when the server answers")
        }
    }

    func testWithoutADeadlineTheRequestsOwnTimeoutBoundsTheCall() async throws {
        let server = try LoopbackHTTPServer { _ in .init(body: Data("late".utf8), delay: 4) }
        defer { server.stop() }
        var idle = request(server.baseURL)
        idle.timeoutInterval = 1
        let start = ContinuousClock.now
        guard case .failure(.timedOut) = await ownLoader().load(idle, limit: 100, timeout: nil) else {
            return XCTFail("the request's timeout must end the call")
        }
        XCTAssertLessThan(start.duration(to: .now), .milliseconds(3500), "the request's timeoutInterval is kept")
    }

    func testCancellingAnswersAtOnceOnEitherSession() async throws {
        let server = try LoopbackHTTPServer { _ in .init(delay: 3) }
        defer { server.stop() }
        for loader in everyLoader() {
            let url = server.baseURL
            let start = ContinuousClock.now
            let call = Task {
                await loader.load(URLRequest(url: url.appendingPathComponent("/x")), limit: 100, timeout: nil)
            }
            try await Task.sleep(for: .milliseconds(200))
            call.cancel()
            guard case .failure(.cancelled) = await call.value else { return XCTFail("expected a cancellation") }
            XCTAssertLessThan(start.duration(to: .now), .seconds(2))
        }
    }

    func testASessionPerRequestKeepsTheLimitAndTheLoadersRedirectPolicy() async throws {
        let target = try LoopbackHTTPServer { _ in .init(body: Data(repeating: 7, count: 100)) }
        defer { target.stop() }
        let location = target.baseURL.absoluteString + "/there"
        let redirecting = try LoopbackHTTPServer { _ in .init(status: 302, headers: ["Location": location]) }
        defer { redirecting.stop() }
        guard
            case .success(let refused) = await unpooledLoader().load(
                request(redirecting.baseURL), limit: 100, timeout: .seconds(5))
        else { return XCTFail("expected the 3xx answer") }
        XCTAssertEqual(refused.status, 302, "no policy: the redirect is the caller's")
        let following = unpooledLoader { _, next in next }
        guard
            case .failure(.tooLarge(99, announced: true)) = await following.load(
                request(redirecting.baseURL), limit: 99, timeout: .seconds(5))
        else { return XCTFail("the redirect followed, its answer held to the limit") }
        guard
            case .success(let answer) = await following.load(
                request(redirecting.baseURL), limit: 100, timeout: .seconds(5))
        else { return XCTFail("expected the redirect's answer") }
        XCTAssertEqual(answer.body.count, 100)
    }

    func testACallerCancelledBeforeTheStartSendsNothingOnASessionPerRequest() async throws {
        let arrivals = Arrivals()
        let server = try LoopbackHTTPServer { _ in
            arrivals.count()
            return .init(status: 200)
        }
        defer { server.stop() }
        let loader = unpooledLoader()
        let url = server.baseURL
        let call = Task {
            while !Task.isCancelled { await Task.yield() }
            return await loader.load(URLRequest(url: url.appendingPathComponent("/x")), limit: 100, timeout: nil)
        }
        call.cancel()
        guard case .failure(.cancelled) = await call.value else { return XCTFail("expected a cancellation") }
        // A request made and started anyway would arrive by now.
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(arrivals.seen, 0, "a cancelled caller's request was sent")
    }

    func testASessionPerRequestOpensNoMoreConnectionsToAHostThanOneSession() async throws {
        let arrivals = Arrivals()
        let server = try LoopbackHTTPServer { _ in
            arrivals.enter()
            defer { arrivals.leave() }
            Thread.sleep(forTimeInterval: 0.1)
            return .init(status: 200)
        }
        defer { server.stop() }
        let loader = unpooledLoader()
        let url = server.baseURL
        let answered = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let call = URLRequest(url: url.appendingPathComponent("/\(index)"))
                    if case .success = await loader.load(call, limit: 100, timeout: .seconds(20)) { return true }
                    return false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(answered, 20)
        XCTAssertEqual(arrivals.seen, 20)
        let perHost = URLSessionConfiguration.ephemeral.httpMaximumConnectionsPerHost
        XCTAssertLessThanOrEqual(arrivals.most, perHost, "more requests at once than one session would send")
        XCTAssertGreaterThan(arrivals.most, 1, "requests to a host still run side by side")
    }

    func testAWaitForAPlaceEndsAtTheDeadlineOrTheCancellation() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, delay: 1.5) }
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        let loader = BoundedURLLoader(sessionPerRequest: configuration, resourceTimeout: .seconds(10))
        let url = server.baseURL
        let first = Task { await loader.load(URLRequest(url: url), limit: 100, timeout: .seconds(5)) }
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        guard
            case .failure(.timedOut) = await loader.load(URLRequest(url: url), limit: 100, timeout: .milliseconds(300))
        else { return XCTFail("the wait in line is part of the call's time") }
        XCTAssertLessThan(start.duration(to: .now), .seconds(1), "ended at its deadline, not when a place came")
        let waiting = Task { await loader.load(URLRequest(url: url), limit: 100, timeout: .seconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        guard case .failure(.cancelled) = await waiting.value else { return XCTFail("expected a cancellation") }
        guard case .success = await first.value else { return XCTFail("the first call is answered") }
        guard case .success = await loader.load(URLRequest(url: url), limit: 100, timeout: .seconds(5)) else {
            return XCTFail("the places given back by the waits that ended are free again")
        }
    }

    func testARedirectIsReturnedWithoutAPolicyAndFollowedAsThePolicySays() async throws {
        let target = try LoopbackHTTPServer { request in
            .init(body: Data((request.headers["authorization"] ?? "none").utf8))
        }
        defer { target.stop() }
        let location = target.baseURL.absoluteString + "/there"
        let redirecting = try LoopbackHTTPServer { _ in .init(status: 302, headers: ["Location": location]) }
        defer { redirecting.stop() }
        var call = request(redirecting.baseURL)
        call.setValue("Bearer secret", forHTTPHeaderField: "Authorization")

        guard case .success(let refused) = await ownLoader().load(call, limit: 100, timeout: .seconds(5)) else {
            return XCTFail("expected the 3xx answer")
        }
        XCTAssertEqual(refused.status, 302)
        XCTAssertEqual(refused.headers["location"], location)

        let followed = ownLoader { original, next in
            XCTAssertEqual(original?.url?.path, "/x")
            var stripped = next
            stripped.setValue(nil, forHTTPHeaderField: "Authorization")
            return stripped
        }
        guard case .success(let answer) = await followed.load(call, limit: 100, timeout: .seconds(5)) else {
            return XCTFail("expected the redirect's answer")
        }
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), "none", "the policy's request was sent")
    }
}

// @unchecked Sendable: `seen` is read and written under `lock`.
/// Records whether its session was invalidated.
private final class InvalidationWatcher: NSObject, URLSessionDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var seen = false
    var invalidated: Bool { lock.withLock { seen } }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        lock.withLock { seen = true }
    }
}

// @unchecked Sendable: `value`, `now` and `peak` are read and written under `lock`.
/// Counts the requests a server received, and the most it was answering at once.
private final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    private var now = 0
    private var peak = 0
    var seen: Int { lock.withLock { value } }
    var most: Int { lock.withLock { peak } }
    func count() { lock.withLock { value += 1 } }

    func enter() {
        lock.withLock {
            value += 1
            now += 1
            peak = max(peak, now)
        }
    }

    func leave() { lock.withLock { now -= 1 } }
}
