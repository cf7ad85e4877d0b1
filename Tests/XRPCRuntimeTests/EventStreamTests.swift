import Foundation
import XCTest
import XRPCTesting

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// Event streams: frames to messages, error frames, malformed frames, reconnection, cancellation.
final class EventStreamTests: XCTestCase {
    private let service = URL(string: "https://relay.example.com/base/")

    private func client(_ transport: ScriptedTransport, reconnect: XRPCReconnectPolicy? = nil) -> XRPCClient {
        var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 500) })
        client.eventStreams = XRPCEventStreamOptions(
            serviceURL: service, transport: transport, reconnectPolicy: reconnect, headers: ["X-App": "test"])
        return client
    }

    /// Every message until the end, or the error that ended the stream.
    private func drain(_ stream: XRPCEventStream<TestStream>) async -> ([TestStream.Message], XRPCEventStreamError?) {
        var messages: [TestStream.Message] = []
        do {
            for try await message in stream { messages.append(message) }
            return (messages, nil)
        } catch {
            return (messages, error)
        }
    }

    private let fastRetry = XRPCReconnectPolicy(
        maximumAttempts: 3, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(2))

    func testMessagesGetTheirTypeUnknownTypesAreKeptAndUnknownOpsSkipped() async throws {
        let transport = ScriptedTransport([
            .connection([
                .message(Frames.tick(1)),
                .message(.binary(Frames.frame(op: 2, type: "#future", ["x": .integer(1)]))),
                .message(.binary(Frames.frame(type: "#other", ["seq": .integer(2), "blob": .bytes(Data([1, 2]))]))),
                .message(.binary(Frames.frame(type: "com.example.elsewhere#thing", ["seq": .integer(3)]))),
                .close,
            ])
        ])
        let (messages, error) = await drain(client(transport).subscribe(TestStream.self, parameters: .init(cursor: 7)))
        XCTAssertNil(error)
        XCTAssertEqual(messages.count, 3)
        XCTAssertEqual(messages.first?.seq, 1)
        guard messages.count == 3, case .unknown(let other) = messages[1], case .unknown(let elsewhere) = messages[2]
        else { return XCTFail("unknown types must arrive in the unknown case: \(messages)") }
        XCTAssertEqual(other.type, "com.example.stream#other")
        XCTAssertEqual(other.json.objectValue?["blob"], .object(["$bytes": .string("AQI")]))
        XCTAssertEqual(elsewhere.type, "com.example.elsewhere#thing")
        XCTAssertEqual(
            transport.connectedURLs.map(\.absoluteString),
            ["wss://relay.example.com/base/xrpc/com.example.stream?cursor=7"])
        XCTAssertEqual(transport.connections.first?.closedWith, [.normalClosure])
    }

    func testErrorFrameEndsTheStreamWithATypedErrorAndClosesTheConnection() async throws {
        let transport = ScriptedTransport([
            .connection([.message(Frames.tick(1)), .message(Frames.error("FutureCursor", "Cursor in the future."))])
        ])
        let (messages, error) = await drain(
            client(transport, reconnect: fastRetry).subscribe(TestStream.self, parameters: .init()))
        XCTAssertEqual(messages.map(\.seq), [1])
        XCTAssertEqual(error?.code, .errorFrame)
        XCTAssertEqual(error?.code(for: TestStream.self), .futureCursor)
        XCTAssertEqual(error?.message, "Cursor in the future.")
        XCTAssertEqual(error?.lastSequence, 1)
        XCTAssertEqual(transport.connectedURLs.count, 1, "an error frame is never retried")
        XCTAssertEqual(transport.connections.first?.closedWith.isEmpty, false)
    }

    func testMalformedFramesEndTheStreamSayingWhatIsWrong() async throws {
        let header = DAGCBOR.encode(.map(["op": .integer(1), "t": .string("#tick")]))
        let cases: [(XRPCWebSocketMessage, String)] = [
            (.binary(Data([0xFF, 0x00])), "break"),
            (.binary(Data(DAGCBOR.encode(.array([.integer(1)])) + DAGCBOR.encode(.map([:])))), "header is a array"),
            (.binary(Frames.frame(type: nil, ["seq": .integer(1)])), "no string \"t\""),
            (.binary(Data(header + DAGCBOR.encode(.integer(3)))), "body is a integer"),
            (.binary(Data(header)), "no body"),
            (.binary(Frames.frame(["seq": .integer(1)]) + Data([0x01])), "follow the value"),
            (.binary(Frames.frame(op: -1, type: nil, ["message": .string("no name")])), "no string \"error\""),
            (.binary(Frames.frame(["seq": .string("one")])), "does not decode"),
            (.text("{\"op\":1}"), "text WebSocket message"),
        ]
        for (message, expected) in cases {
            let transport = ScriptedTransport([.connection([.message(Frames.tick(4)), .message(message)])])
            let (messages, error) = await drain(
                client(transport, reconnect: fastRetry).subscribe(TestStream.self, parameters: .init()))
            XCTAssertEqual(messages.map(\.seq), [4], expected)
            XCTAssertEqual(error?.code, .malformedFrame, expected)
            XCTAssertTrue(error?.message.contains(expected) == true, "\(expected): \(String(describing: error))")
            XCTAssertEqual(transport.connectedURLs.count, 1, "a malformed frame is a hard error, not retried")
        }
    }

    func testReconnectsAfterADropResumingAfterTheLastSeqSkippingRepeatsAndGivesUpAfterTheAttempts() async throws {
        let lost = XRPCWebSocketError(.connectionLost, message: "reset by peer")
        let transport = ScriptedTransport([
            .connection([.message(Frames.tick(5)), .message(Frames.tick(6)), .failure(lost)]),
            .failure(XRPCWebSocketError(.cannotConnect, message: "refused")),
            .connection([.message(Frames.tick(6)), .message(Frames.tick(7)), .close]),
            .failure(XRPCWebSocketError(.cannotConnect, message: "refused")),
            .failure(XRPCWebSocketError(.timedOut, message: "slow")),
            .failure(XRPCWebSocketError(.cannotConnect, message: "refused")),
        ])
        let stream = client(transport, reconnect: fastRetry).subscribe(TestStream.self, parameters: .init(cursor: 2))
        let (messages, error) = await drain(stream)
        XCTAssertEqual(messages.map(\.seq), [5, 6, 7])
        XCTAssertEqual(
            transport.connectedURLs.map { $0.query ?? "" },
            ["cursor=2", "cursor=6", "cursor=6", "cursor=7", "cursor=7", "cursor=7"])
        XCTAssertEqual(error?.code, .connectionFailed)
        XCTAssertEqual(error?.lastSequence, 7)
        XCTAssertTrue(error?.message.contains("after 4 attempts in a row") == true, "\(String(describing: error))")
    }

    func testWithoutAPolicyADropIsAnErrorAndACleanCloseIsTheEnd() async throws {
        let transport = ScriptedTransport([
            .connection([.message(Frames.tick(1)), .failure(XRPCWebSocketError(.connectionLost, message: "reset"))])
        ])
        let (messages, error) = await drain(client(transport).subscribe(TestStream.self, parameters: .init()))
        XCTAssertEqual(messages.map(\.seq), [1])
        XCTAssertEqual(error?.code, .connectionFailed)
        XCTAssertTrue(error?.message.contains("reset") == true)
        XCTAssertEqual(transport.connectedURLs.count, 1)
    }

    func testARefusedSubscriptionReportsTheXRPCErrorAndServerErrorsAreRetried() async throws {
        let body = Data(#"{"error":"InvalidRequest","message":"cursor must be an integer"}"#.utf8)
        let transport = ScriptedTransport([
            .failure(XRPCWebSocketError(.handshakeFailed, status: 503, message: "status 503")),
            .failure(XRPCWebSocketError(.handshakeFailed, status: 400, body: body, message: "status 400")),
        ])
        let (_, error) = await drain(
            client(transport, reconnect: fastRetry).subscribe(TestStream.self, parameters: .init()))
        XCTAssertEqual(error?.code, .rejected)
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.name, "InvalidRequest")
        XCTAssertEqual(error?.message, "cursor must be an integer")
        XCTAssertEqual(transport.connectedURLs.count, 2)
    }

    func testCancellingTheConsumingTaskEndsTheStreamAndClosesTheConnection() async throws {
        let transport = ScriptedTransport([.connection([.message(Frames.tick(1))])])
        let stream = client(transport).subscribe(TestStream.self, parameters: .init())
        let received = ScriptOutcome<Int>()
        let consumer = Task {
            var count = 0
            for try await _ in stream {
                count += 1
                received.set(count)
            }
            return count
        }
        let first = await received.value()
        XCTAssertEqual(first, 1)
        consumer.cancel()
        let count = try await consumer.value
        XCTAssertEqual(count, 1, "a cancelled stream ends without an error")
        XCTAssertEqual(transport.connections.first?.closedWith, [.normalClosure])
    }

    func testLeavingTheLoopClosesTheConnection() async throws {
        let transport = ScriptedTransport([.connection([.message(Frames.tick(1)), .message(Frames.tick(2))])])
        for try await message in client(transport).subscribe(TestStream.self, parameters: .init()) {
            XCTAssertEqual(message.seq, 1)
            break
        }
        XCTAssertEqual(transport.connections.first?.closedWith, [.normalClosure])
    }

    func testWithoutAServiceTheFirstNextFailsClearly() async throws {
        let client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 500) })
        let (_, error) = await drain(client.subscribe(TestStream.self, parameters: .init()))
        XCTAssertEqual(error?.code, .invalidService)
        XCTAssertTrue(error?.message.contains("eventStreams.serviceURL") == true)
    }

    func testStreamURLsUseWebSocketSchemesAndKeepThePathPrefix() throws {
        let items = [URLQueryItem(name: "cursor", value: "5")]
        func url(_ service: String) throws -> String? {
            XRPCClient.eventStreamURL(service: try XCTUnwrap(URL(string: service)), nsid: "a.b.c", queryItems: items)?
                .absoluteString
        }
        XCTAssertEqual(try url("https://host"), "wss://host/xrpc/a.b.c?cursor=5")
        XCTAssertEqual(try url("http://127.0.0.1:2590/"), "ws://127.0.0.1:2590/xrpc/a.b.c?cursor=5")
        XCTAssertEqual(try url("wss://host/prefix//"), "wss://host/prefix/xrpc/a.b.c?cursor=5")
        XCTAssertNil(try url("ftp://host"))
        let resumed = EventStreamIteratorState<TestStream>.url(
            try XCTUnwrap(URL(string: "ws://h/xrpc/a.b.c?cursor=5&x=1")), resumingAfter: 9)
        XCTAssertEqual(resumed.query, "x=1&cursor=9")
    }

    func testFrameDecodingReportsOffsetsInTheFrame() {
        let header = DAGCBOR.encode(.map(["op": .integer(1), "t": .string("#tick")]))
        XCTAssertThrowsError(try XRPCEventFrame(decoding: Data(header + [0xA1, 0x01]))) { error in
            XCTAssertEqual(
                (error as? AtprotoBinaryDecodingError)?.offset, header.count, "the body's map starts there: \(error)")
        }
        XCTAssertEqual(
            try XRPCEventFrame(decoding: Frames.frame(op: 9, type: nil, [:])), .unknown(op: 9))
        XCTAssertEqual(
            try XRPCEventFrame(decoding: Frames.frame(["seq": .integer(3)])).sequence, 3)
    }

    func testEndToEndOverTheDefaultTransportWithTheAgentsService() async throws {
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            peer.sendBinary(Array(Frames.frame(["seq": .integer(4), "note": .string("first")])))
            peer.sendBinary(Array(Frames.frame(op: -1, type: nil, ["error": .string("FutureCursor")])))
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        let service = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)"))
        let client = XRPCClient(agent: URLSessionAgent(serviceURL: service))
        let (messages, error) = await drain(client.subscribe(TestStream.self, parameters: .init(cursor: 3)))
        guard case .tick(let tick)? = messages.first else { return XCTFail("expected a tick: \(messages)") }
        XCTAssertEqual(tick.note, "first")
        XCTAssertEqual(messages.count, 1)
        XCTAssertEqual(error?.code(for: TestStream.self), .futureCursor)
        XCTAssertEqual(server.requestTargets, ["/xrpc/com.example.stream?cursor=3"])
    }
}
