import Foundation
import XCTest
import XRPCTesting

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// The `xrpc.v1.json` framing: `TestStream`'s messages as JSON text frames.
enum JSONTestStream: XRPCSubscription {
    static let nsid: NSID = "com.example.stream"
    static var framing: XRPCEventFraming { .json }
    typealias Parameters = TestStream.Parameters
    typealias Message = TestStream.Message
    typealias Error = TestStream.Error
}

/// JSON-framed subscriptions (atproto proposal 0015): frames, errors, the subprotocol, resumption.
final class JSONEventStreamTests: XCTestCase {
    private func client(_ transport: ScriptedTransport, reconnect: XRPCReconnectPolicy? = nil) -> XRPCClient {
        var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 500) })
        client.eventStreams = XRPCEventStreamOptions(
            serviceURL: URL(string: "https://jet.example.com"), transport: transport, reconnectPolicy: reconnect)
        return client
    }

    private func drain(
        _ stream: XRPCEventStream<JSONTestStream>
    ) async -> ([TestStream.Message], XRPCEventStreamError?) {
        var messages: [TestStream.Message] = []
        do {
            for try await message in stream { messages.append(message) }
            return (messages, nil)
        } catch {
            return (messages, error)
        }
    }

    private static func tick(_ seq: Int, type: String = "#tick") -> ScriptedConnection.Event {
        .message(.text(##"{"$type":"message","payload":{"$type":"\##(type)","seq":\##(seq)}}"##))
    }

    func testTextFramesAreMessagesOfTheirTypeAndTheSubprotocolIsOffered() async throws {
        let transport = ScriptedTransport([
            .connection([
                Self.tick(1),
                Self.tick(2, type: "com.example.stream#tick"),
                .message(.text(#"{"$type":"later","whatever":1}"#)),
                .message(.text(#"{"payload":{"$type":"com.example.other#thing","n":1},"$type":"message"}"#)),
                .close,
            ])
        ])
        let (messages, error) = await drain(client(transport).subscribe(JSONTestStream.self, parameters: .init()))
        XCTAssertNil(error)
        XCTAssertEqual(messages.map(\.seq), [1, 2, nil], "an unknown frame type is skipped")
        guard case .unknown(let other)? = messages.last else { return XCTFail("\(messages)") }
        XCTAssertEqual(other.type, "com.example.other#thing")
        XCTAssertEqual(transport.connectedHeaders.first?["Sec-WebSocket-Protocol"], "xrpc.v1.json")
        XCTAssertEqual(
            transport.connectedURLs.map(\.absoluteString), ["wss://jet.example.com/xrpc/com.example.stream"])
    }

    func testErrorFrameEndsTheStreamWithItsName() async throws {
        let transport = ScriptedTransport([
            .connection([
                Self.tick(4),
                .message(.text(#"{"$type":"error","error":"ConsumerTooSlow","message":"reconnect with cursor=5"}"#)),
            ])
        ])
        let (messages, error) = await drain(client(transport).subscribe(JSONTestStream.self, parameters: .init()))
        XCTAssertEqual(messages.map(\.seq), [4])
        XCTAssertEqual(error?.code, .errorFrame)
        XCTAssertEqual(error?.name, "ConsumerTooSlow")
        XCTAssertEqual(error?.message, "reconnect with cursor=5")
        XCTAssertEqual(error?.lastSequence, 4)
    }

    func testMalformedFramesEndTheStreamSayingWhatIsWrong() async throws {
        let cases: [(XRPCWebSocketMessage, String)] = [
            (.binary(Data([1, 2])), "xrpc.v1.json frames are text"),
            (.text("{"), "not JSON"),
            (.text("[1]"), "is a array, not an object"),
            (.text(#"{"payload":{}}"#), "no string \"$type\""),
            (.text(#"{"$type":"message"}"#), "no object \"payload\""),
            (.text(#"{"$type":"message","payload":{"seq":1}}"#), "payload has no string \"$type\""),
            (.text(#"{"$type":"error","message":"x"}"#), "no string \"error\""),
            (.text(##"{"$type":"message","payload":{"$type":"#tick","seq":"one"}}"##), "does not decode"),
        ]
        for (frame, expected) in cases {
            let transport = ScriptedTransport([.connection([.message(frame)])])
            let (messages, error) = await drain(client(transport).subscribe(JSONTestStream.self, parameters: .init()))
            XCTAssertEqual(messages.count, 0)
            XCTAssertEqual(error?.code, .malformedFrame, "\(frame)")
            XCTAssertTrue(error?.message.contains(expected) == true, "\(error.map(String.init(describing:)) ?? "")")
        }
    }

    func testAReconnectionResumesFromTheLastSeqAndSkipsTheOverlap() async throws {
        let transport = ScriptedTransport([
            .connection([Self.tick(1), Self.tick(2), .failure(XRPCWebSocketError(.connectionLost, message: "cut"))]),
            .connection([Self.tick(2), Self.tick(3), .close]),
        ])
        let policy = XRPCReconnectPolicy(maximumAttempts: 1, initialDelay: .milliseconds(1))
        var seen: [Int?] = []
        do {
            for try await message in client(transport, reconnect: policy).subscribe(
                JSONTestStream.self, parameters: .init())
            {
                seen.append(message.seq)
                if seen.count == 3 { break }
            }
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertEqual(seen, [1, 2, 3], "the inclusive cursor's repeat of seq 2 is not delivered twice")
        XCTAssertEqual(transport.connectedURLs.last?.query, "cursor=2")
    }

    func testAFrameCheckSeesThePayloadAsTheDataModelAndAFloatFailsIt() async throws {
        // @unchecked Sendable: `seen` is written under `lock`.
        final class Recorder: XRPCEventFrameCheck, @unchecked Sendable {
            let lock = NSLock()
            var seen: [(String, [String: AtprotoDataModelValue])] = []
            func check(type: String, body: [String: AtprotoDataModelValue], nsid: NSID) async throws -> Bool {
                lock.withLock { seen.append((type, body)) }
                return true
            }
        }
        let recorder = Recorder()
        let transport = ScriptedTransport([
            .connection([
                Self.tick(1), .message(.text(##"{"$type":"message","payload":{"$type":"#tick","seq":2.5}}"##)),
            ])
        ])
        var client = client(transport)
        client.eventStreams.frameCheck = recorder
        let (messages, error) = await drain(client.subscribe(JSONTestStream.self, parameters: .init()))
        XCTAssertEqual(messages.map(\.seq), [1])
        XCTAssertEqual(recorder.seen.first?.0, "#tick")
        XCTAssertEqual(recorder.seen.first?.1, ["seq": .integer(1)], "the body without its $type")
        XCTAssertEqual(error?.code, .frameCheckFailed, "a payload outside the data model cannot be checked")
    }

    func testACBORSubscriptionOffersNoSubprotocol() async throws {
        let transport = ScriptedTransport([.connection([.message(Frames.tick(1)), .close])])
        _ = try await client(transport).subscribe(TestStream.self, parameters: .init()).first { _ in true }
        XCTAssertNil(transport.connectedHeaders.first?["Sec-WebSocket-Protocol"])
    }

    func testTheHandshakeFailsWhenTheServerChoosesASubprotocolNotOffered() async throws {
        let transport = POSIXWebSocketTransport()
        func serve(_ chosen: String?) throws -> TestWebSocketServer {
            try TestWebSocketServer { peer in
                let accept = WebSocketHandshake.acceptValue(forKey: peer.key)
                peer.sendRaw(
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: \(accept)\r\n"
                        + (chosen.map { "Sec-WebSocket-Protocol: \($0)\r\n" } ?? "") + "\r\n")
                // Nothing more: a client that refused the handshake has closed its socket.
            }
        }
        let offered: HTTPHeaderFields = ["Sec-WebSocket-Protocol": "xrpc.v1.json"]
        for (chosen, headers, fails) in [
            ("xrpc.v1.cbor", offered, true), ("xrpc.v1.json", [:], true), ("xrpc.v1.json", offered, false),
            (nil, offered, false),
        ] as [(String?, HTTPHeaderFields, Bool)] {
            let server = try serve(chosen)
            defer { server.stop() }
            do {
                let connection = try await transport.connect(to: server.url, headers: headers)
                connection.close(code: .normalClosure, reason: "")
                XCTAssertFalse(fails, "\(chosen ?? "none") answering \(headers) must fail")
            } catch let error as XRPCWebSocketError {
                XCTAssertTrue(fails, "\(error)")
                XCTAssertEqual(error.code, .handshakeFailed)
                XCTAssertTrue(error.message.contains("was not offered"), error.message)
            }
        }
    }
}
