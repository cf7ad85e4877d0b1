import Foundation
import XCTest

@testable import AtprotoBackfill

/// Events read in batches and acknowledged in one step; the store's record CIDs written per run of
/// acknowledged events; acknowledgements that come while a save runs taken in its next write.
final class BatchAcknowledgementTests: XCTestCase {
    /// What a store was asked to write, in order.
    actor Recorder {
        var runs: [[String]] = []
        var singles: [String] = []
        /// While set, a `setRecordCIDs` call waits here until ``open()``.
        var gate: CheckedContinuation<Void, Never>?
        var closed = false

        func record(run: [String]) { runs.append(run) }
        func record(single: String) { singles.append(single) }
        func close() { closed = true }

        func pass() async {
            guard closed else { return }
            closed = false
            await withCheckedContinuation { gate = $0 }
        }

        var isWaiting: Bool { gate != nil }

        func open() {
            gate?.resume()
            gate = nil
        }
    }

    /// An in-memory store that records its record writes; with `batches`, it writes runs itself,
    /// else it leaves `setRecordCIDs` to the protocol's default.
    struct RecordingStore: BackfillStateStore {
        let inner = InMemoryBackfillStateStore()
        let recorder = Recorder()

        func cursor() async throws -> Int? { await inner.cursor() }
        func setCursor(_ cursor: Int) async throws { await inner.setCursor(cursor) }
        func repositories() async throws -> [DID: RepoSyncState] { await inner.repositories() }
        func setState(_ state: RepoSyncState, of repo: DID) async throws { await inner.setState(state, of: repo) }
        func removeRepository(_ repo: DID) async throws { await inner.removeRepository(repo) }
        func recordCIDs(of repo: DID) async throws -> [String: CID] { await inner.recordCIDs(of: repo) }
        func recordCID(at path: String, of repo: DID) async throws -> CID? {
            await inner.recordCID(at: path, of: repo)
        }
        func setRecordCID(_ cid: CID?, at path: String, of repo: DID) async throws {
            await recorder.record(single: path)
            await inner.setRecordCID(cid, at: path, of: repo)
        }
    }

    /// The same, writing runs in one call.
    struct BatchingStore: BackfillStateStore {
        let base = RecordingStore()

        func cursor() async throws -> Int? { try await base.cursor() }
        func setCursor(_ cursor: Int) async throws { try await base.setCursor(cursor) }
        func repositories() async throws -> [DID: RepoSyncState] { try await base.repositories() }
        func setState(_ state: RepoSyncState, of repo: DID) async throws { try await base.setState(state, of: repo) }
        func removeRepository(_ repo: DID) async throws { try await base.removeRepository(repo) }
        func recordCIDs(of repo: DID) async throws -> [String: CID] { try await base.recordCIDs(of: repo) }
        func recordCID(at path: String, of repo: DID) async throws -> CID? {
            try await base.recordCID(at: path, of: repo)
        }
        func setRecordCID(_ cid: CID?, at path: String, of repo: DID) async throws {
            try await base.setRecordCID(cid, at: path, of: repo)
        }
        func setRecordCIDs(_ changes: [(path: String, cid: CID?)], of repo: DID) async throws {
            await base.recorder.record(run: changes.map { $0.path })
            await base.recorder.pass()
            try await base.inner.setRecordCIDs(changes, of: repo)
        }
    }

    func repo(_ name: String, posts count: Int) -> ScriptedRepo {
        var repo = ScriptedRepo("did:plc:\(name)")
        for index in 0..<count { _ = repo.write("old\(index)", "old post \(index)", seq: 0) }
        return repo
    }

