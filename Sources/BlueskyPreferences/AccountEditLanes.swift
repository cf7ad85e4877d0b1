import Foundation
import XRPCRuntime

/// One lane per account for read-modify-write edits of its preferences: an edit waits until the
/// account's previous edit has written, so overlapping edits never overwrite each other's changes
/// (`app.bsky.actor.putPreferences` replaces the whole list and has no compare-and-swap).
///
/// The lane is chosen by the account the client's agent acts as (a `PasswordSession` or an
/// `OAuthSession`, or this package's wrappers of one), so two clients over one session, and two
/// sessions of one account in the process, share it. An agent that cannot name its account is keyed
/// by its own identity when it is a class or an actor, and otherwise shares one lane with every other
/// such agent: slower, never lossy.
// @unchecked Sendable: `lanes` and `nextWaiter` are read and written only under `lock`.
final class AccountEditLanes: @unchecked Sendable {
    /// The lanes of the process.
    static let shared = AccountEditLanes()

    private struct Lane {
        /// Waiting edits in arrival order, each resumed when it may run (`true`) or cancelled (`false`).
        var waiters: [(id: Int, resume: CheckedContinuation<Bool, Never>)] = []
    }

    private let lock = NSLock()
    /// The lanes with an edit running; a lane is removed when its last edit ends.
    private var lanes: [String: Lane] = [:]
    private var nextWaiter = 0

    /// How many lanes have an edit running (tests check none is left behind).
    var busyLanes: Int { lock.withLock { lanes.count } }

    /// How many edits wait on `key`'s lane.
    func waiting(on key: String) -> Int { lock.withLock { lanes[key]?.waiters.count ?? 0 } }

    /// The lane key of `agent`'s account.
    static func key(of agent: any XRPCAgent) async -> String {
        if let account = agent as? any XRPCAccountAgent, let did = await account.accountDID() {
            return "account " + did.rawValue
        }
        if type(of: agent) is AnyClass {
            return "agent \(ObjectIdentifier(agent as AnyObject))"
        }
        return "unnamed accounts"
    }

    /// Waits until `key`'s lane is free and takes it; throws `CancellationError` when the task is
    /// cancelled while it waits (the lane is then not taken). Each `enter` is followed by one ``leave(_:)``.
    func enter(_ key: String) async throws {
        let id = lock.withLock {
            nextWaiter += 1
            return nextWaiter
        }
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let runNow: Bool? = lock.withLock {
                    if Task.isCancelled { return nil }
                    guard var lane = lanes[key] else {
                        lanes[key] = Lane()
                        return true
                    }
                    lane.waiters.append((id, continuation))
                    lanes[key] = lane
                    return false
                }
                switch runNow {
                case true?: continuation.resume(returning: true)
                case nil: continuation.resume(returning: false)
                case false?: break
                }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<Bool, Never>? = lock.withLock {
                guard var lane = lanes[key], let index = lane.waiters.firstIndex(where: { $0.id == id }) else {
                    return nil
                }
                let waiter = lane.waiters.remove(at: index)
                lanes[key] = lane
                return waiter.resume
            }
            cancelled?.resume(returning: false)
        }
        guard admitted else { throw CancellationError() }
    }

    /// Frees `key`'s lane for its next waiting edit.
    func leave(_ key: String) {
        let next: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard var lane = lanes[key], !lane.waiters.isEmpty else {
                lanes[key] = nil
                return nil
            }
            let waiter = lane.waiters.removeFirst()
            lanes[key] = lane
            return waiter.resume
        }
        next?.resume(returning: true)
    }
}
