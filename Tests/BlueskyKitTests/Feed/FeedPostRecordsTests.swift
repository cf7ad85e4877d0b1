import BlueskyKit
import Foundation
import XCTest
import XRPCTesting

/// The typed records of a feed page: the ones that decode, and the odd ones kept apart.
final class FeedPostRecordsTests: XCTestCase {
    private static let did = "did:plc:abc"
    private var did: String { Self.did }

    private static func json(_ value: JSONValue) -> XRPCResponse {
        XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: value.serialized())
    }

    private static func postView(_ index: Int, record: JSONValue) -> JSONValue {
        .object([
            "uri": .string("at://\(did)/app.bsky.feed.post/rk\(index)"), "cid": .string("bafyrei\(index)"),
            "author": .object(["did": .string(did), "handle": .string("alice.test")]),
            "record": record, "indexedAt": .string("2024-01-01T00:00:00Z"),
        ])
    }

    func testAFeedPagesPostRecordsDecodeAndAnOddOneIsKeptApart() async throws {
        let good = JSONValue.object([
            "$type": .string("app.bsky.feed.post"), "text": .string("hello"),
            "createdAt": .string("2024-01-01T00:00:00Z"),
        ])
        let odd = JSONValue.object(["$type": .string("app.bsky.feed.post"), "text": .array([])])
        let agent = StubAgent { _ in
            Self.json(
                .object([
                    "feed": .array([
                        .object(["post": Self.postView(1, record: good)]),
                        .object(["post": Self.postView(2, record: odd)]),
                    ])
                ]))
        }
        let page = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline(limit: 2)
        let posts = page.feed.postRecords()
        XCTAssertEqual(posts.posts.map(\.record.text), ["hello"])
        XCTAssertEqual(posts.posts.first?.view.author.handle, "alice.test")
        XCTAssertEqual(posts.invalid.map(\.view.uri.rawValue), ["at://\(did)/app.bsky.feed.post/rk2"])
        XCTAssertEqual(page.feed.map(\.post).postRecords(), posts)
        XCTAssertThrowsError(try page.feed[1].post.postRecord())
    }
}
