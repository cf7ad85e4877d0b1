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
/// not saved.
// @unchecked Sendable: every stored property but `store` (a constant) is read and written under `lock`.
final class AcknowledgementLedger: @unchecked Sendable {
    let store: any BackfillStateStore
    private let lock = NSLock()
    private var queues: [DID: PendingQueue] = [:]
    private var settling: Set<DID> = []
    private var waiters: [DID: [CheckedContinuation<Void, any Error>]] = [:]
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
            if queues[did] == nil { queues[did] = PendingQueue() }
        }
    }

    /// Whether `did` has a queue.
    func tracks(_ did: DID) -> Bool { lock.withLock { queues[did] != nil } }

    /// Drops `did`'s queue and releases the sequences its changes held.
    func forget(_ did: DID) {
        lock.withLock {
            guard let queue = queues.removeValue(forKey: did) else { return }
            for pending in queue.waiting { release(pending.sequence) }
        }
    }

    /// Queues changes of `did` (in id order, after those queued before), each holding its sequence;
    /// `false` when `did` is not tracked (nothing queued).
    @discardableResult
    func append(_ pending: some Collection<BackfillThenLive.Pending>, to did: DID) -> Bool {
        lock.withLock {
            guard queues[did] != nil else { return false }
            for change in pending {
                if let sequence = change.sequence { pendingSequences[sequence, default: 0] += 1 }
            }
            queues[did]?.append(contentsOf: pending)
            return true
        }
    }

    /// The CID the app will hold at `path` once it has handled what was delivered, when a delivered
    /// change not yet saved decides it: `.some(cid)` (`nil` for a delete), else `nil`.
    func deliveredCID(at path: String, of did: DID) -> CID?? {
        lock.withLock {
            for pending in (queues[did]?.waiting ?? []).reversed() {
                if case .record(path, let cid) = pending.effect { return .some(cid) }
            }
            return nil
        }
    }

    /// The delivered changes not yet saved, in order (a path's last change last).
    func delivered(of did: DID) -> [(path: String, cid: CID?)] {
        lock.withLock {
            var changes: [(path: String, cid: CID?)] = []
            for pending in queues[did]?.waiting ?? [] {
                if case .record(let path, let cid) = pending.effect { changes.append((path, cid)) }
            }
            return changes
        }
    }

    // MARK: Acknowledging

    /// Marks event `id` of `did` acknowledged and saves what is then acknowledged in order.
    func acknowledge(_ id: UInt64, of did: DID) async throws {
        guard lock.withLock({ queues[did]?.acknowledge(id) ?? false }) else { return }
        try await settle(did)
    }

    /// Marks each of `events` acknowledged (those of this ledger), then saves each repository touched.
    func acknowledge(_ events: [BackfillEvent]) async throws {
        let touched: [DID] = lock.withLock {
            var touched: [DID] = []
            var seen: Set<DID> = []
            for event in events where event.ledger === self {
                guard queues[event.repo]?.acknowledge(event.id) == true else { continue }
                if touched.last != event.repo, seen.insert(event.repo).inserted { touched.append(event.repo) }
            }
            return touched
        }
        for did in touched { try await settle(did) }
    }

    /// The repositories' saves in progress, and how many acknowledgements wait for each (tests).
    var waitingAcknowledgements: [DID: Int] { lock.withLock { waiters.mapValues(\.count) } }

    /// Saves the effects of the acknowledged changes at the head of `did`'s queue, then the cursor;
    /// when a save of `did` runs already, waits for it (it takes what this caller marked).
    func settle(_ did: DID) async throws {
        let settles: Bool = lock.withLock { settling.insert(did).inserted }
        guard settles else {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                // The save may have ended since: then this caller saves.
                let waits = lock.withLock {
                    guard settling.contains(did) else { return false }
                    waiters[did, default: []].append(waiter)
                    return true
                }
                // Ended with this caller's mark saved: it checked the head in the same step.
                if !waits { waiter.resume() }
            }
            return
        }
        do {
            while true {
                try await saveRuns(did)
                try await saveCursor()
                // Ends unless a change was acknowledged meanwhile, in the same step as the check.
                let finished: [CheckedContinuation<Void, any Error>]? = lock.withLock {
                    guard isSettled(did) else { return nil }
                    settling.remove(did)
                    return waiters.removeValue(forKey: did) ?? []
                }
                guard let finished else { continue }
                for waiter in finished { waiter.resume() }
                return
            }
        } catch {
            let failed: [CheckedContinuation<Void, any Error>] = lock.withLock {
                settling.remove(did)
                return waiters.removeValue(forKey: did) ?? []
            }
            for waiter in failed { waiter.resume(throwing: error) }
            throw error
        }
    }

    /// Under the lock: nothing acknowledged waits at the head of `did`'s queue.
    private func isSettled(_ did: DID) -> Bool { queues[did]?.isHeadAcknowledged != true }

    /// Saves each run of acknowledged effects at the head of `did`'s queue and takes it off the queue.
    private func saveRuns(_ did: DID) async throws {
        while let run = lock.withLock({ queues[did]?.acknowledgedRun() }) {
            do {
                switch run.effect {
                case .records(let changes): try await store.setRecordCIDs(changes, of: did)
                case .state(let state): try await store.setState(state, of: did)
                }
            } catch {
                throw BackfillError(.storeFailed, message: "saving the state of \(did.rawValue)", underlying: error)
            }
            lock.withLock {
                for sequence in queues[did]?.removeFirst(through: run.last) ?? [] { release(sequence) }
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
