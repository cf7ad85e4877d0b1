import Foundation
import XCTest

@testable import AtprotoData
@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// SHA-1, the handshake, and the frame codec, without sockets.
final class WebSocketFrameTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testSHA1MatchesTheFIPSVectors() {
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.hash([UInt8]())), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(
            hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(
            hex(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // 55, 56 and 64 bytes: the padding needs one block, two blocks, and a block of its own.
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 55))), "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 56))), "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 64))), "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    func testAcceptValueMatchesRFC6455Example() {
        XCTAssertEqual(
            WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func testUpgradeRequestNamesHostPathQueryAndKeepsHandshakeFieldsOurs() throws {
        let target = try XRPCWebSocketTarget(XCTUnwrap(URL(string: "ws://example.com:8080/xrpc/a.b.c?cursor=5")))
        let request = String(
            decoding: WebSocketHandshake.request(
                for: target, key: "k", headers: ["X-Test": "1", "Upgrade": "h2c", "Bad": "a\r\nInjected: 1"]),
            as: UTF8.self)
        XCTAssertTrue(request.hasPrefix("GET /xrpc/a.b.c?cursor=5 HTTP/1.1\r\nHost: example.com:8080\r\n"))
        XCTAssertTrue(request.contains("Sec-WebSocket-Key: k\r\nSec-WebSocket-Version: 13\r\n"))
        XCTAssertTrue(request.contains("X-Test: 1\r\n"))
        XCTAssertFalse(request.contains("h2c"), "a caller's header must not replace a handshake field")
        XCTAssertFalse(request.contains("Injected"), "header values with line breaks are dropped")
        XCTAssertTrue(request.hasSuffix("\r\n\r\n"))
        let plain = try XRPCWebSocketTarget(XCTUnwrap(URL(string: "wss://[::1]")))
        XCTAssertEqual(plain.hostHeader, "[::1]")
        XCTAssertEqual(plain.requestTarget, "/")
        XCTAssertThrowsError(try XRPCWebSocketTarget(XCTUnwrap(URL(string: "ftp://example.com"))))
    }

    func testHandshakeResponseChecks() throws {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        func response(_ text: String) throws -> WebSocketHandshake.Response {
            try XCTUnwrap(WebSocketHandshake.parseResponse(Array(text.utf8)))
        }
        let text =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\nConnection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\nrest"
        let good = try response(text)
        XCTAssertNoThrow(try WebSocketHandshake.validate(good, key: key, body: Data()))
        XCTAssertEqual(good.headerLength, text.utf8.count - 4, "the bytes after the head belong to the frames")
        XCTAssertNil(try WebSocketHandshake.parseResponse(Array("HTTP/1.1 101 OK\r\nUpgrade: web".utf8)))
        let wrongAccept = try response(
            "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: nope\r\n\r\n")
        XCTAssertThrowsError(try WebSocketHandshake.validate(wrongAccept, key: key, body: Data())) { error in
            XCTAssertEqual((error as? XRPCWebSocketError)?.code, .handshakeFailed)
            XCTAssertTrue("\(error)".contains("Sec-WebSocket-Accept is \"nope\""), "\(error)")
        }
        let refused = try response("HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n")
        XCTAssertThrowsError(try WebSocketHandshake.validate(refused, key: key, body: Data("{}".utf8))) { error in
            XCTAssertEqual((error as? XRPCWebSocketError)?.status, 400)
            XCTAssertEqual((error as? XRPCWebSocketError)?.body, Data("{}".utf8))
        }
        XCTAssertThrowsError(try WebSocketHandshake.parseResponse(Array("garbage\r\n\r\n".utf8)))
    }

    func testParsesRFC6455ExamplesByteByByte() throws {
        // RFC 6455 section 5.7: "Hello" unmasked, fragmented "Hel" + "lo", an unmasked ping.
        let bytes: [UInt8] =
            [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f] + [0x01, 0x03, 0x48, 0x65, 0x6c]
            + [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f] + [0x80, 0x02, 0x6c, 0x6f]
        var parser = WebSocketFrameParser(maximumFrameSize: 1 << 20)
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 1 << 20)
        var messages: [XRPCWebSocketMessage] = []
        var controls: [WebSocketFrame] = []
        for byte in bytes {
            parser.append([byte])
            while let frame = try parser.next() {
                if frame.opcode.isControl {
                    controls.append(frame)
                } else if let message = try assembler.add(frame) {
                    messages.append(message)
                }
            }
        }
        XCTAssertEqual(messages, [.text("Hello"), .text("Hello")])
        XCTAssertEqual(controls, [WebSocketFrame(fin: true, opcode: .ping, payload: Array("Hello".utf8))])
    }

    func testEncodesMaskedFrameAsRFCExampleAndEveryLengthForm() throws {
        let masked = WebSocketFrame(fin: true, opcode: .text, payload: Array("Hello".utf8))
            .encoded(maskKey: [0x37, 0xfa, 0x21, 0x3d])
        XCTAssertEqual(masked, [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        for size in [0, 125, 126, 65535, 65536, 70000] {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
            var parser = WebSocketFrameParser(maximumFrameSize: 1 << 20)
            parser.append(WebSocketFrame(fin: true, opcode: .binary, payload: payload).encoded(maskKey: nil))
            XCTAssertEqual(try parser.next()?.payload, payload, "payload of \(size) bytes")
            XCTAssertNil(try parser.next())
        }
    }

    func testRejectsWhatAServerMustNotSend() {
        let cases: [(String, [UInt8], XRPCWebSocketError.Code)] = [
            ("masked frame", [0x82, 0x81, 1, 2, 3, 4, 5], .protocolViolation),
            ("reserved bit", [0xC2, 0x00], .protocolViolation),
            ("reserved opcode", [0x83, 0x00], .protocolViolation),
            ("fragmented ping", [0x09, 0x00], .protocolViolation),
            ("long ping", [0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), .protocolViolation),
            ("64-bit length with top bit", [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1], .protocolViolation),
            ("frame over the limit", [0x82, 0x7E, 0x04, 0x00], .messageTooBig),
        ]
        for (name, bytes, kind) in cases {
            var parser = WebSocketFrameParser(maximumFrameSize: 1000)
            parser.append(bytes)
            XCTAssertThrowsError(try parser.next(), name) { error in
                XCTAssertEqual((error as? XRPCWebSocketError)?.code, kind, name)
            }
        }
    }

    func testAssemblerRejectsBrokenFragmentationOversizeAndInvalidText() {
        func frame(_ opcode: WebSocketFrame.Opcode, _ fin: Bool, _ count: Int = 3) -> WebSocketFrame {
            WebSocketFrame(fin: fin, opcode: opcode, payload: [UInt8](repeating: 0x41, count: count))
        }
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        XCTAssertThrowsError(try assembler.add(frame(.continuation, true))) {
            XCTAssertEqual(($0 as? XRPCWebSocketError)?.code, .protocolViolation)
        }
        assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        XCTAssertNil(try assembler.add(frame(.binary, false)))
        XCTAssertThrowsError(try assembler.add(frame(.text, true))) {
            XCTAssertEqual(($0 as? XRPCWebSocketError)?.code, .protocolViolation)
        }
        assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        XCTAssertNil(try assembler.add(frame(.binary, false, 6)))
        XCTAssertThrowsError(try assembler.add(frame(.continuation, true, 6))) {
            XCTAssertEqual(($0 as? XRPCWebSocketError)?.code, .messageTooBig)
        }
        assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        XCTAssertThrowsError(try assembler.add(WebSocketFrame(fin: true, opcode: .text, payload: [0xC3, 0x28]))) {
            XCTAssertEqual(($0 as? XRPCWebSocketError)?.code, .invalidUTF8)
        }
    }

    func testClosePayloadCutsTheReasonOnACharacterBoundary() {
        let payload = WebSocketFrame.closePayload(code: .goingAway, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(Array(payload.prefix(2)), [0x03, 0xE9])
        XCTAssertLessThanOrEqual(payload.count, 125)
        XCTAssertNotNil(String(bytes: payload.dropFirst(2), encoding: .utf8))
        XCTAssertEqual((payload.count - 2) % 2, 0)
    }
}