    /// Reads `count` events from `eventBatches`, none acknowledged; fails rather than hangs.
    func batches(_ count: Int, from engine: BackfillThenLive) async throws -> [BackfillEvent] {
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            await engine.stop()
        }
        defer { watchdog.cancel() }
        var events: [BackfillEvent] = []
        var iterator = engine.eventBatches.makeAsyncIterator()
        while events.count < count, let batch = try await iterator.next() {
            XCTAssertFalse(batch.isEmpty, "an empty batch")
            events += batch
        }
        XCTAssertEqual(events.count, count, "events delivered")
        return events
    }

    func testABatchIsSavedInOneWriteAndNotDeliveredAgain() async throws {
        let network = ScriptedNetwork()
        let fay = repo("fay", posts: 5)
        await network.add(fay)
        let store = BatchingStore()
        let first = network.backfill(store: store)
        try await first.start()
        try await first.add(repos: [fay.did])
        let events = try await batches(5, from: first)
        XCTAssertEqual(events.map(\.recordKey.rawValue), ["old0", "old1", "old2", "old3", "old4"])
        try await first.acknowledge(events)
        let runs = await store.base.recorder.runs
        XCTAssertEqual(runs, [events.map(\.path)], "one write of the run, in delivery order")
        let saved = try await store.recordCIDs(of: fay.did)
        XCTAssertEqual(saved, Dictionary(uniqueKeysWithValues: events.map { ($0.path, $0.cid!) }))
        // Acknowledged again: nothing more is written.
        try await first.acknowledge(events)
        let again = await store.base.recorder.runs
        XCTAssertEqual(again.count, 1)
        await first.stop()
        await network.close()
        await network.reopen()

        // A new backfill over the same store delivers none of them again: the next event is a new one.
        let second = network.backfill(store: store)
        try await second.start()
        async let written: Void = network.write(fay.did, "new", "after the restart")
        let next = try await batches(1, from: second)
        await written
        XCTAssertEqual(next.map(\.recordKey.rawValue), ["new"])
        XCTAssertEqual(next.first?.isHistorical, false)
        await second.stop()
        await network.close()
    }

    func testABatchWithAGapSavesOnlyUpToTheGap() async throws {
        let network = ScriptedNetwork()
        let gil = repo("gil", posts: 4)
        await network.add(gil)
        let store = BatchingStore()
        let engine = network.backfill(store: store)
        try await engine.start()
        try await engine.add(repos: [gil.did])
        let events = try await batches(4, from: engine)
        // The first event not acknowledged: nothing after it is saved.
        try await engine.acknowledge([events[1], events[3]])
        var saved = try await store.recordCIDs(of: gil.did)
        XCTAssertEqual(saved, [:])
        try await engine.acknowledge([events[0]])
        saved = try await store.recordCIDs(of: gil.did)
        XCTAssertEqual(Set(saved.keys), [events[0].path, events[1].path])
        try await events[2].ack()
        saved = try await store.recordCIDs(of: gil.did)
        XCTAssertEqual(Set(saved.keys), Set(events.map(\.path)))
        let runs = await store.base.recorder.runs
        XCTAssertEqual(runs, [[events[0].path, events[1].path], [events[2].path, events[3].path]])
        await engine.stop()
        await network.close()
    }

    func testAStoreWithoutBatchWritesGetsEachChangeInOrder() async throws {
        let network = ScriptedNetwork()
        let hal = repo("hal", posts: 3)
        await network.add(hal)
        let store = RecordingStore()
        let engine = network.backfill(store: store)
        try await engine.start()
        try await engine.add(repos: [hal.did])
        let events = try await batches(3, from: engine)
        try await engine.acknowledge(events)
        let singles = await store.recorder.singles
        XCTAssertEqual(singles, events.map(\.path))
        let saved = try await store.recordCIDs(of: hal.did)
        XCTAssertEqual(saved, Dictionary(uniqueKeysWithValues: events.map { ($0.path, $0.cid!) }))
        await engine.stop()
        await network.close()
    }

    func testAcknowledgementsDuringASaveAreTakenInItsNextWrite() async throws {
        let network = ScriptedNetwork()
        let ivy = repo("ivy", posts: 4)
        await network.add(ivy)
        let store = BatchingStore()
        let engine = network.backfill(store: store)
        try await engine.start()
        try await engine.add(repos: [ivy.did])
        let events = try await batches(4, from: engine)
        // The first acknowledgement's write is held in the store; the others come while it waits.
        await store.base.recorder.close()
        let first = Task { try await events[0].ack() }
        while await !store.base.recorder.isWaiting { await Task.yield() }
        let others = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for event in events[1...] { group.addTask { try await event.ack() } }
                try await group.waitForAll()
            }
        }
        // Until the three wait for the save (or, when they do not wait, write past it: the test then fails).
        while engine.ledger.waitingAcknowledgements[ivy.did] ?? 0 < 3, await store.base.recorder.runs.count < 2 {
            await Task.yield()
        }
        await store.base.recorder.open()
        try await first.value
        try await others.value
        let runs = await store.base.recorder.runs
        XCTAssertEqual(runs.map(\.count), [1, 3], "the three waiting acknowledgements in one write")
        let saved = try await store.recordCIDs(of: ivy.did)
        XCTAssertEqual(Set(saved.keys), Set(events.map(\.path)))
        await engine.stop()
        await network.close()
    }

    func testAnAcknowledgementIsSavedWhileTheBackfillsActorIsBusy() async throws {
        // The acknowledgement runs on a second thread of the pool while the test holds the actor.
        try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "needs two threads in the pool")
        let network = ScriptedNetwork()
        let joy = repo("joy", posts: 3)
        await network.add(joy)
        let store = BatchingStore()
        let engine = network.backfill(store: store)
        try await engine.start()
        try await engine.add(repos: [joy.did])
        let events = try await batches(3, from: engine)
        let acknowledged = DispatchSemaphore(value: 0)
        // Started once the actor is held; before, each `ack()` went through the actor and waited
        // here until the watchdog.
        let (saved, task) = await holdingActor(engine) { () -> (Bool, Task<Void, any Error>) in
            let task = Task.detached {
                defer { acknowledged.signal() }
                try await events[0].ack()
            }
            return (acknowledged.wait(timeout: .now() + 30) == .success, task)
        }
        XCTAssertTrue(saved, "the acknowledgement waited for the backfill's actor")
        try await task.value
        let cids = try await store.recordCIDs(of: joy.did)
        XCTAssertEqual(cids, [events[0].path: events[0].cid!])
        // A batch too.
        let (batchSaved, batch) = await holdingActor(engine) { () -> (Bool, Task<Void, any Error>) in
            let task = Task.detached {
                defer { acknowledged.signal() }
                try await engine.acknowledge(Array(events[1...]))
            }
            return (acknowledged.wait(timeout: .now() + 30) == .success, task)
        }
        XCTAssertTrue(batchSaved, "the batch's acknowledgement waited for the backfill's actor")
        try await batch.value
        let all = try await store.recordCIDs(of: joy.did)
        XCTAssertEqual(Set(all.keys), Set(events.map(\.path)))
        await engine.stop()
        await network.close()
    }

    func testAcknowledgementsOfARemovedRepositorySaveNothing() async throws {
        let network = ScriptedNetwork()
        let lee = repo("lee", posts: 2)
        await network.add(lee)
        let store = BatchingStore()
        let engine = network.backfill(store: store)
        try await engine.start()
        try await engine.add(repos: [lee.did])
        let events = try await batches(2, from: engine)
        try await engine.remove(repos: [lee.did])
        // Its events hold its queue: acknowledged after the removal, they must not write it back.
        try await events[0].ack()
        try await engine.acknowledge(events)
        let saved = try await store.recordCIDs(of: lee.did)
        XCTAssertEqual(saved, [:])
        let runs = await store.base.recorder.runs
        XCTAssertEqual(runs, [])
        await engine.stop()
        await network.close()
    }

    func testAnEventIsAValue() async throws {
        // Its fields sit behind one shared reference: a change to a copy must not reach the original.
        let original = BackfillEvent(
            repo: "did:plc:kim", action: .create, collection: "app.bsky.feed.post", recordKey: "one", cid: nil,
            record: nil, isHistorical: true, rev: "2222222222222")
        var copy = original
        copy.rev = "3333333333333"
        copy.recordKey = "two"
        copy.isHistorical = false
        copy.sequence = 7
        XCTAssertEqual(original.rev, "2222222222222")
        XCTAssertEqual(original.path, "app.bsky.feed.post/one")
        XCTAssertTrue(original.isHistorical)
        XCTAssertNil(original.sequence)
        XCTAssertEqual(copy.path, "app.bsky.feed.post/two")
        XCTAssertEqual(copy.sequence, 7)
        try await copy.ack()
    }
}

/// Runs `body` on the backfill's actor, holding it (no suspension) until `body` returns.
private func holdingActor<T: Sendable>(_ engine: isolated BackfillThenLive, _ body: () -> T) -> T { body() }
