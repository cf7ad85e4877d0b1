import Foundation
import XCTest

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// The POSIX WebSocket client against ``TestWebSocketServer`` over loopback sockets.
final class POSIXWebSocketTests: XCTestCase {
    private let transport = POSIXWebSocketTransport(maximumFrameSize: 100_000, maximumMessageSize: 200_000)

    private func connect(
        _ server: TestWebSocketServer, path: String = "/", headers: HTTPHeaderFields = [:]
    ) async throws -> any XRPCWebSocketConnection {
        try await transport.connect(to: XCTUnwrap(URL(string: path, relativeTo: server.url)), headers: headers)
    }

    private func kind(of error: any Error) -> XRPCWebSocketError.Code? { (error as? XRPCWebSocketError)?.code }

    func testReceivesMessagesOfEveryLengthFormAndSendsPathQueryAndHeaders() async throws {
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            peer.sendBinary([1, 2, 3])
            peer.sendBinary([UInt8](repeating: 7, count: 300))
            peer.sendBinary([UInt8](repeating: 9, count: 70_000))
            peer.sendFrame(0x1, Array("héllo".utf8))
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        let connection = try await connect(server, path: "/xrpc/a.b.c?cursor=5", headers: ["X-Test": "yes"])
        var received: [XRPCWebSocketMessage] = []
        while let message = try await connection.receive() { received.append(message) }
        XCTAssertEqual(
            received,
            [
                .binary(Data([1, 2, 3])), .binary(Data(repeating: 7, count: 300)),
                .binary(Data(repeating: 9, count: 70_000)), .text("héllo"),
            ])
        XCTAssertEqual(server.requestTargets, ["/xrpc/a.b.c?cursor=5"])
        let again = try await connection.receive()
        XCTAssertNil(again, "after a normal close, receive keeps returning nil")
    }

    func testUpgradeHeadersGoOutInTheirOrderWithRepeatsAndNoHandshakeOverrides() async throws {
        let seen = LockedLines()
        let server = try TestWebSocketServer { peer in
            seen.set(peer.headerLines)
            peer.acceptUpgrade()
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        var headers: HTTPHeaderFields = ["X-Trace": "first", "Authorization": "Bearer t"]
        headers.append("x-trace", "second")
        headers.append("Sec-WebSocket-Key", "not-mine")
        headers.append("X-Injected", "a\r\nX-Evil: 1")
        let connection = try await connect(server, headers: headers)
        while try await connection.receive() != nil {}
        let sent = seen.lines.filter { !$0.lowercased().hasPrefix("sec-websocket-key: ") || $0.hasSuffix("not-mine") }
        let names = ["x-trace", "authorization", "x-injected", "x-evil"]
        let own = sent.filter { line in names.contains { line.lowercased().hasPrefix($0) } }
        XCTAssertEqual(own, ["X-Trace: first", "Authorization: Bearer t", "x-trace: second"])
        XCTAssertFalse(sent.contains { $0.hasSuffix("not-mine") }, "a handshake field is never replaced")
    }

    func testJoinsFragmentsAroundAPingAndAnswersThePingWithAMaskedPong() async throws {
        let pong = ScriptOutcome<[UInt8]>()
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            peer.sendFrame(0x2, [1, 2], fin: false)
            peer.sendFrame(0x9, Array("are you there".utf8))
            peer.sendFrame(0x0, [3], fin: false)
            peer.sendFrame(0x0, [4, 5], fin: true)
            let frame = try peer.readFrame()  // readFrame fails on an unmasked frame
            if frame.opcode == 0xA { pong.set(frame.payload) }
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        let connection = try await connect(server)
        let message = try await connection.receive()
        XCTAssertEqual(message, .binary(Data([1, 2, 3, 4, 5])))
        let pongPayload = await pong.value()
        XCTAssertEqual(pongPayload, Array("are you there".utf8))
        let end = try await connection.receive()
        XCTAssertNil(end)
    }

    func testSendsMaskedMessagesAndClosesWithTheCodeGiven() async throws {
        let got = ScriptOutcome<[String]>()
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            let first = try peer.readFrame()
            let second = try peer.readFrame()
            let code = try peer.readClose()
            got.set([
                "\(first.opcode) \(first.payload)",
                "\(second.opcode) \(String(decoding: second.payload, as: UTF8.self))", "\(code ?? 0)",
            ])
            peer.sendClose(1000)
        }
        let connection = try await connect(server)
        try await connection.send(.binary(Data([9, 8, 7])))
        try await connection.send(.text("hi"))
        connection.close(code: .goingAway, reason: "bye")
        let frames = await got.value()
        XCTAssertEqual(frames, ["2 [9, 8, 7]", "1 hi", "1001"])
        do {
            _ = try await connection.receive()
            XCTFail("receive after close must throw")
        } catch {
            XCTAssertEqual(kind(of: error), .closed)
        }
    }

