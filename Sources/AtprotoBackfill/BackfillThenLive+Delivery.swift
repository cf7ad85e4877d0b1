import AtprotoLexicons

// Delivery and acknowledgement: each event, and each state change, waits in its repository's queue
// until every earlier one is acknowledged; then its effect is saved. The cursor never passes a
// firehose `seq` whose effects are not saved.
extension BackfillThenLive {
    /// Delivers one event whose acknowledgement saves `effect`; `false` when the backfill stopped.
    func emit(
        _ did: DID, action: RepoOperation.Action, path: String, cid: CID?, record: DecodedRecord?,
        historical: Bool, rev: String, sequence: Int?, holdsCursor: Bool
    ) async -> Bool {
        let (event, pending) = prepare(
            did, action: action, path: path, cid: cid, record: record, historical: historical, rev: rev,
            sequence: sequence, holdsCursor: holdsCursor)
        repos[did]?.outstanding.append(pending)
        // Without leaving the actor while there is room; waits only when the app is behind.
        if let sent = channel.offer(event) { return sent }
        return await channel.send(event)
    }

    /// An event to deliver and the change its acknowledgement saves, counted; the change must be
    /// queued (`outstanding`) before the event is sent.
    func prepare(
        _ did: DID, action: RepoOperation.Action, path: String, cid: CID?, record: DecodedRecord?,
        historical: Bool, rev: String, sequence: Int?, holdsCursor: Bool
    ) -> (BackfillEvent, Pending) {
        let id = nextID
        nextID += 1
        // Split on the UTF-8 bytes: a walk by Character (grapheme breaking) cost more than the rest of emit.
        let slash = path.utf8.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        let collection = NSID(rawValue: String(path[..<slash]))
        let key = RecordKey(rawValue: slash < path.endIndex ? String(path[path.utf8.index(after: slash)...]) : "")
        let event = BackfillEvent(
            repo: did, action: action, collection: collection, recordKey: key, cid: cid, record: record,
            isHistorical: historical, rev: rev, sequence: sequence, id: id, engine: self)
        let held = holdsCursor ? sequence : nil
        if let held { pendingSequences[held, default: 0] += 1 }
        if historical { counters.records += 1 }
        return (event, Pending(id: id, effect: .record(path: path, cid: cid), acknowledged: false, sequence: held))
    }

    /// Delivers the events prepared in `run` (their changes queued first, in one step) and empties
    /// it; `false` when the backfill stopped or the fetch of `did` was superseded.
    func handOver(_ run: inout DeliveryRun, of did: DID, _ epoch: UInt64) async -> Bool {
        guard !run.events.isEmpty else { return isCurrent(did, epoch) }
        repos[did]?.outstanding.append(contentsOf: run.pending)
        let sent = await channel.send(contentsOf: run.events)
        run.events.removeAll(keepingCapacity: true)
        run.pending.removeAll(keepingCapacity: true)
        return sent && isCurrent(did, epoch)
    }

    /// Queues a state change of `did`, saved once every event before it is acknowledged; `sequence`
    /// holds the cursor until then.
    func enqueue(_ state: RepoSyncState, of did: DID, holding sequence: Int?) async throws {
        guard repos[did] != nil else { return }
        if let sequence { pendingSequences[sequence, default: 0] += 1 }
        let id = nextID
        nextID += 1
        repos[did]?.outstanding.append(Pending(id: id, effect: .state(state), acknowledged: true, sequence: sequence))
        try await settle(did)
    }

    /// Marks event `id` of `did` acknowledged and saves what is now acknowledged in order.
    func acknowledge(_ id: UInt64, repo did: DID) async throws {
        guard repos[did]?.outstanding.acknowledge(id) == true else { return }
        try await settle(did)
    }

    /// Tells the backfill that `events` are handled, as ``BackfillEvent/ack()`` does for each, in
    /// one step: what is then acknowledged in order is saved, each repository's record CIDs in one
    /// ``BackfillStateStore/setRecordCIDs(_:of:)``, and it returns once that is saved. Events of
    /// another backfill, or already acknowledged, are passed over.
    ///
    /// - Throws: ``BackfillError`` (`storeFailed`) when the state store throws.
    public func acknowledge(_ events: [BackfillEvent]) async throws {
        var touched: [DID] = []
        var seen: Set<DID> = []
        for event in events where event.engine === self {
            guard repos[event.repo]?.outstanding.acknowledge(event.id) == true else { continue }
            if touched.last != event.repo, seen.insert(event.repo).inserted { touched.append(event.repo) }
        }
        for did in touched { try await settle(did) }
    }

    /// Saves the effects of the acknowledged events at the head of `did`'s queue, then the cursor.
    /// One save of a repository runs at a time: an acknowledgement that comes while one runs waits
    /// for it, and it takes that acknowledgement in its next write.
    func settle(_ did: DID) async throws {
        if settling.contains(did) {
            try await withCheckedThrowingContinuation { settleWaiters[did, default: []].append($0) }
            return
        }
        settling.insert(did)
        var failure: (any Error)?
        do {
            try await settleRuns(did)
            try await saveCursor()
        } catch {
            failure = error
        }
        settling.remove(did)
        for waiter in settleWaiters.removeValue(forKey: did) ?? [] {
            if let failure { waiter.resume(throwing: failure) } else { waiter.resume() }
        }
        if let failure { throw failure }
    }

