import AtprotoLexicons
import Foundation

// Delivery: each event, and each state change, waits in its repository's queue (the ledger) until
// every earlier one is acknowledged; then its effect is saved. The cursor never passes a firehose
// `seq` whose effects are not saved.
extension BackfillThenLive {
    /// Delivers one event whose acknowledgement saves `effect`; `false` when the backfill stopped.
    func emit(
        _ did: DID, action: RepoOperation.Action, path: String, cid: CID?, record: DecodedRecord?,
        historical: Bool, rev: String, sequence: Int?, holdsCursor: Bool
    ) async -> Bool {
        let repo = ledger.acknowledgements(of: did)
        let (event, pending) = prepare(
            did, action: action, path: path, cid: cid, record: record, historical: historical, rev: rev,
            sequence: sequence, holdsCursor: holdsCursor, into: repo)
        ledger.append(CollectionOfOne(pending), to: repo)
        // Without leaving the actor while there is room; waits only when the app is behind.
        if let sent = channel.offer(event) { return sent }
        return await channel.send(event)
    }

    /// An event to deliver and the change its acknowledgement saves, counted; the change must be
    /// queued (``AcknowledgementLedger/append(_:to:)``) before the event is sent.
    func prepare(
        _ did: DID, action: RepoOperation.Action, path: String, cid: CID?, record: DecodedRecord?,
        encodedRecord: Data? = nil, historical: Bool, rev: String, sequence: Int?, holdsCursor: Bool,
        into repo: RepoAcknowledgements?
    ) -> (BackfillEvent, Pending) {
        let id = nextID
        nextID += 1
        // Split on the UTF-8 bytes: a walk by Character (grapheme breaking) cost more than the rest of emit.
        let slash = path.utf8.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        let collection = NSID(rawValue: String(path[..<slash]))
        let key = RecordKey(rawValue: slash < path.endIndex ? String(path[path.utf8.index(after: slash)...]) : "")
        let event = BackfillEvent(
            repo: did, action: action, collection: collection, recordKey: key, cid: cid, record: record,
            encodedRecord: encodedRecord, isHistorical: historical, rev: rev, sequence: sequence, id: id,
            acknowledgements: repo)
        if historical { counters.records += 1 }
        let held = holdsCursor ? sequence : nil
        return (event, Pending(id: id, effect: .record(path: path, cid: cid), acknowledged: false, sequence: held))
    }

    /// Delivers the events prepared in `run` (their changes queued first, in one step) and empties
    /// it; `false` when the backfill stopped or the fetch of `did` was superseded.
    func handOver(_ run: inout DeliveryRun, of did: DID, _ epoch: UInt64) async -> Bool {
        guard !run.events.isEmpty else { return isCurrent(did, epoch) }
        ledger.append(run.pending, to: run.acknowledgements)
        let sent = await channel.send(contentsOf: run.events)
        run.events.removeAll(keepingCapacity: true)
        run.pending.removeAll(keepingCapacity: true)
        return sent && isCurrent(did, epoch)
    }

    /// Queues a state change of `did`, saved once every event before it is acknowledged; `sequence`
    /// holds the cursor until then.
    func enqueue(_ state: RepoSyncState, of did: DID, holding sequence: Int?) async throws {
        let id = nextID
        nextID += 1
        let change = Pending(id: id, effect: .state(state), acknowledged: true, sequence: sequence)
        let repo = ledger.acknowledgements(of: did)
        guard ledger.append(CollectionOfOne(change), to: repo), let repo else { return }
        try await ledger.settle(repo)
    }

    /// Tells the backfill that `events` are handled, as ``BackfillEvent/ack()`` does for each, in
    /// one step: what is then acknowledged in order is saved, each repository's record CIDs in one
    /// ``BackfillStateStore/setRecordCIDs(_:of:)``, and it returns once that is saved. Events of
    /// another backfill, or already acknowledged, are passed over. Like ``BackfillEvent/ack()``,
    /// it does not wait for the backfill's actor (busy preparing the next events).
    ///
    /// - Throws: ``BackfillError`` (`storeFailed`) when the state store throws.
    public nonisolated func acknowledge(_ events: [BackfillEvent]) async throws {
        try await ledger.acknowledge(events)
    }

    /// Saves the cursor when it moved by `interval` or more.
    func saveCursor(interval: Int = 1) async throws { try await ledger.saveCursor(interval: interval) }

    /// The CID the app will hold at `path` once it has handled what was delivered: the newest
    /// delivered and unsaved change, else what the store holds.
    ///
    /// The ledger is read first: a change it holds then is the newest; one it does not hold is saved
    /// by the time the store is read (acknowledgements save from the app's task, at any moment).
    func deliveredCID(at path: String, of did: DID) async throws -> CID? {
        if let delivered = ledger.deliveredCID(at: path, of: did) { return delivered }
        return try await store.recordCID(at: path, of: did)
    }

    /// Every record the app will hold once it has handled what was delivered.
    func deliveredCIDs(of did: DID) async throws -> [String: CID] {
        let delivered = ledger.delivered(of: did)
        var cids = try await store.recordCIDs(of: did)
        // A delete (`nil`) takes the path out.
        for (path, cid) in delivered { cids[path] = cid }
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
    /// The repository's queue, looked up once for the fetch.
    let acknowledgements: RepoAcknowledgements?
    /// The most events prepared before they are delivered: half the events the app may have waiting
    /// (the room a waiting producer is woken for), at most 128. Runs of 64 woke a reader that keeps
    /// up (it waits for each run) 156 times a 10,000-record repository: futex wake-ups and thread
    /// switches were 7 % of the samples.
    let limit: Int
    var events: [BackfillEvent] = []
    var pending: [BackfillThenLive.Pending] = []

    mutating func add(_ prepared: (BackfillEvent, BackfillThenLive.Pending)) {
        events.append(prepared.0)
        pending.append(prepared.1)
    }

    init(acknowledgements: RepoAcknowledgements?, eventsAhead: Int) {
        self.acknowledgements = acknowledgements
        limit = max(1, min(128, eventsAhead / 2))
    }

    var isFull: Bool { events.count >= limit }
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

    mutating func append(contentsOf pending: some Sequence<BackfillThenLive.Pending>) {
        elements.append(contentsOf: pending)
    }

    /// Whether the change at the front is acknowledged (a save has something to take).
    var isHeadAcknowledged: Bool { head < elements.count && elements[head].acknowledged }

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