    func testServerCloseWithAnErrorCodeThrowsItAndIsEchoed() async throws {
        let echoed = ScriptOutcome<UInt16>()
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            peer.sendClose(1011, reason: "overloaded")
            echoed.set(try peer.readClose() ?? 0)
        }
        let connection = try await connect(server)
        do {
            _ = try await connection.receive()
            XCTFail("expected closedByPeer")
        } catch let error as XRPCWebSocketError {
            XCTAssertEqual(error.code, .closedByPeer)
            XCTAssertEqual(error.closeCode, .internalError)
            XCTAssertTrue(error.message.contains("overloaded"), error.message)
        }
        let code = await echoed.value()
        XCTAssertEqual(code, 1011)
    }

    func testGarbageFromTheServerFailsTheConnectionWithCloseCode1002() async throws {
        for garbage: [UInt8] in [
            [0x82, 0x81, 0, 0, 0, 0, 0x41], [0xF2, 0x00], [0x83, 0x00], Array("HTTP/1.1 200".utf8),
        ] {
            let closeCode = ScriptOutcome<UInt16>()
            let server = try TestWebSocketServer { peer in
                peer.acceptUpgrade()
                peer.sendRaw(garbage)
                closeCode.set(try peer.readClose() ?? 0)
            }
            let connection = try await connect(server)
            do {
                let message = try await connection.receive()
                XCTFail("garbage \(garbage) gave \(String(describing: message))")
            } catch {
                XCTAssertEqual(kind(of: error), .protocolViolation, "\(garbage): \(error)")
            }
            let code = await closeCode.value()
            XCTAssertEqual(code, 1002, "garbage \(garbage)")
        }
    }

    func testOversizeFrameAndInvalidTextCloseWith1009And1007() async throws {
        for (frame, expected, code) in [
            (
                WebSocketFrame(fin: true, opcode: .binary, payload: [UInt8](repeating: 0, count: 100_001)),
                XRPCWebSocketError.Code.messageTooBig, UInt16(1009)
            ),
            (WebSocketFrame(fin: true, opcode: .text, payload: [0xFF, 0xFE]), .invalidUTF8, 1007),
        ] {
            let closeCode = ScriptOutcome<UInt16>()
            let server = try TestWebSocketServer { peer in
                peer.acceptUpgrade()
                peer.sendRaw(frame.encoded(maskKey: nil))
                closeCode.set(try peer.readClose() ?? 0)
            }
            let connection = try await connect(server)
            do {
                _ = try await connection.receive()
                XCTFail("expected \(expected)")
            } catch {
                XCTAssertEqual(kind(of: error), expected)
            }
            let sent = await closeCode.value()
            XCTAssertEqual(sent, code)
        }
    }

    func testDroppedTCPConnectionIsConnectionLostAfterQueuedMessages() async throws {
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            peer.sendBinary([1])
            peer.dropConnection()
        }
        let connection = try await connect(server)
        let first = try await connection.receive()
        XCTAssertEqual(first, .binary(Data([1])))
        do {
            _ = try await connection.receive()
            XCTFail("expected connectionLost")
        } catch {
            XCTAssertEqual(kind(of: error), .connectionLost)
        }
    }

    func testRefusedUpgradeCarriesStatusAndBodyAndWrongAcceptFails() async throws {
        let refusing = try TestWebSocketServer { peer in
            peer.refuseUpgrade(status: 400, json: #"{"error":"InvalidRequest","message":"bad cursor"}"#)
        }
        do {
            _ = try await connect(refusing)
            XCTFail("expected handshakeFailed")
        } catch let error as XRPCWebSocketError {
            XCTAssertEqual(error.code, .handshakeFailed)
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(
                String(decoding: error.body, as: UTF8.self), #"{"error":"InvalidRequest","message":"bad cursor"}"#)
        }
        let lying = try TestWebSocketServer { peer in peer.acceptUpgrade(acceptValue: "d3Jvbmc=") }
        do {
            _ = try await connect(lying)
            XCTFail("expected handshakeFailed")
        } catch {
            XCTAssertEqual(kind(of: error), .handshakeFailed)
            XCTAssertTrue("\(error)".contains("Sec-WebSocket-Accept"), "\(error)")
        }
    }

    func testUnsupportedSchemeAndClosedPortFailClearly() async throws {
        do {
            _ = try await transport.connect(to: XCTUnwrap(URL(string: "wss://127.0.0.1:1/")), headers: [:])
            XCTFail("wss must be refused")
        } catch {
            XCTAssertEqual(kind(of: error), .unsupportedURL)
            XCTAssertTrue("\(error)".contains("TLS"), "\(error)")
        }
        let server = try TestWebSocketServer { _ in }
        let port = server.port
        server.stop()
        do {
            _ = try await transport.connect(to: XCTUnwrap(URL(string: "ws://127.0.0.1:\(port)/")), headers: [:])
            XCTFail("a closed port must be refused")
        } catch {
            XCTAssertEqual(kind(of: error), .cannotConnect, "\(error)")
        }
    }

    func testCancellingAReceiveThrowsCancellationAndCloseReachesTheServer() async throws {
        let closed = ScriptOutcome<UInt16>()
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            closed.set(try peer.readClose() ?? 0)
        }
        let connection = try await connect(server)
        let receiving = Task { try await connection.receive() }
        try await Task.sleep(nanoseconds: 50_000_000)
        receiving.cancel()
        do {
            _ = try await receiving.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        connection.close(code: .normalClosure, reason: "")
        let code = await closed.value()
        XCTAssertEqual(code, 1000)
    }

    func testSmallQueueStillDeliversEveryMessageInOrder() async throws {
        let sent = ScriptOutcome<Int>()
        let small = POSIXWebSocketTransport(maximumQueuedMessages: 2)
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            for index in 0..<200 { peer.sendBinary([UInt8(index)] + [UInt8](repeating: 0, count: 60_000)) }
            sent.set(200)
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        let connection = try await small.connect(to: server.url, headers: [:])
        var count = 0
        while let message = try await connection.receive() {
            guard case .binary(let data) = message else { return XCTFail("expected binary") }
            XCTAssertEqual(data.first, UInt8(count))
            count += 1
        }
        XCTAssertEqual(count, 200, "every message arrives in order although the queue holds two")
        let done = await sent.value()
        XCTAssertEqual(done, 200)
    }
}

// @unchecked Sendable: `stored` is read and written under `lock`.
/// Header lines a server script saw, read by the test after the connection.
private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func set(_ lines: [String]) { lock.withLock { stored = lines } }
    var lines: [String] { lock.withLock { stored } }
}
