import AtprotoSyntax
import Foundation
import XRPCCore

/// What acknowledgements make durable, and how far they have got: each tracked repository's queue of
/// delivered changes, the firehose sequences those hold back, and the cursor. Kept behind a lock
/// rather than on the engine's actor, so that an acknowledgement is marked and saved from the app's
/// own task: the engine's actor, busy preparing the next events, is not on its path (measured: an
/// `ack()` per event that hopped to the actor cost a third more than acknowledging in batches).
///
/// A repository's save runs one at a time: an acknowledgement that comes while one runs waits for it,
/// and that save takes it in its next write. The cursor never passes a sequence whose changes are
/// not saved. The variables of each ``RepoAcknowledgements`` are read and written under `lock` too.
// @unchecked Sendable: every stored property but `store` and `lock` (constants) is used under `lock`.
final class AcknowledgementLedger: @unchecked Sendable {
    let store: any BackfillStateStore
    let lock = NSLock()
    private var queues: [DID: RepoAcknowledgements] = [:]
    /// How many queued changes hold each firehose sequence.
    private var pendingSequences: [Int: Int] = [:]
    private var lastSequence: Int?
    private var savedCursor: Int?

    init(store: any BackfillStateStore) { self.store = store }

    // MARK: The engine's side

    /// Starts from the saved cursor.
    func load(cursor: Int?) {
        lock.withLock {
            savedCursor = cursor
            lastSequence = cursor
        }
    }

    /// The last firehose sequence handled.
    var sequence: Int? { lock.withLock { lastSequence } }

    /// A firehose message `sequence` was handled.
    func handled(_ sequence: Int) {
        lock.withLock { lastSequence = max(lastSequence ?? sequence, sequence) }
    }

    /// Starts a queue for `did`, unless it has one.
    func track(_ did: DID) {
        lock.withLock {
            if queues[did] == nil { queues[did] = RepoAcknowledgements(did, ledger: self) }
        }
    }

    /// The queue of `did`, for its events; `nil` when `did` is not tracked.
    func acknowledgements(of did: DID) -> RepoAcknowledgements? { lock.withLock { queues[did] } }

    /// Drops `did`'s queue and releases the sequences its changes held; acknowledgements of its
    /// events delivered before then save nothing.
    func forget(_ did: DID) {
        lock.withLock {
            guard let repo = queues.removeValue(forKey: did) else { return }
            forgetUnlocked(repo)
        }
    }

    /// Drops every queue (the backfill is gone): the queues refer to this ledger.
    func forgetAll() {
        lock.withLock {
            for repo in queues.values { forgetUnlocked(repo) }
            queues = [:]
        }
    }

    private func forgetUnlocked(_ repo: RepoAcknowledgements) {
        repo.isForgotten = true
        for pending in repo.queue.waiting { release(pending.sequence) }
        repo.queue = PendingQueue()
    }

    /// Queues changes of `repo` (in id order, after those queued before), each holding its sequence;
    /// `false` when `repo` is no longer tracked (nothing queued).
    @discardableResult
    func append(_ pending: some Collection<BackfillThenLive.Pending>, to repo: RepoAcknowledgements?) -> Bool {
        guard let repo else { return false }
        return lock.withLock {
            guard !repo.isForgotten else { return false }
            for change in pending {
                if let sequence = change.sequence { pendingSequences[sequence, default: 0] += 1 }
            }
            repo.queue.append(contentsOf: pending)
            return true
        }
    }

    /// The CID the app will hold at `path` once it has handled what was delivered, when a delivered
    /// change not yet saved decides it: `.some(cid)` (`nil` for a delete), else `nil`.
    func deliveredCID(at path: String, of did: DID) -> CID?? {
        lock.withLock {
            for pending in (queues[did]?.queue.waiting ?? []).reversed() {
                if case .record(path, let cid) = pending.effect { return .some(cid) }
            }
            return nil
        }
    }

    /// The delivered changes not yet saved, in order (a path's last change last).
    func delivered(of did: DID) -> [(path: String, cid: CID?)] {
        lock.withLock {
            var changes: [(path: String, cid: CID?)] = []
            for pending in queues[did]?.queue.waiting ?? [] {
                if case .record(let path, let cid) = pending.effect { changes.append((path, cid)) }
            }
            return changes
        }
    }

    // MARK: Acknowledging

    /// Marks event `id` of `repo` acknowledged and saves what is then acknowledged in order.
    func acknowledge(_ id: UInt64, of repo: RepoAcknowledgements) async throws {
        guard lock.withLock({ !repo.isForgotten && repo.queue.acknowledge(id) }) else { return }
        try await settle(repo)
    }

