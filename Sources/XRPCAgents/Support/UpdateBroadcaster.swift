import Foundation

// @unchecked Sendable: `continuations` and `nextID` are read and written under `lock` (and in `deinit`).
/// Hands every update to every open stream, each buffering its 64 newest: the `updates()` of both
/// sessions (password and OAuth). Package-visible: apps see only the streams.
package final class UpdateBroadcaster<Update: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [Int: AsyncStream<Update>.Continuation] = [:]
    private var nextID = 0

    /// An empty broadcaster.
    package init() {}

    /// A new stream of every later update.
    package func stream() -> AsyncStream<Update> {
        let (stream, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .bufferingNewest(64))
        let id = lock.withLock {
            nextID += 1
            continuations[nextID] = continuation
            return nextID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { _ = self.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `update` to every open stream.
    package func yield(_ update: Update) {
        for continuation in lock.withLock({ Array(continuations.values) }) { continuation.yield(update) }
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }
}
