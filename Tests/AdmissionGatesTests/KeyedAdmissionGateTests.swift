import AdmissionGates
import Foundation
import XCTest

/// The keyed gate under the URL loader's per-host limit and the preference edits' per-account lane:
/// places per key, first come first served, keys apart, and a wait that ends by cancellation or its
/// bound never takes a place.
final class KeyedAdmissionGateTests: XCTestCase {
    func testWaitersOfAKeyAreAdmittedInArrivalOrderAndOtherKeysDoNotWait() async throws {
        let gate = KeyedAdmissionGate(limit: 2)
        let first = await gate.enter("a")
        let second = await gate.enter("a")
        XCTAssertEqual([first, second], [.admitted, .admitted])
        let order = Recorder()
        var waiters: [Task<Void, Never>] = []
        for index in 0..<3 {
            waiters.append(
                Task {
                    if await gate.enter("a") == .admitted { order.append(index) }
                })
            // Each waiter queues before the next one starts.
            while gate.waiting(on: "a") < index + 1 { await Task.yield() }
        }
        let other = await gate.enter("b")
        XCTAssertEqual(other, .admitted, "another key has places of its own")
        gate.leave("b")
        XCTAssertEqual(order.values, [], "the limit holds while both places are taken")
        for expected in 0..<3 {
            gate.leave("a")
            while order.values.count < expected + 1 { await Task.yield() }
        }
        for waiter in waiters { await waiter.value }
        XCTAssertEqual(order.values, [0, 1, 2])
        gate.leave("a")
        gate.leave("a")
        XCTAssertEqual(gate.busyKeys, 0, "every place given back")
    }

    func testACancelledOrTimedOutWaitEndsWithoutAPlace() async throws {
        let gate = KeyedAdmissionGate(limit: 1)
        let held = await gate.enter("k")
        XCTAssertEqual(held, .admitted)
        let cancelled = Task { await gate.enter("k") }
        while gate.waiting(on: "k") == 0 { await Task.yield() }
        cancelled.cancel()
        let cancelledOutcome = await cancelled.value
        XCTAssertEqual(cancelledOutcome, .cancelled)
        let timedOut = await gate.enter("k", within: .milliseconds(20))
        XCTAssertEqual(timedOut, .timedOut)
        XCTAssertEqual(gate.waiting(on: "k"), 0, "an ended wait leaves the line")
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await gate.enter("free")
        }
        let earlyOutcome = await early.value
        XCTAssertEqual(earlyOutcome, .cancelled, "a task cancelled before it waits is not admitted")
        gate.leave("k")
        let next = await gate.enter("k", within: .seconds(5))
        XCTAssertEqual(next, .admitted, "the held place went to no ended waiter")
        gate.leave("k")
        XCTAssertEqual(gate.busyKeys, 0)
    }
}

// @unchecked Sendable: `stored` is read and written under `lock`.
/// Indices appended from several tasks.
private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}
