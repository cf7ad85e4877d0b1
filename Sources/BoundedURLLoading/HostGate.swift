import Foundation

// @unchecked Sendable: `running`, `waiting`, `states` and `nextID` are read and written under `lock`; `limit` is a `let`.
/// At most `limit` transfers at once to one host, the others waiting in line, first come first
/// served: what a shared `URLSession` does with its `httpMaximumConnectionsPerHost`, kept for
/// requests that each have a session of their own (``BoundedURLLoader/init(sessionPerRequest:resourceTimeout:redirect:)``),
/// so that a burst of them never opens more connections to a server than one session would.
final class HostGate: @unchecked Sendable {
    /// How a wait for a place ended.
    enum Admission: Sendable, Equatable {
        /// The caller has a place; it must ``leave(_:)`` once its transfer ended.
        case admitted
        /// The caller's task was cancelled while it waited.
        case cancelled
        /// No place came within the wait's bound.
        case timedOut
    }

    private enum State {
        /// Registered, not yet waiting.
        case pending
        /// Cancelled before it could wait.
        case cancelledEarly
        /// Waiting for a place at `host`.
        case waiting(host: String, continuation: CheckedContinuation<Admission, Never>)
    }

    private let limit: Int
    private let lock = NSLock()
    private var running: [String: Int] = [:]
    /// The ids waiting for each host, oldest first.
    private var waiting: [String: [Int]] = [:]
    /// Every wait not yet answered.
    private var states: [Int: State] = [:]
    private var nextID = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a place for `host`, waiting at most `bound` for one.
    func enter(_ host: String, within bound: Duration) async -> Admission {
        let id = lock.withLock {
            nextID += 1
            states[nextID] = .pending
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Admission? = lock.withLock {
                    if case .cancelledEarly? = states[id] {
                        states[id] = nil
                        return .cancelled
                    }
                    if running[host, default: 0] < limit {
                        states[id] = nil
                        running[host, default: 0] += 1
                        return .admitted
                    }
                    states[id] = .waiting(host: host, continuation: continuation)
                    waiting[host, default: []].append(id)
                    return nil
                }
                if let answer { return continuation.resume(returning: answer) }
                let nanoseconds =
                    bound.components.seconds * 1_000_000_000 + bound.components.attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, nanoseconds)))) {
                    [weak self] in self?.settle(id, .timedOut)
                }
            }
        } onCancel: {
            settle(id, .cancelled)
        }
    }

    /// Gives a place back: the oldest caller waiting for `host` takes it.
    func leave(_ host: String) {
        let next: CheckedContinuation<Admission, Never>? = lock.withLock {
            while let id = waiting[host]?.first {
                waiting[host]?.removeFirst()
                if case .waiting(_, let continuation)? = states.removeValue(forKey: id) { return continuation }
            }
            waiting[host] = nil
            running[host] = max(0, running[host, default: 1] - 1)
            if running[host] == 0 { running[host] = nil }
            return nil
        }
        next?.resume(returning: .admitted)
    }

    /// Ends a wait with `outcome` if it is still waiting (or marks it cancelled before it waits).
    private func settle(_ id: Int, _ outcome: Admission) {
        let continuation: CheckedContinuation<Admission, Never>? = lock.withLock {
            switch states[id] {
            case .pending?:
                if outcome == .cancelled { states[id] = .cancelledEarly }
                return nil
            case .waiting(let host, let continuation)?:
                states[id] = nil
                waiting[host]?.removeAll { $0 == id }
                if waiting[host]?.isEmpty == true { waiting[host] = nil }
                return continuation
            case .cancelledEarly?, nil:
                return nil
            }
        }
        continuation?.resume(returning: outcome)
    }
}
