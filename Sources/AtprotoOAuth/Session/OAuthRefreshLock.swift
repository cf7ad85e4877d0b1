import Foundation

/// Serialises refreshes of one account across everything that shares its stored archive: two
/// sessions in one process by default, an app and its extensions when the app implements it (a file
/// lock in a shared container, for example).
public protocol OAuthRefreshLock: Sendable {
    /// Runs `body` while holding the lock named `key` (the account's DID).
    func withLock<Result: Sendable>(_ key: String, _ body: @Sendable () async throws -> Result) async throws -> Result
}

/// The in-process default: one waiting line per key.
public actor OAuthInProcessRefreshLock: OAuthRefreshLock {
    /// The lock shared by every session of this process that is not given another.
    public static let shared = OAuthInProcessRefreshLock()

    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Creates a lock.
    public init() {}

    /// Whether no key is held and nobody waits (for tests: nothing may stay queued after the calls).
    var isIdle: Bool { held.isEmpty && waiting.isEmpty }

    /// Runs `body` once no other holder of `key` runs.
    public func withLock<Result: Sendable>(_ key: String, _ body: @Sendable () async throws -> Result) async throws
        -> Result
    {
        if held.contains(key) {
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        } else {
            held.insert(key)
        }
        defer { release(key) }
        return try await body()
    }

    private func release(_ key: String) {
        if var line = waiting[key], !line.isEmpty {
            let next = line.removeFirst()
            waiting[key] = line.isEmpty ? nil : line
            next.resume()  // ownership passes to the next waiter
        } else {
            held.remove(key)
        }
    }
}
