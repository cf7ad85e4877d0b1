import AtprotoTap
import Foundation
import XCTest

/// Acks reach Tap as its ack message; an event left unacknowledged comes again after a reconnection;
/// an ack made with no connection open waits for the next one.
final class TapAckTests: XCTestCase {
    func testAcksReachTapAndAnUnackedEventIsRedeliveredAfterReconnecting() async throws {
        let tap = try TapStandIn()
        for id in 1...2 { tap.publish(id: id, frame: TapFrames.record(id: id, rkey: "3kb3fge5lm3\(id)")) }
        let client = try TapClient.of(tap)
        var iterator = client.events().makeAsyncIterator()

        let (first, error) = await read(2, from: &iterator)
        XCTAssertNil(error)
        XCTAssertEqual(first.map(\.id), [1, 2])
        await client.ack(first[0])  // 2 is handled but never acknowledged: a crash, say
        let acked = await tap.wait { $0.acks == [1] }
        XCTAssertTrue(acked, "Tap saw acks \(tap.acks), not [1]")

        tap.dropConnections()
        tap.publish(id: 3, frame: TapFrames.identity(id: 3))  // while no connection is open
        let (again, failure) = await read(2, from: &iterator)
        XCTAssertNil(failure)
        XCTAssertEqual(again.map(\.id), [2, 3], "after reconnecting, Tap sends the unacknowledged 2 again, then 3")
        XCTAssertEqual(tap.channelConnections, 2)
        for event in again { await client.ack(event) }
        let all = await tap.wait { Set($0.acks) == [1, 2, 3] }
        XCTAssertTrue(all, "Tap saw acks \(tap.acks)")
    }

    func testAnAckWithoutAConnectionIsSentWhenOneOpens() async throws {
        let tap = try TapStandIn()
        tap.publish(id: 8, frame: TapFrames.identity(id: 8))
        let client = try TapClient.of(tap)
        await client.ack(id: 7)  // nothing is connected yet
        XCTAssertEqual(tap.acks, [])

        var iterator = client.events().makeAsyncIterator()
        let (events, error) = await read(1, from: &iterator)
        XCTAssertNil(error)
        XCTAssertEqual(events.map(\.id), [8])
        let sent = await tap.wait { $0.acks == [7] }
        XCTAssertTrue(sent, "Tap saw acks \(tap.acks), not the kept [7]")
    }

    func testWithoutAReconnectPolicyTheStreamEndsWhenTapCloses() async throws {
        let tap = try TapStandIn()
        tap.publish(id: 1, frame: TapFrames.identity(id: 1))
        let client = try TapClient(
            service: tap.url, webSocketTransport: POSIXWebSocketTransport(), reconnectPolicy: nil)
        var iterator = client.events().makeAsyncIterator()
        let (events, _) = await read(1, from: &iterator)
        XCTAssertEqual(events.map(\.id), [1])
        tap.dropConnections()
        let (rest, error) = await read(5, from: &iterator)
        XCTAssertEqual(rest.count, 0)
        XCTAssertEqual(error?.code, .connectionFailed, "\(String(describing: error))")
        XCTAssertEqual(tap.channelConnections, 1)
    }

    func testNothingIsReadAheadOfTheApp() async throws {
        let tap = try TapStandIn()
        for id in 1...5 { tap.publish(id: id, frame: TapFrames.identity(id: id)) }
        let transport = CountingTransport()
        let client = try TapClient(service: tap.url, webSocketTransport: transport)
        var iterator = client.events().makeAsyncIterator()
        let (events, error) = await read(2, from: &iterator)
        XCTAssertNil(error)
        XCTAssertEqual(events.map(\.id), [1, 2])
        XCTAssertEqual(transport.receives, 2, "the stream took messages the app did not ask for")
    }
}

// @unchecked Sendable: `count` is read and written under `lock`.
/// The package's ws:// transport, counting the messages taken from its connections.
final class CountingTransport: XRPCWebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var receives: Int { lock.withLock { count } }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        Counted(inner: try await POSIXWebSocketTransport().connect(to: url, headers: headers), owner: self)
    }

    fileprivate func counted() { lock.withLock { count += 1 } }

    private final class Counted: XRPCWebSocketConnection {
        let inner: any XRPCWebSocketConnection
        let owner: CountingTransport

        init(inner: any XRPCWebSocketConnection, owner: CountingTransport) {
            self.inner = inner
            self.owner = owner
        }

        func receive() async throws -> XRPCWebSocketMessage? {
            let message = try await inner.receive()
            owner.counted()
            return message
        }

        func send(_ message: XRPCWebSocketMessage) async throws { try await inner.send(message) }
        func close(code: XRPCWebSocketCloseCode, reason: String) { inner.close(code: code, reason: reason) }
    }
}
