import AtprotoLexicons
import AtprotoTap
import Foundation
import XCTest

/// Record and identity events read into typed values; records into the SDK's generated types, or
/// kept as data when their collection is unknown or they fail their lexicon.
final class TapEventTests: XCTestCase {
    func testRecordsDecodeIntoGeneratedTypesAndIdentitiesIntoFields() async throws {
        let tap = try TapStandIn()
        tap.publish(id: 1, frame: TapFrames.record(id: 1, live: false))
        tap.publish(id: 2, frame: TapFrames.identity(id: 2, status: "deactivated"))
        tap.publish(id: 3, frame: TapFrames.record(id: 3, action: "delete", record: nil))
        var iterator = try TapClient.of(tap).events().makeAsyncIterator()
        let (events, error) = await read(3, from: &iterator)
        XCTAssertNil(error)
        XCTAssertEqual(events.map(\.id), [1, 2, 3])

        let created = try XCTUnwrap(events.first?.record)
        XCTAssertEqual(created.did.rawValue, TapFrames.alice)
        XCTAssertEqual(created.collection.rawValue, "app.bsky.feed.post")
        XCTAssertEqual(created.rkey.rawValue, "3kb3fge5lm32x")
        XCTAssertEqual(created.action, .create)
        XCTAssertEqual(created.cid?.rawValue, TapFrames.cid)
        XCTAssertFalse(created.live)
        XCTAssertEqual(created.uri.rawValue, "at://\(TapFrames.alice)/app.bsky.feed.post/3kb3fge5lm32x")
        let post = try XCTUnwrap(created.record?.as(AppBskyFeedPost.self))
        XCTAssertEqual(post.text, "Hello world!")

        let identity = try XCTUnwrap(events[1].identity)
        XCTAssertEqual(identity.handle?.rawValue, "alice.bsky.social")
        XCTAssertEqual(identity.status, .deactivated)
        XCTAssertFalse(identity.isActive)

        let deleted = try XCTUnwrap(events[2].record)
        XCTAssertEqual(deleted.action, .delete)
        XCTAssertTrue(deleted.live)
        XCTAssertNil(deleted.cid)
        XCTAssertNil(deleted.record)
    }

    func testUnknownCollectionsInvalidRecordsAndUnknownTypesAreKept() async throws {
        let tap = try TapStandIn()
        let thing = #"{"$type":"com.example.thing","size":3}"#
        tap.publish(id: 1, frame: TapFrames.record(id: 1, collection: "com.example.thing", record: thing))
        // A post without its required createdAt: known collection, fails its lexicon.
        tap.publish(id: 2, frame: TapFrames.record(id: 2, record: #"{"$type":"app.bsky.feed.post","text":"hi"}"#))
        tap.publish(id: 3, frame: #"{"id":3,"type":"repo-status","repo-status":{"did":"\#(TapFrames.alice)"}}"#)
        var iterator = try TapClient.of(tap).events().makeAsyncIterator()
        let (events, error) = await read(3, from: &iterator)
        XCTAssertNil(error)
        XCTAssertEqual(events.map(\.id), [1, 2, 3])

        guard case .unknown(let value)? = events.first?.record?.record else {
            return XCTFail("an unknown collection's record is not kept as data: \(String(describing: events.first))")
        }
        XCTAssertEqual(value.json.objectValue?["size"], .integer(3))

        guard case .invalid(let invalid, let reason)? = events[1].record?.record else {
            return XCTFail("a post failing its lexicon is not kept with its reason")
        }
        XCTAssertEqual(invalid.json.objectValue?["text"], .string("hi"))
        XCTAssertTrue("\(reason)".contains("createdAt"), "\(reason)")

        guard case .unknown(let type, let frame) = events[2].kind else { return XCTFail("an unknown type is dropped") }
        XCTAssertEqual(type, "repo-status")
        XCTAssertEqual(frame.json.objectValue?["id"], .integer(3))
    }

    func testTheDefaultTransportsReadTheChannel() async throws {
        let tap = try TapStandIn()
        tap.publish(id: 4, frame: TapFrames.record(id: 4))
        let client = try TapClient(service: tap.url)
        var iterator = client.events().makeAsyncIterator()
        let (events, error) = await read(1, from: &iterator)
        XCTAssertNil(error)
        XCTAssertEqual(events.first?.record?.record?.as(AppBskyFeedPost.self)?.text, "Hello world!")
        XCTAssertEqual(client.channelURL.absoluteString, "ws://127.0.0.1:\(tap.port)/channel")
    }
}
