import Foundation
import XCTest

@testable import XRPCCore
@testable import XRPCWebSockets

final class WebSocketInboxTests: XCTestCase {
    func testMessagesComeOutInOrderThenTheEnding() async throws {
        let inbox = XRPCWebSocketInbox()
        inbox.deliver(.text("a"))
        inbox.deliver(.binary(Data([1])))
        inbox.finish(.success(nil))
        inbox.finish(.failure(XRPCWebSocketError(.connectionLost, message: "ignored: only the first ending counts")))
        inbox.deliver(.text("after the end is dropped"))
        let first = try await inbox.receive()
        let second = try await inbox.receive()
        let third = try await inbox.receive()
        XCTAssertEqual(first, .text("a"))
        XCTAssertEqual(second, .binary(Data([1])))
        XCTAssertNil(third)
    }

    func testAWaitingReceiverGetsTheNextMessageAndASecondOneIsRefused() async throws {
        let inbox = XRPCWebSocketInbox()
        let waiting = Task { try await inbox.receive() }
        try await Task.sleep(for: .milliseconds(50))
        do {
            _ = try await inbox.receive()
            XCTFail("a second receiver must be refused")
        } catch let error as XRPCWebSocketError {
            XCTAssertEqual(error.code, .other)
        }
        inbox.deliver(.text("x"))
        let received = try await waiting.value
        XCTAssertEqual(received, .text("x"))
    }

    func testClosingLocallyFailsTheReceiverOnceAndReleasesAFullQueue() async throws {
        let inbox = XRPCWebSocketInbox(capacity: 1)
        inbox.deliver(.text("fills the queue"))
        let returned = LockedFlag()
        let released = expectation(description: "the blocked delivery returns")
        Thread {
            inbox.deliver(.text("waits for room"))
            returned.set()
            released.fulfill()
        }.start()
        try await Task.sleep(for: .milliseconds(50))
        XCTAssertFalse(returned.value, "a full queue holds the reading side back")
        XCTAssertTrue(inbox.closeLocally())
        XCTAssertFalse(inbox.closeLocally(), "only the first close sends a close frame")
        XCTAssertTrue(inbox.isClosedLocally)
        await fulfillment(of: [released], timeout: 5)
        do {
            _ = try await inbox.receive()
            XCTFail("receiving after a local close must fail")
        } catch let error as XRPCWebSocketError {
            XCTAssertEqual(error.code, .closed)
        }
    }

    func testCancellingAWaitingReceiverThrowsCancellation() async throws {
        let inbox = XRPCWebSocketInbox()
        let waiting = Task { try await inbox.receive() }
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("a cancelled receive must throw")
        } catch is CancellationError {}
    }
}

// @unchecked Sendable: `isSet` is read and written under `lock`.
/// A flag set on one thread and read on another.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false

    var value: Bool { lock.withLock { isSet } }

    func set() { lock.withLock { isSet = true } }
}
