import Foundation

/// Runs many async calls at once and waits for all of them, but no longer than a deadline: how load
/// tests tell a hang (calls still pending at the deadline) from calls that ended.
public enum ConcurrentCalls {
    /// How a run ended.
    public struct Report: Sendable, CustomStringConvertible {
        /// How many calls were started.
        public var count: Int
        /// How many calls ended with each outcome (the labels the calls returned).
        public var outcomes: [String: Int]
        /// How many calls had not ended at the deadline (they were cancelled then).
        public var pending: Int
        /// The time from the first start to the last end, or to the deadline.
        public var seconds: Double

        /// The calls, the outcomes sorted by name, the pending calls and the time.
        public var description: String {
            let lines = outcomes.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
            return "\(count) calls in \(String(format: "%.2f", seconds)) s, \(pending) pending\n"
                + lines.joined(separator: "\n")
        }
    }

    // @unchecked Sendable: every `var` is read and written under `lock` (callers take it with `lock.withLock`).
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var outcomes: [String: Int] = [:]
        var ended = 0
        var waiter: CheckedContinuation<Void, Never>?
        var released = false

        /// Resumes the waiter once, whoever comes first: the last call or the deadline.
        func release() {
            let waiter: CheckedContinuation<Void, Never>? = lock.withLock {
                guard !released else { return nil }
                released = true
                return self.waiter
            }
            waiter?.resume()
        }
    }

    /// Starts `count` calls of `call` (with indices `0..<count`), each returning a label for its
    /// outcome, and waits until all ended or `deadline` passed; calls still running then are cancelled
    /// and counted as pending.
    public static func run(
        count: Int, deadline: Duration, _ call: @escaping @Sendable (Int) async -> String
    ) async -> Report {
        let state = State()
        let start = ContinuousClock.now
        var tasks: [Task<Void, Never>] = []
        if count == 0 { state.release() }
        for index in 0..<count {
            tasks.append(
                Task {
                    let label = await call(index)
                    let last = state.lock.withLock {
                        state.outcomes[label, default: 0] += 1
                        state.ended += 1
                        return state.ended == count
                    }
                    if last { state.release() }
                })
        }
        let timer = Task {
            try? await Task.sleep(for: deadline)
            state.release()
        }
        await withCheckedContinuation { continuation in
            let releasedAlready = state.lock.withLock {
                state.waiter = continuation
                return state.released
            }
            if releasedAlready { continuation.resume() }
        }
        timer.cancel()
        let elapsed = ContinuousClock.now - start
        let (outcomes, ended) = state.lock.withLock { (state.outcomes, state.ended) }
        if ended < count { tasks.forEach { $0.cancel() } }
        return Report(
            count: count, outcomes: outcomes, pending: count - ended,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
