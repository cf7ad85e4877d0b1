import AtprotoLexicons
import Foundation
import Jetstream
import XCTest

// @unchecked Sendable: every `var` is read and written under `lock`.
/// A transport that plays scripted connections (messages, then an end) and records the URLs.
final class ScriptedJetstreamTransport: XRPCWebSocketTransport, @unchecked Sendable {
    enum End {
        case clean
        case failure(XRPCWebSocketError)
    }

    private let lock = NSLock()
    private var scripts: [Result<([XRPCWebSocketMessage], End), XRPCWebSocketError>]
    private var urls: [URL] = []

    init(_ scripts: [Result<([XRPCWebSocketMessage], End), XRPCWebSocketError>]) { self.scripts = scripts }

    var connectedURLs: [URL] { lock.withLock { urls } }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        let script = lock.withLock {
            urls.append(url)
            return scripts.isEmpty
                ? .failure(XRPCWebSocketError(.cannotConnect, message: "no more")) : scripts.removeFirst()
        }
        let (messages, end) = try script.get()
        return Connection(messages, end)
    }

    // @unchecked Sendable: `messages` is read and written under `lock`; `end` never changes.
    private final class Connection: XRPCWebSocketConnection, @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [XRPCWebSocketMessage]
        private let end: End

        init(_ messages: [XRPCWebSocketMessage], _ end: End) {
            self.messages = messages
            self.end = end
        }

        func receive() async throws -> XRPCWebSocketMessage? {
            if let next = lock.withLock({ messages.isEmpty ? nil : messages.removeFirst() }) { return next }
            switch end {
            case .clean: return nil
            case .failure(let error): throw error
            }
        }

        func send(_ message: XRPCWebSocketMessage) async throws {}
        func close(code: XRPCWebSocketCloseCode, reason: String) {}
    }
}

/// `ConsumerTooSlow` and dropped connections resume from the last cursor; `CursorTooOld` ends typed.
final class JetstreamReconnectTests: XCTestCase {
    private let service = URL(string: "ws://jet.example")!
    private let fast = XRPCReconnectPolicy(maximumAttempts: 2, initialDelay: .milliseconds(1))

    private static func v2(_ seq: Int) -> XRPCWebSocketMessage {
        .text(
            #"{"$type":"message","payload":{"$type":"network.bsky.jetstream.subscribeEvents#commit","seq":"#
                + #"\#(seq),"did":"did:plc:abc","time":"2026-11-28T09:44:11.810157Z","rev":"3l","operation":"delete","#
                + #""collection":"app.bsky.feed.post","rkey":"r\#(seq)"}}"#)
    }

    private static func v1(_ time: Int) -> XRPCWebSocketMessage {
        .text(
            #"{"did":"did:plc:abc","time_us":\#(time),"kind":"commit","commit":{"rev":"3l","operation":"delete","#
                + #""collection":"app.bsky.feed.post","rkey":"r\#(time)"}}"#)
    }

    private func cursors(_ stream: JetstreamStream, limit: Int) async -> ([Int], JetstreamError?) {
        var seen: [Int] = []
        do {
            for try await message in stream {
                if let event = message.event { seen.append(event.cursor) }
                if seen.count == limit { break }
            }
            return (seen, nil)
        } catch {
            return (seen, error)
        }
    }

    func testConsumerTooSlowOnV2ReconnectsFromTheLastCursorWithoutRepeats() async throws {
        let slow = XRPCWebSocketMessage.text(#"{"$type":"error","error":"ConsumerTooSlow","message":"cursor=3"}"#)
        let transport = ScriptedJetstreamTransport([
            .success(([Self.v2(1), Self.v2(2), slow], .clean)),
            .success(([Self.v2(2), Self.v2(3), Self.v2(4)], .clean)),
        ])
        let client = JetstreamClient(service: service, transport: transport, reconnectPolicy: fast)
        let (seen, error) = await cursors(try client.subscribe(), limit: 4)
        XCTAssertNil(error)
        XCTAssertEqual(seen, [1, 2, 3, 4])
        XCTAssertEqual(transport.connectedURLs.last?.query, "cursor=2")
    }

    func testAV1CloseWithAnErrorCodeReconnectsFromTheLastTimeAndSkipsTheOverlap() async throws {
        let dropped = XRPCWebSocketError(.closedByPeer, closeCode: .policyViolation, message: "ConsumerTooSlow")
        let transport = ScriptedJetstreamTransport([
            .success(([Self.v1(1_000_000_000_000_010)], .failure(dropped))),
            .success(([Self.v1(1_000_000_000_000_010), Self.v1(1_000_000_000_000_020)], .clean)),
        ])
        let client = JetstreamClient(service: service, version: .v1, transport: transport, reconnectPolicy: fast)
        let (seen, error) = await cursors(try client.subscribe(after: 1_000_000_000_000_000), limit: 2)
        XCTAssertNil(error)
        XCTAssertEqual(seen, [1_000_000_000_000_010, 1_000_000_000_000_020])
        XCTAssertEqual(
            transport.connectedURLs.map { $0.query ?? "" },
            ["cursor=1000000000000000", "cursor=1000000000000010"])
    }

    func testInfoFramesAndUnknownMessagesArriveWithoutMovingTheCursor() async throws {
        let info = XRPCWebSocketMessage.text(
            #"{"$type":"message","payload":{"$type":"network.bsky.jetstream.subscribeEvents#info","#
                + #""name":"OutdatedCursor","message":"starting at seq 27"}}"#)
        let later = XRPCWebSocketMessage.text(##"{"$type":"message","payload":{"$type":"#later","seq":99}}"##)
        let transport = ScriptedJetstreamTransport([
            .success(([info, Self.v2(27), later], .failure(XRPCWebSocketError(.connectionLost, message: "cut")))),
            .success(([Self.v2(27), Self.v2(28)], .clean)),
        ])
        let client = JetstreamClient(service: service, transport: transport, reconnectPolicy: fast)
        var iterator = try client.subscribe(after: 1_000_000_000_000_000).makeAsyncIterator()
        guard case .info(let name, let message)? = try await iterator.next() else { return XCTFail("no info") }
        XCTAssertEqual(name, "OutdatedCursor")
        XCTAssertEqual(message, "starting at seq 27")
        let first = try await iterator.next()
        XCTAssertEqual(first?.event?.cursor, 27)
        guard case .unknown(let value)? = try await iterator.next() else { return XCTFail("unknown kept") }
        XCTAssertEqual(value.type, "network.bsky.jetstream.subscribeEvents#later")
        let next = try await iterator.next()
        XCTAssertEqual(next?.event?.cursor, 28, "seq 27 is not repeated")
        XCTAssertEqual(transport.connectedURLs.last?.query, "cursor=27", "the unknown message's seq is not a cursor")
    }

    func testCursorTooOldEndsTheStreamTypedWithoutRetrying() async throws {
        let body = Data(#"{"error":"CursorTooOld","message":"the oldest event kept is seq 27"}"#.utf8)
        let transport = ScriptedJetstreamTransport([
            .failure(XRPCWebSocketError(.handshakeFailed, status: 400, body: body, message: "400"))
        ])
        let client = JetstreamClient(service: service, transport: transport, reconnectPolicy: fast)
        let (seen, error) = await cursors(try client.subscribe(after: 3), limit: 1)
        XCTAssertEqual(seen, [])
        XCTAssertEqual(error?.code, .cursorTooOld)
        XCTAssertEqual(error?.message, "the oldest event kept is seq 27")
        XCTAssertEqual(error?.cursor, 3)
        XCTAssertEqual(transport.connectedURLs.count, 1)
    }
}
