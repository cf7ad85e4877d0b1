import Foundation
import XCTest

@testable import XRPCCore
@testable import XRPCWebSockets

/// `URLSessionWebSocketTask` against the test server; skipped where the platform cannot do
/// WebSockets through URLSession (Linux with a libcurl built without them).
final class URLSessionWebSocketTests: XCTestCase {
    func testReceivesMessagesAndTheNormalCloseOrSkipsWhereUnsupported() async throws {
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            peer.sendBinary([1, 2, 3])
            peer.sendFrame(0x1, Array("text".utf8))
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        let transport = URLSessionWebSocketTransport(connectTimeout: .seconds(20))
        let connection: any XRPCWebSocketConnection
        do {
            connection = try await transport.connect(to: server.url, headers: [:])
        } catch let error as XRPCWebSocketError where error.code == .cannotConnect {
            throw XCTSkip("URLSessionWebSocketTask cannot connect on this platform: \(error.message)")
        }
        let first = try await connection.receive()
        XCTAssertEqual(first, .binary(Data([1, 2, 3])))
        let second = try await connection.receive()
        XCTAssertEqual(second, .text("text"))
        let end = try await connection.receive()
        XCTAssertNil(end)
    }

    /// The connect timeout ends with the opening: a timer left running (as when it was stored after a
    /// task that opened at once) would cancel the open connection when the timeout passes.
    func testAnOpenConnectionOutlivesTheConnectTimeoutOrSkipsWhereUnsupported() async throws {
        let server = try TestWebSocketServer { peer in
            peer.acceptUpgrade()
            Thread.sleep(forTimeInterval: 1.5)
            peer.sendBinary([4, 5, 6])
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
        let transport = URLSessionWebSocketTransport(connectTimeout: .seconds(1))
        let connection: any XRPCWebSocketConnection
        do {
            connection = try await transport.connect(to: server.url, headers: [:])
        } catch let error as XRPCWebSocketError where error.code == .cannotConnect {
            throw XCTSkip("URLSessionWebSocketTask cannot connect on this platform: \(error.message)")
        }
        let message = try await connection.receive()
        XCTAssertEqual(message, .binary(Data([4, 5, 6])), "the message sent after the connect timeout arrives")
    }

    func testARefusedUpgradeIsAnErrorNotAHang() async throws {
        let server = try TestWebSocketServer { peer in
            peer.refuseUpgrade(status: 400, json: #"{"error":"InvalidRequest"}"#)
        }
        do {
            _ = try await URLSessionWebSocketTransport(connectTimeout: .seconds(20)).connect(
                to: server.url, headers: [:])
            XCTFail("a refused upgrade must throw")
        } catch let error as XRPCWebSocketError {
            XCTAssertTrue([.handshakeFailed, .cannotConnect].contains(error.code), "\(error)")
        }
    }
}
