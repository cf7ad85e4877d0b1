import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// Generated methods run through an injected agent: the request they build and the output they decode.
final class ClientCallTests: XCTestCase {
    private func jsonResponse(_ text: String, status: Int = 200) -> XRPCResponse {
        XRPCResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    func testCreateRecordPostsJSONInputAndDecodesOutput() async throws {
        let response = jsonResponse(
            #"{"uri": "at://did:plc:abc/app.bsky.feed.post/3kabc", "cid": "bafyreia", "validationStatus": "valid"}"#
        )
        let agent = StubAgent { _ in response }
        let client = XRPCClient(agent: agent)
        let post = AppBskyFeedPost(text: "hello", createdAt: "2024-01-01T00:00:00.000Z", langs: ["en"])
        let output = try await client.com.atproto.repo.createRecord(
            repo: "did:plc:abc",
            collection: "app.bsky.feed.post",
            record: LexiconUnknownValue(encoding: post)
        )
        XCTAssertEqual(output.uri, "at://did:plc:abc/app.bsky.feed.post/3kabc")
        XCTAssertEqual(output.cid.rawValue, "bafyreia")
        XCTAssertEqual(output.validationStatus, .valid)

        let request = try XCTUnwrap(agent.requests.first)
        XCTAssertEqual(agent.requests.count, 1)
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.path, "/xrpc/com.atproto.repo.createRecord")
        XCTAssertEqual(request.queryItems, [])
        XCTAssertEqual(request.contentType, "application/json")
        let body = try JSONValue.parse(try XCTUnwrap(request.body))
        let expected = try JSONValue.parse(
            Data(
                #"""
                {"repo": "did:plc:abc", "collection": "app.bsky.feed.post",
                 "record": {"$type": "app.bsky.feed.post", "text": "hello", "langs": ["en"],
                            "createdAt": "2024-01-01T00:00:00.000Z"}}
                """#.utf8
            )
        )
        XCTAssertEqual(body, expected)
    }

    func testGetTimelineSendsQueryItemsAndDecodesTheFeed() async throws {
        let feedJSON = #"""
            {"cursor": "next", "feed": [
              {"post": {"uri": "at://did:plc:a/app.bsky.feed.post/1", "cid": "bafy1",
                "author": {"did": "did:plc:a", "handle": "a.test", "futureField": {"x": 1}},
                "record": {"$type": "app.bsky.feed.post", "text": "one", "createdAt": "2024-01-01T00:00:00Z"},
                "embed": {"$type": "app.bsky.embed.images#view", "images": [
                  {"thumb": "https://t/1", "fullsize": "https://f/1", "alt": "a cat"}]},
                "likeCount": 3, "indexedAt": "2024-01-01T00:00:01Z"}},
              {"post": {"uri": "at://did:plc:b/app.bsky.feed.post/2", "cid": "bafy2",
                "author": {"did": "did:plc:b", "handle": "b.test"},
                "record": {"$type": "app.bsky.feed.post", "text": "two", "createdAt": "2024-01-02T00:00:00Z"},
                "embed": {"$type": "app.bsky.embed.hologram#view", "depth": 7},
                "indexedAt": "2024-01-02T00:00:01Z"},
               "reason": {"$type": "app.bsky.feed.defs#reasonPin"}}
            ]}
            """#
        let agent = StubAgent { _ in XRPCResponse(status: 200, body: Data(feedJSON.utf8)) }
        let client = XRPCClient(agent: agent)
        let timeline = try await client.app.bsky.feed.getTimeline(cursor: "abc", limit: 2)

        let request = try XCTUnwrap(agent.requests.first)
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.path, "/xrpc/app.bsky.feed.getTimeline")
        XCTAssertEqual(
            request.queryItems, [URLQueryItem(name: "cursor", value: "abc"), URLQueryItem(name: "limit", value: "2")])
        XCTAssertNil(request.body)

        XCTAssertEqual(timeline.cursor, "next")
        XCTAssertEqual(timeline.feed.count, 2)
        let first = timeline.feed[0].post
        XCTAssertEqual(first.author.handle, "a.test")
        XCTAssertEqual(first.likeCount, 3)
        guard case .appBskyEmbedImagesView(let images)? = first.embed else {
            return XCTFail("expected an images view, got \(String(describing: first.embed))")
        }
        XCTAssertEqual(images.images.first?.alt, "a cat")
        let record = try first.record.decode(as: AppBskyFeedPost.self)
        XCTAssertEqual(record.text, "one")
        guard case .unknown(let hologram)? = timeline.feed[1].post.embed else {
            return XCTFail("an embed of a type the union does not list is kept as unknown")
        }
        XCTAssertEqual(hologram.type, "app.bsky.embed.hologram#view")
        guard case .appBskyFeedDefsReasonPin? = timeline.feed[1].reason else {
            return XCTFail("expected a pin reason")
        }
        XCTAssertEqual(first.author.unknownFields["futureField"], .object(["x": .integer(1)]))

        // Nothing is lost: the decoded page writes back as the JSON it came from.
        XCTAssertEqual(timeline.lexiconJSON, try JSONValue.parse(Data(feedJSON.utf8)))
    }

    func testServerErrorsMapToTheDeclaredNamesAndStayOpen() async throws {
        let agent = StubAgent { request in
            let name = request.nsid == "com.atproto.repo.createRecord" ? "InvalidSwap" : "ExpiredToken"
            return XRPCResponse(status: 400, body: Data(#"{"error": "\#(name)", "message": "nope"}"#.utf8))
        }
        let client = XRPCClient(agent: agent)
        do {
            _ = try await client.com.atproto.repo.createRecord(
                repo: "did:plc:abc",
                collection: "app.bsky.feed.post",
                record: LexiconUnknownValue(.object([:]))
            )
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(error.declaredError(for: ComAtprotoRepoCreateRecord.self), .invalidSwap)
            XCTAssertEqual(error.message, "nope")
        }
        do {
            _ = try await client.app.bsky.feed.getTimeline()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, .serverError)
            XCTAssertEqual(error.serverError?.code(for: AppBskyFeedGetTimeline.self).name, "ExpiredToken")
        }
    }

    func testRecursiveThreadDecodesThroughBoxedParents() throws {
        let json = #"""
            {"thread": {"$type": "app.bsky.feed.defs#threadViewPost",
              "post": {"uri": "at://x/app.bsky.feed.post/2", "cid": "c2", "author": {"did": "did:plc:x", "handle": "x.test"},
                       "record": {}, "indexedAt": "2024-01-01T00:00:00Z"},
              "parent": {"$type": "app.bsky.feed.defs#threadViewPost",
                "post": {"uri": "at://x/app.bsky.feed.post/1", "cid": "c1", "author": {"did": "did:plc:x", "handle": "x.test"},
                         "record": {}, "indexedAt": "2024-01-01T00:00:00Z"},
                "parent": {"$type": "app.bsky.feed.defs#notFoundPost", "uri": "at://x/app.bsky.feed.post/0", "notFound": true}}}}
            """#
        let output = try AppBskyFeedGetPostThread.Output(lexiconJSON: JSONValue.parse(Data(json.utf8)))
        guard case .appBskyFeedDefsThreadViewPost(let thread) = output.thread,
            case .appBskyFeedDefsThreadViewPost(let parent)? = thread.parent,
            case .appBskyFeedDefsNotFoundPost(let root)? = parent.parent
        else {
            return XCTFail("unexpected thread shape: \(output.thread)")
        }
        XCTAssertEqual(parent.post.cid, "c1")
        XCTAssertEqual(root.uri, "at://x/app.bsky.feed.post/0")
    }

    func testBoxedFieldsKeepValueSemantics() throws {
        let json = #"""
            {"post": {"uri": "at://x/app.bsky.feed.post/1", "cid": "c1",
                      "author": {"did": "did:plc:x", "handle": "x.test", "displayName": "Before"},
                      "record": {}, "indexedAt": "2024-01-01T00:00:00Z", "viewer": {"like": "at://x/l/1"}}}
            """#
        let original = try AppBskyFeedDefs.FeedViewPost(lexiconJSON: JSONValue.parse(Data(json.utf8)))
        var copy = original
        copy.post.author.displayName = "After"
        copy.post.viewer?.like = nil
        copy.reply = nil
        XCTAssertEqual(original.post.author.displayName, "Before", "a write to a copy never reaches the original")
        XCTAssertEqual(original.post.viewer?.like, "at://x/l/1")
        XCTAssertEqual(copy.post.author.displayName, "After")
        XCTAssertNil(copy.post.viewer?.like)
        XCTAssertNotEqual(copy, original)
        // Boxed fields write back exactly what was read.
        XCTAssertEqual(original.lexiconJSON, try JSONValue.parse(Data(json.utf8)))
        copy.post.viewer = nil
        XCTAssertNil(copy.post.viewer)
    }

    func testTypesRoundTripThroughCodable() throws {
        let post = AppBskyFeedPost(
            text: "hi", createdAt: "2024-01-01T00:00:00.000Z",
            labels: .comAtprotoLabelDefsSelfLabels(.init(values: [.init(val: "!hide")])),
            unknownFields: ["extra": .bool(true)])
        let data = try JSONEncoder().encode(post)
        let decoded = try JSONDecoder().decode(AppBskyFeedPost.self, from: data)
        XCTAssertEqual(decoded, post)
        XCTAssertEqual(decoded.unknownFields["extra"], .bool(true))
        XCTAssertEqual(AppBskyFeedPost.collection, "app.bsky.feed.post")
        XCTAssertEqual(AppBskyFeedPost.recordKey, .tid)
    }

    func testMalformedKnownUnionMemberIsKeptWithItsErrorAndThePageSurvives() throws {
        let json = #"""
            {"feed": [
              {"post": {"uri": "at://x/app.bsky.feed.post/1", "cid": "c1", "author": {"did": "did:plc:x", "handle": "x.test"},
                "record": {}, "indexedAt": "2024-01-01T00:00:00Z",
                "embed": {"$type": "app.bsky.embed.images#view", "images": "not an array"}}},
              {"post": {"uri": "at://x/app.bsky.feed.post/2", "cid": "c2", "author": {"did": "did:plc:x", "handle": "x.test"},
                "record": {}, "indexedAt": "2024-01-01T00:00:00Z"}}
            ]}
            """#
        let input = try JSONValue.parse(Data(json.utf8))
        let page = try AppBskyFeedGetTimeline.Output(lexiconJSON: input)
        XCTAssertEqual(page.feed.count, 2)
        guard case .invalid(let invalid)? = page.feed[0].post.embed else {
            return XCTFail("expected the malformed embed to be kept as invalid")
        }
        XCTAssertEqual(invalid.error.path, ["images"])
        XCTAssertEqual(invalid.error.message, "expected array, found string")
        XCTAssertEqual(page.lexiconJSON, input, "the malformed member is written back unchanged")
    }

    func testClosedUnionRejectsAnUnlistedTypeNamingIt() throws {
        let json =
            #"{"repo": "did:plc:x", "writes": [{"$type": "com.atproto.repo.applyWrites#upsert", "collection": "a.b.c"}]}"#
        XCTAssertThrowsError(try ComAtprotoRepoApplyWrites.Input(lexiconJSON: JSONValue.parse(Data(json.utf8)))) {
            error in
            let decodingError = error as? LexiconDecodingError
            XCTAssertEqual(decodingError?.path, ["writes", "0"])
            XCTAssertTrue(decodingError?.message.contains("com.atproto.repo.applyWrites#upsert") ?? false)
        }
    }
}