    /// Saves each run of acknowledged effects at the head of `did`'s queue and takes it off the queue.
    private func settleRuns(_ did: DID) async throws {
        while let run = repos[did]?.outstanding.acknowledgedRun() {
            do {
                switch run.effect {
                case .records(let changes): try await store.setRecordCIDs(changes, of: did)
                case .state(let state): try await store.setState(state, of: did)
                }
            } catch {
                throw BackfillError(.storeFailed, message: "saving the state of \(did.rawValue)", underlying: error)
            }
            for sequence in repos[did]?.outstanding.removeFirst(through: run.last) ?? [] { release(sequence) }
        }
    }

    func release(_ sequence: Int?) {
        guard let sequence, let count = pendingSequences[sequence] else { return }
        pendingSequences[sequence] = count > 1 ? count - 1 : nil
    }

    /// Saves the cursor when it moved by `interval` or more: just before the oldest `seq` whose
    /// effects are not saved, or the last one handled.
    func saveCursor(interval: Int = 1) async throws {
        let candidate = pendingSequences.keys.min().map { $0 - 1 } ?? lastSequence
        guard let candidate, candidate >= (savedCursor ?? Int.min) + interval else { return }
        savedCursor = candidate
        do {
            try await store.setCursor(candidate)
        } catch {
            throw BackfillError(.storeFailed, message: "saving the cursor \(candidate)", underlying: error)
        }
    }

    /// The CID the app will hold at `path` once it has handled what was delivered: the newest
    /// delivered and unsaved change, else what the store holds.
    func deliveredCID(at path: String, of did: DID) async throws -> CID? {
        let saved = try await store.recordCID(at: path, of: did)
        for pending in (repos[did]?.outstanding.waiting ?? []).reversed() {
            if case .record(path, let cid) = pending.effect { return cid }
        }
        return saved
    }

    /// Every record the app will hold once it has handled what was delivered.
    func deliveredCIDs(of did: DID) async throws -> [String: CID] {
        var cids = try await store.recordCIDs(of: did)
        for pending in repos[did]?.outstanding.waiting ?? [] {
            if case .record(let path, let cid) = pending.effect { cids[path] = cid }
        }
        return cids
    }

    func wants(_ path: String) -> Bool {
        guard let collections = configuration.collections else { return true }
        return collections.contains(NSID(rawValue: String(path.prefix { $0 != "/" })))
    }
}

/// Historical events of one repository prepared for delivery, handed to the app together: one
/// wake-up of the app's reader, and one look-up of the repository, for the run rather than for each.
struct DeliveryRun {
    /// The most events prepared before they are delivered.
    static let limit = 64
    var events: [BackfillEvent] = []
    var pending: [BackfillThenLive.Pending] = []

    mutating func add(_ prepared: (BackfillEvent, BackfillThenLive.Pending)) {
        events.append(prepared.0)
        pending.append(prepared.1)
    }

    var isFull: Bool { events.count >= Self.limit }
}

/// A repository's delivered changes waiting for their acknowledgement, oldest first: appended at
/// the end, settled from the front, looked up by id. The front is an index into the array, so
/// settling one costs no shift of those behind it (an array's `removeFirst()` moved every pending
/// change per acknowledgement).
struct PendingQueue {
    private var elements: [BackfillThenLive.Pending] = []
    private var head = 0

    /// The changes waiting, oldest first.
    var waiting: ArraySlice<BackfillThenLive.Pending> { elements[head...] }

    /// What a run of acknowledged changes at the front saves: records' CIDs, or a state.
    enum RunEffect {
        case records([(path: String, cid: CID?)])
        case state(RepoSyncState)
    }

    /// The acknowledged changes at the front, up to the first not acknowledged: a run of record
    /// changes, or the state change at the front alone; with the id of the last. Nil when the front
    /// is not acknowledged (or nothing waits).
    func acknowledgedRun() -> (effect: RunEffect, last: UInt64)? {
        guard head < elements.count, elements[head].acknowledged else { return nil }
        if case .state(let state) = elements[head].effect { return (.state(state), elements[head].id) }
        var changes: [(path: String, cid: CID?)] = []
        var index = head
        while index < elements.count, elements[index].acknowledged,
            case .record(let path, let cid) = elements[index].effect
        {
            changes.append((path, cid))
            index += 1
        }
        return (.records(changes), elements[index - 1].id)
    }

    mutating func append(_ pending: BackfillThenLive.Pending) { elements.append(pending) }

    mutating func append(contentsOf pending: [BackfillThenLive.Pending]) { elements.append(contentsOf: pending) }

    /// Takes the changes up to id `last` off the front (those another save has not taken already);
    /// returns the firehose sequences they held.
    mutating func removeFirst(through last: UInt64) -> [Int] {
        var sequences: [Int] = []
        while head < elements.count, elements[head].id <= last {
            if let sequence = elements[head].sequence { sequences.append(sequence) }
            head += 1
        }
        if head == elements.count {
            // A repository gone quiet keeps no more than a small buffer (an app may follow millions).
            elements.removeAll(keepingCapacity: elements.capacity <= 64)
            head = 0
        } else if head >= 256, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return sequences
    }

    /// Marks the change `id` acknowledged; `false` when it is not waiting. Ids grow in the order
    /// changes are appended, so the lookup is a binary search.
    mutating func acknowledge(_ id: UInt64) -> Bool {
        var low = head
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if elements[middle].id < id { low = middle + 1 } else { high = middle }
        }
        guard low < elements.count, elements[low].id == id else { return false }
        elements[low].acknowledged = true
        return true
    }
}
