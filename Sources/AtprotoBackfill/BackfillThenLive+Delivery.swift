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
        repos[did]?.outstanding.append(
            Pending(id: id, effect: .record(path: path, cid: cid), acknowledged: false, sequence: held))
        if historical { counters.records += 1 }
        // Without leaving the actor while there is room; waits only when the app is behind.
        if let sent = channel.offer(event) { return sent }
        return await channel.send(event)
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

    /// Saves the effects of the acknowledged events at the head of `did`'s queue, then the cursor.
    func settle(_ did: DID) async throws {
        while let head = repos[did]?.outstanding.first, head.acknowledged {
            do {
                switch head.effect {
                case .record(let path, let cid): try await store.setRecordCID(cid, at: path, of: did)
                case .state(let state): try await store.setState(state, of: did)
                }
            } catch {
                throw BackfillError(.storeFailed, message: "saving the state of \(did.rawValue)", underlying: error)
            }
            // The store call suspended: the head may have been settled by another acknowledgement.
            guard repos[did]?.outstanding.first?.id == head.id else { continue }
            repos[did]?.outstanding.removeFirst()
            release(head.sequence)
        }
        try await saveCursor()
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

/// A repository's delivered changes waiting for their acknowledgement, oldest first: appended at
/// the end, settled from the front, looked up by id. The front is an index into the array, so
/// settling one costs no shift of those behind it (an array's `removeFirst()` moved every pending
/// change per acknowledgement).
struct PendingQueue {
    private var elements: [BackfillThenLive.Pending] = []
    private var head = 0

    /// The changes waiting, oldest first.
    var waiting: ArraySlice<BackfillThenLive.Pending> { elements[head...] }

    var first: BackfillThenLive.Pending? { head < elements.count ? elements[head] : nil }

    mutating func append(_ pending: BackfillThenLive.Pending) { elements.append(pending) }

    mutating func removeFirst() {
        guard head < elements.count else { return }
        head += 1
        if head == elements.count {
            // A repository gone quiet keeps no more than a small buffer (an app may follow millions).
            elements.removeAll(keepingCapacity: elements.capacity <= 64)
            head = 0
        } else if head >= 256, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
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
