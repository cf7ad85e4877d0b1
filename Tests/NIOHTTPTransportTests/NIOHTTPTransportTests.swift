#if NIOHTTPTransport
    import Foundation
    import HTTPTransport
    import LoopbackHTTPServer
    import NIOHTTPTransport
    import NIOSSL
    import XCTest

    /// The NIO transport honours what `HTTPTransport` asks, as URLSessionTransport does: each request's
    /// redirect policy, size bound, deadline and idle timeout, cancellation, repeated fields, bodies,
    /// and clear failures for a refused, dropped or cut connection; over TLS, a trusted self-signed
    /// certificate works and an untrusted one is refused.
    final class NIOHTTPTransportTests: XCTestCase {
        func testOneTransportAppliesEachRequestsOwnRedirectPolicy() async throws {
            let target = try LoopbackHTTPServer { request in
                .init(body: Data("\(request.method) \(request.headers["authorization"] ?? "none")".utf8))
            }
            defer { target.stop() }
            let location = target.baseURL.absoluteString + "/there"
            let redirecting = try LoopbackHTTPServer { request in
                request.path == "/see-other"
                    ? .init(status: 303, headers: ["Location": location])
                    : .init(status: 302, headers: ["Location": location])
            }
            defer { redirecting.stop() }
            let url = redirecting.baseURL.appendingPathComponent("x")
            let transport = NIOHTTPTransport()

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
            XCTAssertEqual(String(decoding: followed.body, as: UTF8.self), "GET none")

            // A 303 continues with a GET, without the body.
            var post = follow
            post.method = "POST"
            post.url = redirecting.baseURL.appendingPathComponent("see-other")
            post.body = Data("{}".utf8)
            let seen = try await transport.send(post)
            XCTAssertEqual(String(decoding: seen.body, as: UTF8.self), "GET none")
        }

        func testTheAnswerIsBoundedAndTimed() async throws {
            let server = try LoopbackHTTPServer { request in
                switch request.path {
                case "/big": return .init(body: Data(repeating: 0x61, count: 10_000))
                default: return .init(status: 200, body: Data("late".utf8), delay: 3)
                }
            }
            defer { server.stop() }
            let transport = NIOHTTPTransport()
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
            XCTAssertEqual(whole.body, Data(repeating: 0x61, count: 10_000))

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

            var idle = slow
            idle.timeout = nil
            idle.idleTimeout = .milliseconds(300)
            do {
                _ = try await transport.send(idle)
                XCTFail("no idle timeout")
            } catch {
                XCTAssertEqual(error.code, .timedOut, error.description)
            }
        }

        func testCancellationEndsTheRequestAtOnce() async throws {
            let server = try LoopbackHTTPServer { _ in .init(status: 200, body: Data("late".utf8), delay: 5) }
            defer { server.stop() }
            let request = HTTPTransportRequest(method: "GET", url: server.baseURL, timeout: .seconds(20))
            let task = Task { try await NIOHTTPTransport().send(request) }
            try await Task.sleep(for: .milliseconds(200))
            let start = ContinuousClock.now
            task.cancel()
            do {
                _ = try await task.value
                XCTFail("a cancelled request answered")
            } catch let error as HTTPTransportError {
                XCTAssertEqual(error.code, .cancelled)
            }
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(2))
        }

        func testBodiesAndRepeatedFieldsCrossTheWire() async throws {
            let server = try LoopbackHTTPServer { request in
                var answer = HTTPHeaderFields()
                for value in request.headers.values(for: "X-Seen") { answer.append("X-Echo", value) }
                answer.append("Set-Cookie", "a=1")
                answer.append("Set-Cookie", "b=2")
                return .init(status: 201, headers: answer, body: Data("\(request.method) ".utf8) + request.body)
            }
            defer { server.stop() }
            var sent = HTTPHeaderFields()
            sent.append("X-Seen", "one")
            sent.append("X-Seen", "two")
            sent.append("Content-Type", "application/json")
            let response = try await NIOHTTPTransport().send(
                HTTPTransportRequest(
                    method: "POST", url: server.baseURL.appendingPathComponent("xrpc/x.y.z"), headers: sent,
                    body: Data(#"{"text": "hello"}"#.utf8), timeout: .seconds(10)))
            XCTAssertEqual(response.status, 201)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"POST {"text": "hello"}"#)
            XCTAssertEqual(response.headers.values(for: "x-echo"), ["one", "two"])
            XCTAssertEqual(response.headers.values(for: "set-cookie"), ["a=1", "b=2"])
        }

        func testARefusedDroppedOrCutConnectionFailsClearly() async throws {
            let server = try LoopbackHTTPServer { request in
                switch request.path {
                case "/drop": return .init(status: 200, dropConnection: true)
                default: return .init(status: 200, body: Data(repeating: 0x62, count: 1_000), truncatedTo: 100)
                }
            }
            defer { server.stop() }
            let transport = NIOHTTPTransport()
            for path in ["drop", "cut"] {
                do {
                    _ = try await transport.send(
                        HTTPTransportRequest(
                            method: "GET", url: server.baseURL.appendingPathComponent(path), timeout: .seconds(5)))
                    XCTFail("\(path): answered")
                } catch {
                    XCTAssertEqual(error.code, .connectionLost, "\(path): \(error)")
                }
            }
            let stopped = try LoopbackHTTPServer { _ in .init(status: 200) }
            let url = stopped.baseURL.appendingPathComponent("x")
            stopped.stop()
            do {
                _ = try await transport.send(HTTPTransportRequest(method: "GET", url: url, timeout: .seconds(5)))
                XCTFail("a stopped server answered")
            } catch {
                XCTAssertEqual(error.code, .cannotConnect, error.description)
            }
        }

        func testTLSWithATrustedCertificateAndRefusedWithoutIt() async throws {
            let server = try TLSWebSocketServer.start()
            defer { server.stop() }
            let url = try XCTUnwrap(URL(string: "https://localhost:\(server.port)/no-such-path"))
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(server.certificatePath))
            let answer = try await NIOHTTPTransport(tlsConfiguration: tls).send(
                HTTPTransportRequest(method: "GET", url: url, timeout: .seconds(10)))
            XCTAssertEqual(answer.status, 404)
            XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), "no such event stream\n")
            do {
                _ = try await NIOHTTPTransport().send(
                    HTTPTransportRequest(method: "GET", url: url, timeout: .seconds(10)))
                XCTFail("an untrusted certificate was accepted")
            } catch {
                XCTAssertEqual(error.code, .cannotConnect, error.description)
            }
        }
    }
#endif  // NIOHTTPTransport
