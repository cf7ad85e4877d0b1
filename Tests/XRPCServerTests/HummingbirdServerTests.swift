#if XRPCHummingbird
    import Foundation
    import XCTest
    import XRPCCore
    import XRPCHummingbird
    import XRPCServer
    import XRPCServerTestLexicons
    import XRPCTesting

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The router over real HTTP and WebSockets (trait XRPCHummingbird): answers as in process, bodies
    /// bounded and timed, subscriptions read by the package's own event-stream client.
    final class HummingbirdServerTests: XCTestCase {
        var task: Task<Void, Never>?

        override func tearDown() {
            task?.cancel()
        }

        /// Starts the test router with the event-stream route; returns its port.
        func start(bodyTimeout: Duration = .seconds(10), maximumBodySize: Int = 1 << 20) async throws -> Int {
            var router = TestRouter.make(configuration: .init(maximumBodySize: maximumBodySize))
            router.subscription(ComExampleTestSubscribeTicks.self) { call in
                if (call.parameters.cursor ?? 0) > 100 {
                    throw XRPCServerError.declared(ComExampleTestSubscribeTicks.Error.futureCursor, message: "ahead")
                }
                return AsyncThrowingStream { continuation in
                    for seq in 1...3 {
                        continuation.yield(
                            .comExampleTestSubscribeTicksTick(.init(seq: seq, data: LexiconBytes(Data([UInt8(seq)])))))
                    }
                    continuation.finish(throwing: XRPCServerError("ConsumerTooSlow", message: "behind"))
                }
            }
            let server = XRPCHTTPServer(
                router: router, configuration: .init(port: 0, bodyTimeout: bodyTimeout, idleTimeout: .seconds(5)))
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            task = Task {
                try? await server.run { continuation.yield($0) }
                continuation.finish()
            }
            for await port in ports { return port }
            throw XCTSkip("the server did not start")
        }

        func send(_ port: Int, _ method: String, _ target: String, body: Data? = nil, type: String? = nil) async throws
            -> (Int, Data, HTTPURLResponse?)
        {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(target)")!)
            request.httpMethod = method
            request.httpBody = body
            if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, data, http)
        }

        func testHTTPAnswersAreTheRoutersAnswers() async throws {
            let port = try await start()
            let (status, data, response) = try await send(
                port, "GET", "/xrpc/com.example.test.getItems?feed=at://did:plc:a/app.bsky.feed.generator/r&limit=3")
            XCTAssertEqual(status, 200)
            XCTAssertEqual(response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
            XCTAssertEqual(try ComExampleTestGetItems.Output(lexiconJSON: JSONValue.parse(data)).items[1], "limit=3")
            let (missing, missingBody, _) = try await send(port, "GET", "/xrpc/com.example.test.none")
            XCTAssertEqual(missing, 501)
            XCTAssertEqual(try JSONValue.parse(missingBody).objectValue?["error"]?.stringValue, "MethodNotImplemented")
            let (posted, _, _) = try await send(
                port, "POST", "/xrpc/com.example.test.putItem", body: Data(#"{"text":"hi"}"#.utf8),
                type: "application/json")
            XCTAssertEqual(posted, 200)
            let (wrongMethod, _, wrongResponse) = try await send(port, "GET", "/xrpc/com.example.test.putItem")
            XCTAssertEqual(wrongMethod, 405)
            XCTAssertEqual(wrongResponse?.value(forHTTPHeaderField: "Allow"), "POST")
        }

        func testABodyOverTheLimitIs413() async throws {
            let port = try await start(maximumBodySize: 64)
            let body = Data(#"{"text":"\#(String(repeating: "x", count: 100))"}"#.utf8)
            let (status, data, _) = try await send(
                port, "POST", "/xrpc/com.example.test.putItem", body: body, type: "application/json")
            XCTAssertEqual(status, 413)
            XCTAssertEqual(try JSONValue.parse(data).objectValue?["error"]?.stringValue, "PayloadTooLarge")
        }

        func testASlowBodyIsCutOff() async throws {
            let port = try await start(bodyTimeout: .milliseconds(300))
            // Headers promise 20 bytes; 2 arrive, then nothing.
            let head =
                "POST /xrpc/com.example.test.putItem HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 20\r\n\r\n{\""
            let start = ContinuousClock.now
            let answer = try RawConnection.exchange(port: port, send: head, timeout: .seconds(5))
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 408"), answer)
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(3))
        }

        func testAWebSocketToAnotherMethodGetsItsRefusalAsAnErrorFrame() async throws {
            let port = try await start()
            let client = XRPCClient(
                agent: StubAgent(serviceURL: URL(string: "http://127.0.0.1:\(port)")!) { _ in XRPCResponse(status: 500)
                })
            // A query's path opened as a subscription: refused without running the query.
            let query = await refusal(client, QueryAsSubscription.self)
            XCTAssertEqual(query, "InvalidRequest")
            let unknown = await refusal(client, UnknownSubscription.self)
            XCTAssertEqual(unknown, "MethodNotImplemented")
        }

        /// The name of the error that ended `endpoint`'s stream.
        func refusal<E: XRPCSubscription>(_ client: XRPCClient, _ endpoint: E.Type) async -> String?
        where E.Parameters == XRPCNoParameters {
            do {
                for try await _ in client.subscribe(endpoint, parameters: XRPCNoParameters()) {}
                return nil
            } catch {
                return error.name
            }
        }

        func testSubscriptionsAreWebSocketsTheClientReads() async throws {
            let port = try await start()
            let client = XRPCClient(
                agent: StubAgent(serviceURL: URL(string: "http://127.0.0.1:\(port)")!) { _ in
                    XRPCResponse(status: 500)
                })
            let (seqs, ended) = await collect(client, cursor: 0)
            XCTAssertEqual(seqs, [1, 2, 3])
            XCTAssertEqual(ended, "ConsumerTooSlow")
            // A refusal before the stream starts reaches the client as an error frame with its name.
            let (none, refused) = await collect(client, cursor: 500)
            XCTAssertEqual(none, [])
            XCTAssertEqual(refused, "FutureCursor")
        }

        /// The ticks' seqs, and the name of the error that ended the stream (`nil` when it just ended).
        func collect(_ client: XRPCClient, cursor: Int) async -> ([Int], String?) {
            var seqs: [Int] = []
            do {
                for try await message in client.subscribe(
                    ComExampleTestSubscribeTicks.self, parameters: .init(cursor: cursor))
                {
                    if case .comExampleTestSubscribeTicksTick(let tick) = message { seqs.append(tick.seq) }
                }
                return (seqs, nil)
            } catch {
                return (seqs, error.name)
            }
        }
    }

    /// `com.example.test.getItems` (a query) as if it were a subscription.
    enum QueryAsSubscription: XRPCSubscription {
        typealias Parameters = XRPCNoParameters
        typealias Error = XRPCUndeclaredError
        typealias Message = ComExampleTestSubscribeTicks.Message
        static var nsid: NSID { "com.example.test.getItems" }
    }

    /// A subscription nobody serves.
    enum UnknownSubscription: XRPCSubscription {
        typealias Parameters = XRPCNoParameters
        typealias Error = XRPCUndeclaredError
        typealias Message = ComExampleTestSubscribeTicks.Message
        static var nsid: NSID { "com.example.test.nothing" }
    }

    /// One TCP exchange on loopback: send `text`, read until the peer closes or `timeout` passes.
    enum RawConnection {
        static func exchange(port: Int, send text: String, timeout: Duration) throws -> String {
            #if canImport(Glibc)
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard descriptor >= 0 else { throw XCTSkip("no socket") }
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw XCTSkip("could not connect") }
            var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received.append(contentsOf: buffer[0..<count])
            }
            return String(decoding: received, as: UTF8.self)
        }
    }
#endif
