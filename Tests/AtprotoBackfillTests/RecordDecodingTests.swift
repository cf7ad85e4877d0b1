import Foundation
import XCTest

@testable import AtprotoBackfill

/// A fetched repository's records reach the app decoded on the app's reader: the block an event
/// carries is decoded by `events` and `eventBatches`, into its type, kept as data for an unknown
/// collection, and reported (not dropped) when it is not DAG-CBOR.
final class RecordDecodingTests: XCTestCase {
    private let did = DID(rawValue: "did:plc:decoding")

    private func event(_ collection: String, block: [UInt8], id: UInt64 = 1) -> BackfillEvent {
        BackfillEvent(
            repo: did, action: .create, collection: NSID(rawValue: collection), recordKey: RecordKey(rawValue: "3kabc"),
            cid: CID(sha256Of: block), record: nil, encodedRecord: Data(block), isHistorical: true, rev: "3kaaa",
            sequence: nil, id: id, acknowledgements: nil)
    }

    private var post: [UInt8] {
        DAGCBOR.encode(
            .map([
                "$type": .string("app.bsky.feed.post"), "text": .string("decoded on the reader"),
                "createdAt": .string("2026-01-01T00:00:00.000Z"),
            ]))
    }

    func testABlockIsDecodedIntoItsTypeOnce() throws {
        let decoded = event("app.bsky.feed.post", block: post).decoded(with: .bluesky)
        XCTAssertEqual(decoded.record?.as(AppBskyFeedPost.self)?.text, "decoded on the reader")
        XCTAssertNil(decoded.encodedRecord, "the block is let go once decoded")
        // Decoding again changes nothing (an event made by the app has no block).
        XCTAssertEqual(decoded.decoded(with: .bluesky).record?.as(AppBskyFeedPost.self)?.text, "decoded on the reader")
    }

    func testAnUnknownCollectionIsKeptAsData() throws {
        let block = DAGCBOR.encode(.map(["$type": .string("com.example.thing"), "size": .integer(3)]))
        guard case .unknown(let value) = event("com.example.thing", block: block).decoded(with: .bluesky).record else {
            return XCTFail("an unknown collection is kept as data")
        }
        guard case .object(let fields) = value.json else { return XCTFail("not an object: \(value.json)") }
        XCTAssertEqual(fields["size"], .integer(3))
    }

    func testABlockThatIsNotDAGCBORIsReportedNotDropped() throws {
        let decoded = event("app.bsky.feed.post", block: [0xff, 0x00, 0x13]).decoded(with: .bluesky)
        guard case .invalid(_, let reason) = decoded.record else {
            return XCTFail(
                "a block that does not decode is delivered as invalid, got \(String(describing: decoded.record))")
        }
        XCTAssertTrue(reason.message.contains("app.bsky.feed.post/3kabc"), reason.message)
        XCTAssertTrue(reason.message.contains("not DAG-CBOR"), reason.message)
    }

    func testBothReadersDecode() async throws {
        let channel = EventChannel<BackfillEvent>(capacity: 8)
        _ = await channel.send(contentsOf: [event("app.bsky.feed.post", block: post, id: 1)])
        var events = BackfillThenLive.Events(channel: channel, types: .bluesky).makeAsyncIterator()
        let one = try await events.next()
        XCTAssertEqual(one?.record?.as(AppBskyFeedPost.self)?.text, "decoded on the reader")

        _ = await channel.send(contentsOf: [
            event("app.bsky.feed.post", block: post, id: 2), event("app.bsky.feed.post", block: post, id: 3),
        ])
        var batches = BackfillThenLive.EventBatches(channel: channel, limit: 8, types: .bluesky).makeAsyncIterator()
        let batch = try await batches.next() ?? []
        XCTAssertEqual(batch.count, 2)
        XCTAssertEqual(batch.compactMap { $0.record?.as(AppBskyFeedPost.self)?.text }.count, 2)
    }
}
