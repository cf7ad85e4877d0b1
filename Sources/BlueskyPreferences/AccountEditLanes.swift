import AdmissionGates
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
final class AccountEditLanes: Sendable {
    /// The lanes of the process.
    static let shared = AccountEditLanes()

    /// One place per account key: an edit holds it from its read to its write.
    private let gate = KeyedAdmissionGate(limit: 1)

    /// How many lanes have an edit running (tests check none is left behind).
    var busyLanes: Int { gate.busyKeys }

    /// How many edits wait on `key`'s lane.
    func waiting(on key: String) -> Int { gate.waiting(on: key) }

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
        guard await gate.enter(key) == .admitted else { throw CancellationError() }
    }

    /// Frees `key`'s lane for its next waiting edit.
    func leave(_ key: String) {
        gate.leave(key)
    }
}
