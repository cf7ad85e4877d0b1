import Foundation

// @unchecked Sendable: `running`, `waiting`, `states` and `nextID` are read and written under `lock`; `limit` is a `let`.
/// At most `limit` holders at once per key, the others waiting in line for that key, first come
/// first served; a wait ends when a place comes, when its task is cancelled, or after its bound.
///
/// Package-visible: `BoundedURLLoader` keeps its per-host connection limit with it (keyed by host),
/// BlueskyPreferences serializes each account's preference edits with it (keyed by account, limit 1).
package final class KeyedAdmissionGate: @unchecked Sendable {
    /// How a wait for a place ended.
    package enum Admission: Sendable, Equatable {
        /// The caller has a place; it must ``leave(_:)`` once it is done.
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
        /// Waiting for a place at `key`.
        case waiting(key: String, continuation: CheckedContinuation<Admission, Never>)
    }

    private let limit: Int
    private let lock = NSLock()
    /// The places taken, per key with at least one.
    private var running: [String: Int] = [:]
    /// The ids waiting for each key, oldest first.
    private var waiting: [String: [Int]] = [:]
    /// Every wait not yet answered.
    private var states: [Int: State] = [:]
    private var nextID = 0

    /// A gate of `limit` places per key (at least one).
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many keys have a place taken (tests check that none is left behind).
    package var busyKeys: Int { lock.withLock { running.count } }

    /// How many callers wait for a place at `key`.
    package func waiting(on key: String) -> Int { lock.withLock { waiting[key]?.count ?? 0 } }

    /// Takes a place for `key`, waiting at most `bound` for one (`nil`: as long as it takes).
    package func enter(_ key: String, within bound: Duration? = nil) async -> Admission {
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
                    if running[key, default: 0] < limit {
                        states[id] = nil
                        running[key, default: 0] += 1
                        return .admitted
                    }
                    states[id] = .waiting(key: key, continuation: continuation)
                    waiting[key, default: []].append(id)
                    return nil
                }
                if let answer { return continuation.resume(returning: answer) }
                guard let bound else { return }
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

    /// Gives a place back: the oldest caller waiting for `key` takes it.
    package func leave(_ key: String) {
        let next: CheckedContinuation<Admission, Never>? = lock.withLock {
            while let id = waiting[key]?.first {
                waiting[key]?.removeFirst()
                if case .waiting(_, let continuation)? = states.removeValue(forKey: id) { return continuation }
            }
            waiting[key] = nil
            running[key] = max(0, running[key, default: 1] - 1)
            if running[key] == 0 { running[key] = nil }
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
            case .waiting(let key, let continuation)?:
                states[id] = nil
                waiting[key]?.removeAll { $0 == id }
                if waiting[key]?.isEmpty == true { waiting[key] = nil }
                return continuation
            case .cancelledEarly?, nil:
                return nil
            }
        }
        continuation?.resume(returning: outcome)
    }
}
