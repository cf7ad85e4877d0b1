import Foundation

// @unchecked Sendable: `current` is read and written under `lock`.
/// One run at a time per key, joined by every caller that asks for the same key while it runs: the
/// token renewal of both sessions (password and OAuth), keyed by the token generation it replaces.
///
/// The run is a task of its own, so a caller's cancellation never cancels a renewal once sent.
/// Package-visible.
package final class SingleFlight<Key: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (key: Key, task: Task<Void, any Error>)?

    /// No run.
    package init() {}

    /// Whether a run is in progress.
    package var isRunning: Bool { lock.withLock { current != nil } }

    /// The key of the run in progress, if any.
    package var runningKey: Key? { lock.withLock { current?.key } }

    /// Joins the run for `key` in progress, or starts `operation` as that run and waits for it; a run
    /// for another key is replaced. `started` is called, on the caller's actor, before the wait when
    /// this call starts the run (so a caller can count the runs it caused). Throws what the run threw.
    package func run(
        _ key: Key, isolation: isolated (any Actor)? = #isolation, started: () -> Void = {},
        _ operation: @escaping @Sendable () async throws -> Void
    ) async throws {
        let (task, starts): (Task<Void, any Error>, Bool) = lock.withLock {
            if let current, current.key == key { return (current.task, false) }
            let task = Task { try await operation() }
            current = (key, task)
            return (task, true)
        }
        guard starts else { return try await task.value }
        started()
        defer { lock.withLock { if current?.key == key { current = nil } } }
        try await task.value
    }
}
