import SeededRandom
import XCTest

@testable import AtprotoBackfill

/// The in-memory store's table of record CIDs behaves as a dictionary by path, for writes in key
/// order (a backfill), anywhere (live commits, resyncs), removals and writes again.
final class RecordCIDTableTests: XCTestCase {
    private func cid(_ number: Int) -> CID { CID(sha256Of: Array("record \(number)".utf8)) }

    /// Random writes checked against a dictionary after each step: reads of written, removed and
    /// never written paths, the count, and the whole table.
    func testMatchesADictionaryUnderRandomWrites() {
        for seed in UInt64(1)...40 {
            var generator = SplitMix64(seed: seed)
            var table = RecordCIDTable()
            var expected: [String: CID] = [:]
            // A pool of paths, some before and some after the ones written in order.
            let paths = (0..<300).map { "app.bsky.feed.post/3k\(String(format: "%05d", $0))" }
            var nextInOrder = 100
            for step in 0..<600 {
                let path: String
                let value: CID?
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<5 where nextInOrder < paths.count:
                    // In key order after everything written (a backfill's run).
                    path = paths[nextInOrder]
                    nextInOrder += 1
                    value = cid(step)
                case 0..<7:
                    path = paths[Int.random(in: 0..<paths.count, using: &generator)]
                    value = cid(step)
                default:
                    path = paths[Int.random(in: 0..<paths.count, using: &generator)]
                    value = nil
                }
                table[path] = value
                expected[path] = value
                XCTAssertEqual(table.count, expected.count, "seed \(seed), step \(step): count")
                XCTAssertEqual(table[path], expected[path], "seed \(seed), step \(step): \(path)")
                let probe = paths[Int.random(in: 0..<paths.count, using: &generator)]
                XCTAssertEqual(table[probe], expected[probe], "seed \(seed), step \(step): \(probe)")
                XCTAssertNil(table["app.bsky.feed.like/unwritten"])
            }
            XCTAssertEqual(table.dictionary, expected, "seed \(seed): the whole table")
            for path in paths { XCTAssertEqual(table[path], expected[path], "seed \(seed): \(path)") }
        }
    }

    /// A whole repository written in key order, then removed path by path, leaves nothing.
    func testWrittenInOrderThenRemovedLeavesItEmpty() {
        var table = RecordCIDTable()
        let paths = (0..<1_000).map { "app.bsky.feed.like/\(String(format: "%06d", $0))" }
        for (index, path) in paths.enumerated() { table[path] = cid(index) }
        XCTAssertEqual(table.count, 1_000)
        XCTAssertEqual(table[paths[500]], cid(500))
        for path in paths.reversed() { table[path] = nil }
        XCTAssertTrue(table.isEmpty)
        XCTAssertEqual(table.dictionary, [:])
        table[paths[3]] = cid(3)
        XCTAssertEqual(table.dictionary, [paths[3]: cid(3)])
    }

    /// The store keeps each repository's records apart, and forgets a repository whose records are
    /// all removed.
    func testStoreKeepsRepositoriesApart() async throws {
        let store = InMemoryBackfillStateStore()
        let alice = DID(rawValue: "did:plc:alice")
        let bob = DID(rawValue: "did:plc:bob")
        try await store.setRecordCIDs([("app.bsky.feed.post/b", cid(1)), ("app.bsky.feed.post/c", cid(2))], of: alice)
        try await store.setRecordCIDs([("app.bsky.feed.post/a", cid(3))], of: alice)
        await store.setRecordCID(cid(4), at: "app.bsky.feed.post/a", of: bob)
        let aliceRecords = await store.recordCIDs(of: alice)
        XCTAssertEqual(
            aliceRecords,
            ["app.bsky.feed.post/a": cid(3), "app.bsky.feed.post/b": cid(1), "app.bsky.feed.post/c": cid(2)])
        let bobRecord = await store.recordCID(at: "app.bsky.feed.post/a", of: bob)
        XCTAssertEqual(bobRecord, cid(4))
        try await store.setRecordCIDs(
            [("app.bsky.feed.post/a", nil), ("app.bsky.feed.post/b", nil), ("app.bsky.feed.post/c", nil)], of: alice)
        let emptied = await store.recordCIDs(of: alice)
        XCTAssertEqual(emptied, [:])
    }
}
