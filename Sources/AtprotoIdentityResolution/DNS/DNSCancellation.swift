import Foundation

// @unchecked Sendable: `cancelled` is read and written under `lock`.
/// Tells the blocking socket work of a lookup, on its own thread, that the task was cancelled.
///
/// The task's cancellation handler sets it; the socket waits look at it between short polls.
final class DNSCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// A flag not yet set.
    init() {}

    /// Sets the flag.
    func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}
