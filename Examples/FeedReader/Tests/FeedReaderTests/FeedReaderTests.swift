import FeedReader
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

/// The app's module holds the lexicons it installed, what they refer to, and its own; nothing else.
final class FeedReaderTests: XCTestCase {
    func testTheModuleHoldsOnlyWhatTheAppInstalled() {
        let nsids = Set(FeedReaderSchemas.catalog.nsids)
        XCTAssertTrue(nsids.contains("app.bsky.feed.getTimeline"))
        XCTAssertTrue(nsids.contains("app.bsky.feed.defs"), "refs come along")
        XCTAssertTrue(nsids.contains("com.example.feedreader.bookmark"), "the app's own lexicon")
        XCTAssertFalse(nsids.contains("chat.bsky.convo.getLog"))
        XCTAssertFalse(nsids.contains("tools.ozone.moderation.emitEvent"))
        XCTAssertLessThan(nsids.count, 40, "a handful and their refs, not the 402 of the whole SDK")
        XCTAssertEqual(FeedReaderSchemas.catalog.problems, [])
    }

    func testTheSameAPIAsTheSDK() async throws {
        let page = #"""
            {"cursor":"next","feed":[{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/3k","cid":"bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm",
            "author":{"did":"did:plc:a","handle":"alice.test"},"record":{"$type":"app.bsky.feed.post","text":"hi","createdAt":"2024-01-01T00:00:00.000Z"},
            "indexedAt":"2024-01-01T00:00:01.000Z"}}]}
            """#
        let agent = StubAgent { request in
            XCTAssertEqual(request.nsid, "app.bsky.feed.getTimeline")
            XCTAssertEqual(request.queryItems.first { $0.name == "limit" }?.value, "1")
            return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(page.utf8))
        }
        let client = XRPCClient(agent: agent)
        let timeline = try await client.app.bsky.feed.getTimeline(limit: 1)
        XCTAssertEqual(timeline.cursor, "next")
        let post = try XCTUnwrap(timeline.feed.first?.post)
        XCTAssertEqual(post.author.handle.rawValue, "alice.test")
        XCTAssertEqual(try post.record.decode(as: AppBskyFeedPost.self).text, "hi")

        let bookmark = ComExampleFeedreaderBookmark.saving(post, note: "later")
        XCTAssertEqual(bookmark.subject.uri, post.uri)
        XCTAssertNoThrow(try bookmark.validate())
        XCTAssertEqual(ComExampleFeedreaderBookmark.collection, "com.example.feedreader.bookmark")
    }
}

/// The app against a real PDS (skipped unless ATPROTO_PDS_URL is set; `scripts/pds.sh start`): a
/// password session, a bookmark written and read back through the app's own generated methods.
final class FeedReaderPDSTests: XCTestCase {
    func testABookmarkIsWrittenAndListedThroughTheGeneratedMethods() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ATPROTO_PDS_URL"], let service = URL(string: text) else {
            throw XCTSkip("set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\") to call a PDS")
        }
        let session = PasswordSession(service: service)
        let archive = try await session.login(
            ATIdentifier(rawValue: environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"),
            password: environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2")
        let client = XRPCClient(agent: session)
        let note = "by-url \(UUID().uuidString)"
        let bookmark = ComExampleFeedreaderBookmark(
            subject: ComAtprotoRepoStrongRef(
                uri: "at://did:plc:a/app.bsky.feed.post/3k",
                cid: "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"),
            createdAt: LexiconDatetime.now(), note: note)
        let created = try await client.com.atproto.repo.createRecord(
            repo: ATIdentifier(archive.did), collection: ComExampleFeedreaderBookmark.collection,
            record: LexiconUnknownValue(encoding: bookmark))
        XCTAssertTrue(created.uri.rawValue.hasPrefix("at://\(archive.did.rawValue)/"), created.uri.rawValue)
        let page = try await client.com.atproto.repo.listRecords(
            repo: ATIdentifier(archive.did), collection: ComExampleFeedreaderBookmark.collection,
            limit: 100)
        let notes = try page.records.map { try $0.value.decode(as: ComExampleFeedreaderBookmark.self).note }
        XCTAssertTrue(notes.contains(note), "the bookmark written is listed")
    }
}