    /// Marks each of `events` acknowledged (those of this ledger), then saves each repository touched.
    func acknowledge(_ events: [BackfillEvent]) async throws {
        let touched: [RepoAcknowledgements] = lock.withLock {
            var touched: [RepoAcknowledgements] = []
            var seen: Set<ObjectIdentifier> = []
            for event in events {
                guard let repo = event.acknowledgements, repo.ledger === self, !repo.isForgotten,
                    repo.queue.acknowledge(event.id)
                else { continue }
                if touched.last !== repo, seen.insert(ObjectIdentifier(repo)).inserted { touched.append(repo) }
            }
            return touched
        }
        for repo in touched { try await settle(repo) }
    }

    /// How many acknowledgements wait for a save in progress, by repository (tests).
    var waitingAcknowledgements: [DID: Int] { lock.withLock { queues.mapValues(\.waiters.count) } }

    /// Saves what is acknowledged at the head of `did`'s queue (the engine's state changes).
    func settle(_ did: DID) async throws {
        guard let repo = acknowledgements(of: did) else { return }
        try await settle(repo)
    }

    /// Saves the effects of the acknowledged changes at the head of `repo`'s queue, then the cursor;
    /// when a save of `repo` runs already, waits for it (it takes what this caller marked).
    func settle(_ repo: RepoAcknowledgements) async throws {
        let settles: Bool = lock.withLock {
            guard !repo.settling else { return false }
            repo.settling = true
            return true
        }
        guard settles else {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                // The save may have ended since: then with this caller's mark saved (it checks the
                // head in the same step as it ends).
                let waits = lock.withLock {
                    guard repo.settling else { return false }
                    repo.waiters.append(waiter)
                    return true
                }
                if !waits { waiter.resume() }
            }
            return
        }
        do {
            while true {
                try await saveRuns(repo)
                try await saveCursor()
                // Ends unless a change was acknowledged meanwhile, in the same step as the check.
                let finished: [CheckedContinuation<Void, any Error>]? = lock.withLock {
                    guard !repo.queue.isHeadAcknowledged else { return nil }
                    return repo.endSettling()
                }
                guard let finished else { continue }
                for waiter in finished { waiter.resume() }
                return
            }
        } catch {
            let failed = lock.withLock { repo.endSettling() }
            for waiter in failed { waiter.resume(throwing: error) }
            throw error
        }
    }

    /// Saves each run of acknowledged effects at the head of `repo`'s queue and takes it off the queue.
    private func saveRuns(_ repo: RepoAcknowledgements) async throws {
        while let run = lock.withLock({ repo.queue.acknowledgedRun() }) {
            do {
                switch run.effect {
                case .records(let changes): try await store.setRecordCIDs(changes, of: repo.did)
                case .state(let state): try await store.setState(state, of: repo.did)
                }
            } catch {
                throw BackfillError(
                    .storeFailed, message: "saving the state of \(repo.did.rawValue)", underlying: error)
            }
            lock.withLock {
                for sequence in repo.queue.removeFirst(through: run.last) { release(sequence) }
            }
        }
    }

    /// Under the lock: one change holding `sequence` is saved or dropped.
    private func release(_ sequence: Int?) {
        guard let sequence, let count = pendingSequences[sequence] else { return }
        pendingSequences[sequence] = count > 1 ? count - 1 : nil
    }

    /// Saves the cursor when it moved by `interval` or more: just before the oldest sequence whose
    /// changes are not saved, or the last one handled.
    func saveCursor(interval: Int = 1) async throws {
        let candidate: Int? = lock.withLock {
            let candidate = pendingSequences.keys.min().map { $0 - 1 } ?? lastSequence
            guard let candidate, candidate >= (savedCursor ?? Int.min) + interval else { return nil }
            savedCursor = candidate
            return candidate
        }
        guard let candidate else { return }
        do {
            try await store.setCursor(candidate)
        } catch {
            throw BackfillError(.storeFailed, message: "saving the cursor \(candidate)", underlying: error)
        }
    }
}

/// One repository's acknowledgements: its queue of delivered changes and its save in progress. Each
/// event of the repository holds it, so that an acknowledgement reaches its queue without a look-up
/// by DID (hashing the DID was most of a per-event acknowledgement's own cost).
// @unchecked Sendable: the variables are read and written under `ledger.lock`; the rest are constants.
final class RepoAcknowledgements: @unchecked Sendable {
    let did: DID
    let ledger: AcknowledgementLedger
    var queue = PendingQueue()
    /// A save of the repository runs.
    var settling = false
    /// Acknowledgements that wait for that save, which takes theirs in its next write.
    var waiters: [CheckedContinuation<Void, any Error>] = []
    /// No longer tracked: acknowledgements of its events save nothing.
    var isForgotten = false

    init(_ did: DID, ledger: AcknowledgementLedger) {
        self.did = did
        self.ledger = ledger
    }

    /// Under the lock: the save is over; the acknowledgements that waited for it.
    func endSettling() -> [CheckedContinuation<Void, any Error>] {
        settling = false
        defer { waiters = [] }
        return waiters
    }
}
