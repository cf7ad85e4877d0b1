import Foundation

// @unchecked Sendable: every mutable field is read and written under `condition` (an NSCondition, its lock).
/// The receiving side of a WebSocket connection, for ``XRPCWebSocketConnection`` implementations: whole
/// messages queued in order for one receiver at a time, then how the connection ended.
///
/// The transport's reading side calls ``deliver(_:)`` with each message and ``finish(_:)`` once;
/// the connection's ``XRPCWebSocketConnection/receive()`` is ``receive()``, and its `close` starts with
/// ``closeLocally()``. The POSIX transport and the SwiftNIO one both use it.
public final class XRPCWebSocketInbox: @unchecked Sendable {
    /// Guards every variable below; waited on by ``deliver(_:)`` while the queue is full.
    private let condition = NSCondition()
    private let capacity: Int?
    private var queue: [XRPCWebSocketMessage] = []
    private var queueHead = 0
    /// How the connection ended, once it has: a `nil` message for a normal close.
    private var ending: Result<XRPCWebSocketMessage?, XRPCWebSocketError>?
    private var waiter: CheckedContinuation<XRPCWebSocketMessage?, any Error>?
    private var closedHere = false

    /// Creates an empty inbox. With a `capacity`, ``deliver(_:)`` blocks its thread while that many
    /// messages wait, so a slow reader holds back the reading side instead of filling memory.
    public init(capacity: Int? = nil) {
        self.capacity = capacity.map { max(1, $0) }
    }

    /// Whether ``closeLocally()`` was called.
    public var isClosedLocally: Bool { condition.withLock { closedHere } }

    /// The next message, in order; `nil` after a normal close. Throws how the connection ended
    /// otherwise, `CancellationError` when the task is cancelled, and an error when another task is
    /// already receiving or the connection was closed on this side.
    public func receive() async throws -> XRPCWebSocketMessage? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                if closedHere {
                    condition.unlock()
                    continuation.resume(
                        throwing: XRPCWebSocketError(.closed, message: "the connection was closed on this side"))
                } else if queueHead < queue.count {
                    let message = queue[queueHead]
                    queueHead += 1
                    if queueHead == queue.count {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    condition.broadcast()
                    condition.unlock()
                    continuation.resume(returning: message)
                } else if let ending {
                    condition.unlock()
                    continuation.resume(with: ending.mapError { $0 as any Error })
                } else if Task.isCancelled {
                    condition.unlock()
                    continuation.resume(throwing: CancellationError())
                } else if waiter != nil {
                    condition.unlock()
                    continuation.resume(
                        throwing: XRPCWebSocketError(.other, message: "another task is already receiving"))
                } else {
                    waiter = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            condition.lock()
            let pending = waiter
            waiter = nil
            condition.unlock()
            pending?.resume(throwing: CancellationError())
        }
    }

    /// Hands a message to the waiting receiver or queues it, first waiting (with a capacity) while
    /// the queue is full. A message arriving after ``closeLocally()`` or ``finish(_:)`` is dropped.
    public func deliver(_ message: XRPCWebSocketMessage) {
        condition.lock()
        if let capacity {
            while queue.count - queueHead >= capacity, !closedHere {
                condition.wait()
            }
        }
        guard !closedHere, ending == nil else {
            condition.unlock()
            return
        }
        if let pending = waiter {
            waiter = nil
            condition.unlock()
            pending.resume(returning: message)
            return
        }
        queue.append(message)
        condition.unlock()
    }

    /// Records how the connection ended; receivers get it once the queue is drained. Only the first
    /// call counts.
    public func finish(_ outcome: Result<XRPCWebSocketMessage?, XRPCWebSocketError>) {
        condition.lock()
        guard ending == nil else {
            condition.unlock()
            return
        }
        ending = outcome
        let pending = queueHead < queue.count ? nil : waiter
        if pending != nil { waiter = nil }
        condition.unlock()
        pending?.resume(with: outcome.mapError { $0 as any Error })
    }

    /// Marks the connection closed on this side: a waiting and every later ``receive()`` fail,
    /// queued and later messages are dropped, and a ``deliver(_:)`` blocked on a full queue returns.
    /// Returns `true` the first time only, so the caller sends its close frame once.
    @discardableResult
    public func closeLocally() -> Bool {
        condition.lock()
        guard !closedHere else {
            condition.unlock()
            return false
        }
        closedHere = true
        let pending = waiter
        waiter = nil
        condition.broadcast()
        condition.unlock()
        pending?.resume(throwing: XRPCWebSocketError(.closed, message: "the connection was closed on this side"))
        return true
    }
}
