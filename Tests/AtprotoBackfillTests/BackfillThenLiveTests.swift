import Foundation
import XCTest

@testable import AtprotoBackfill

/// Backfill then live over a scripted network: the cutover, resyncs, the buffer's bound, restarts.
final class BackfillThenLiveTests: XCTestCase {
    /// A repository with `count` posts written before the backfill starts (not on the firehose).
    func repo(_ name: String, posts count: Int) -> ScriptedRepo {
        var repo = ScriptedRepo("did:plc:\(name)")
        for index in 0..<count { _ = repo.write("old\(index)", "old post \(index)", seq: 0) }
        return repo
    }

    /// Reads `count` events (acknowledging each when `ack`), failing rather than hanging when they do
    /// not come: the watchdog stops the backfill, which ends the sequence.
    func take(
        _ count: Int, from engine: BackfillThenLive, ack: Bool = true, file: StaticString = #filePath,
        line: UInt = #line
    ) async throws -> [BackfillEvent] {
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            await engine.stop()
        }
        defer { watchdog.cancel() }
        var events: [BackfillEvent] = []
        var iterator = engine.events.makeAsyncIterator()
        while events.count < count, let event = try await iterator.next() {
            if ack { try await event.ack() }
            events.append(event)
        }
        XCTAssertEqual(events.count, count, "events delivered", file: file, line: line)
        return events
    }

    /// Writes a sentinel post to `did` and checks that the next event is its live create: nothing
    /// else (no duplicate, no late historical event) was waiting before it.
    func assertNothingElse(
        _ network: ScriptedNetwork, _ engine: BackfillThenLive, _ did: DID, file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        let sentinel = "sentinel\(UUID().uuidString.prefix(8).lowercased())"
        async let written: Void = network.write(did, sentinel, "sentinel")
        let next = try await take(1, from: engine, file: file, line: line)
        await written
        XCTAssertEqual(next.first?.path, "app.bsky.feed.post/\(sentinel)", file: file, line: line)
        XCTAssertEqual(next.first?.isHistorical, false, file: file, line: line)
    }

    func testHeldCommitsAreDeliveredOnceAtTheCutover() async throws {
        let network = ScriptedNetwork()
        let alice = repo("alice", posts: 3)
        await network.add(alice)
        await network.hold(before: true, after: true)
        let engine = network.backfill(store: InMemoryBackfillStateStore())
        try await engine.start()
        try await engine.add(repos: [alice.did])
        await network.waitFor(started: 1)
        // Held, and in the snapshot about to be taken: must not be delivered twice.
        await network.write(alice.did, "during1", "in the snapshot")
        await network.write(alice.did, "old0", nil)
        await network.releaseBefore()
        await network.waitFor(taken: 1)
        // Held, after the snapshot: must be delivered live, after the historical events.
        await network.write(alice.did, "after1", "after the snapshot")
        await network.write(alice.did, "during1", "edited after the snapshot")
        await network.releaseAfter()

        let events = try await take(5, from: engine)
        XCTAssertEqual(
            events.map { "\($0.isHistorical ? "h" : "l") \($0.action) \($0.recordKey)" },
            ["h create during1", "h create old1", "h create old2", "l create after1", "l update during1"])
        XCTAssertEqual(events[4].record?.as(AppBskyFeedPost.self)?.text, "edited after the snapshot")
        XCTAssertEqual(events[3].sequence, 3)
        // The last held commit is delivered a moment before the repository goes live.
        while await engine.state(of: alice.did)?.status != .live { await Task.yield() }
        try await assertNothingElse(network, engine, alice.did)
        let state = await engine.state(of: alice.did)
        XCTAssertEqual(state?.status, .live)
        let progress = await engine.progress
        XCTAssertEqual(progress.records, 3)
        XCTAssertEqual(progress.resyncs, 0)
        XCTAssertTrue(progress.isCaughtUp)
        await engine.stop()
        await network.close()
    }

    func testACommitMissedAtTheCutoverResyncsAndDeliversOnlyTheDifference() async throws {
        let network = ScriptedNetwork()
        let bob = repo("bob", posts: 2)
        await network.add(bob)
        await network.hold(before: false, after: true)
        let engine = network.backfill(store: InMemoryBackfillStateStore())
        try await engine.start()
        try await engine.add(repos: [bob.did])
        await network.waitFor(taken: 1)
        await network.writeUnseen(bob.did, "missed", "the firehose never showed this")
        await network.write(bob.did, "seen", "held, but it does not follow the snapshot")
        await network.releaseAfter()

        // The first snapshot's two records, then the resync's difference: the missed and the held one.
        let events = try await take(4, from: engine)
        XCTAssertEqual(events.map(\.recordKey.rawValue), ["old0", "old1", "missed", "seen"])
        XCTAssertTrue(events.allSatisfy(\.isHistorical))
        try await assertNothingElse(network, engine, bob.did)
        let progress = await engine.progress
        XCTAssertEqual(progress.resyncs, 1)
        XCTAssertEqual(progress.records, 4)
        await engine.stop()
        await network.close()
    }

    func testALiveCommitThatDoesNotFollowResyncs() async throws {
        let network = ScriptedNetwork()
        let carol = repo("carol", posts: 1)
        await network.add(carol)
        let engine = network.backfill(store: InMemoryBackfillStateStore())
        try await engine.start()
        try await engine.add(repos: [carol.did])
        _ = try await take(1, from: engine)
        await network.writeUnseen(carol.did, "gap", "missed live")
        async let written: Void = network.write(carol.did, "next", "after the gap")
        let events = try await take(2, from: engine)
        await written
        XCTAssertEqual(events.map(\.recordKey.rawValue), ["gap", "next"])
        XCTAssertTrue(events.allSatisfy(\.isHistorical), "delivered by the resync, not as the broken live commit")
        try await assertNothingElse(network, engine, carol.did)
        await engine.stop()
        await network.close()
    }

    func testOverItsBoundARepositoryResyncsInsteadOfHoldingMore() async throws {
        let network = ScriptedNetwork()
        let dan = repo("dan", posts: 2)
        await network.add(dan)
        await network.hold(before: false, after: true)
        let engine = network.backfill(
            store: InMemoryBackfillStateStore(),
            configuration: .init(maximumBufferedCommits: 2, initialBackoff: .zero))
        try await engine.start()
        try await engine.add(repos: [dan.did])
        await network.waitFor(taken: 1)
        for index in 0..<6 {
            await network.write(dan.did, "burst\(index)", "burst \(index)")
            let held = await engine.repos[dan.did]?.buffer.count ?? 0
            XCTAssertLessThanOrEqual(held, 2, "commits held after \(index + 1) writes")
        }
        await network.releaseAfter()
        let events = try await take(8, from: engine)
        XCTAssertEqual(
            events.map(\.recordKey.rawValue), ["old0", "old1"] + (0..<6).map { "burst\($0)" })
        XCTAssertTrue(events.allSatisfy(\.isHistorical))
        try await assertNothingElse(network, engine, dan.did)
        let progress = await engine.progress
        XCTAssertEqual(progress.resyncs, 1)
        await engine.stop()
        await network.close()
    }

    func testARestartRedeliversWhatWasNotAcknowledgedAndNothingElse() async throws {
        let network = ScriptedNetwork()
        let erin = repo("erin", posts: 4)
        await network.add(erin)
        let store = InMemoryBackfillStateStore()

        // First run: four historical events, two acknowledged.
        let first = network.backfill(store: store)
        try await first.start()
        try await first.add(repos: [erin.did])
        let historical = try await take(4, from: first, ack: false)
        try await historical[0].ack()
        try await historical[1].ack()
        await first.stop()
        await network.close()
        await network.reopen()

        // Second run: the two others again; then two live commits, the first acknowledged.
        let second = network.backfill(store: store)
        try await second.start()
        let again = try await take(2, from: second)
        XCTAssertEqual(again.map(\.recordKey.rawValue), ["old2", "old3"])
        try await assertNothingElse(network, second, erin.did)
        async let writes: Void = {
            await network.write(erin.did, "live1", "one")
            await network.write(erin.did, "live2", "two")
        }()
        let live = try await take(2, from: second, ack: false)
        await writes
        try await live[0].ack()
        await second.stop()
        await network.close()
        await network.reopen()

        // Third run: the firehose replays from the saved cursor; only the unacknowledged commit comes back.
        let third = network.backfill(store: store)
        try await third.start()
        let replayed = try await take(1, from: third)
        XCTAssertEqual(replayed.map(\.recordKey.rawValue), ["live2"])
        XCTAssertEqual(replayed.first?.isHistorical, false)
        try await assertNothingElse(network, third, erin.did)
        await third.stop()
        await network.close()
    }

    func testAFetchThatKeepsFailingEndsFailedAfterItsAttempts() async throws {
        let network = ScriptedNetwork()
        let gone = DID(rawValue: "did:plc:gone")
        let fine = repo("fine", posts: 1)
        await network.add(fine)
        let engine = network.backfill(
            store: InMemoryBackfillStateStore(), configuration: .init(maximumAttempts: 3, initialBackoff: .zero))
        try await engine.start()
        try await engine.add(repos: [gone, fine.did])
        _ = try await take(1, from: engine)
        await network.waitFor(started: 4)
        while await engine.state(of: gone)?.status != .failed { await Task.yield() }
        let progress = await engine.progress
        XCTAssertEqual(progress.failed, 1)
        XCTAssertEqual(progress.live, 1)
        XCTAssertTrue(progress.isCaughtUp)
        await engine.stop()
        await network.close()
    }

    func testBackoffDoublesUpToItsMaximum() {
        let engine = BackfillThenLive(
            store: InMemoryBackfillStateStore(), source: ScriptedNetwork(),
            configuration: .init(initialBackoff: .seconds(1), maximumBackoff: .seconds(5))
        ) { _, _ in }
        let delays = (0..<6).map { engine.backoff(attempts: $0) }
        XCTAssertEqual(delays, [.zero, .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }
}
