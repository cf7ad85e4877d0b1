// Social actions' input, checked before anything is sent, and what they send: through a stub agent
// that records every request.

import BlueskyKit
import Foundation
import XCTest
import XRPCTesting

final class SocialActionInputTests: XCTestCase {
    let me: DID = "did:plc:me"
    let post = ComAtprotoRepoStrongRef(
        uri: "at://did:plc:other/app.bsky.feed.post/3k2a",
        cid: "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm")

    /// A client whose every call answers `json` and is recorded.
    func stub(_ json: String = "{}") -> (XRPCClient, StubAgent) {
        let agent = StubAgent(json: json)
        return (XRPCClient(agent: agent), agent)
    }

    /// Runs `action`, which must throw a `BlueskyActionError` of `code`, and returns it.
    func refused(
        _ code: BlueskyActionError.Code, file: StaticString = #filePath, line: UInt = #line,
        _ action: () async throws -> Void
    ) async -> BlueskyActionError? {
        do {
            try await action()
            XCTFail("not refused", file: file, line: line)
        } catch let error as BlueskyActionError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("another error: \(error)", file: file, line: line)
        }
        return nil
    }

    func testUndoingWithAURIOfAnotherCollectionIsRefusedBeforeSending() async throws {
        let (client, agent) = stub()
        let error = await refused(.wrongCollection) { try await client.unlike(self.post.uri) }
        XCTAssertEqual(error?.expected, AppBskyFeedLike.collection)
        XCTAssertEqual(error?.action, "unlike")
        XCTAssertEqual(error?.value, post.uri.rawValue)
        let like: ATURI = "at://did:plc:me/app.bsky.feed.like/3k2b"
        let repost: ATURI = "at://did:plc:me/app.bsky.feed.repost/3k2b"
        _ = await refused(.wrongCollection) { try await client.unrepost(like) }
        _ = await refused(.wrongCollection) { try await client.unfollow(repost) }
        _ = await refused(.wrongCollection) { try await client.unblock(like) }
        _ = await refused(.wrongCollection) { try await client.deletePost(like) }
        _ = await refused(.invalidURI) { try await client.unlike("at://did:plc:me/app.bsky.feed.like") }
        _ = await refused(.invalidURI) { try await client.deleteRecord(at: "https://example.com/a/b") }
        _ = await refused(.invalidURI) { try await client.deleteRecord(at: "at://did:plc:me") }
        XCTAssertEqual(agent.requests.count, 0)
    }

    func testListActionsRefuseAURIThatIsNotAList() async throws {
        let (client, agent) = stub()
        let feed: ATURI = "at://did:plc:other/app.bsky.feed.generator/hot"
        let error = await refused(.wrongCollection) { try await client.muteList(feed) }
        XCTAssertEqual(error?.expected, AppBskyGraphList.collection)
        _ = await refused(.wrongCollection) { try await client.unmuteList(feed) }
        _ = await refused(.wrongCollection) { _ = try await client.blockList(feed, repo: self.me) }
        _ = await refused(.wrongCollection) { _ = try await client.unblockList(feed) }
        _ = await refused(.invalidURI) { try await client.muteList("at://did:plc:other/app.bsky.graph.list") }
        XCTAssertEqual(agent.requests.count, 0)
    }

    func testWritesRefuseBadSubjectsBeforeSending() async throws {
        let (client, agent) = stub()
        let notRepost = ComAtprotoRepoStrongRef(uri: post.uri, cid: post.cid)
        let error = await refused(.wrongCollection) {
            _ = try await client.like(self.post, via: notRepost, repo: self.me)
        }
        XCTAssertEqual(error?.expected, AppBskyFeedRepost.collection)
        let profile = ComAtprotoRepoStrongRef(uri: "at://did:plc:other/app.bsky.actor.profile/self", cid: post.cid)
        _ = await refused(.wrongCollection) { _ = try await client.repost(profile, repo: self.me) }
        let noKey = ComAtprotoRepoStrongRef(uri: "at://did:plc:other", cid: post.cid)
        _ = await refused(.invalidURI) { _ = try await client.like(noKey, repo: self.me) }
        _ = await refused(.subjectIsSelf) { _ = try await client.follow(self.me, repo: self.me) }
        _ = await refused(.subjectIsSelf) { _ = try await client.block(self.me, repo: self.me) }
        _ = await refused(.invalidActor) { _ = try await client.follow("alice.test", repo: self.me) }
        _ = await refused(.invalidActor) { try await client.mute("not an account") }
        XCTAssertEqual(agent.requests.count, 0)
    }

    func testUndoDeletesFromTheRepositoryTheURINames() async throws {
        let (client, agent) = stub(
            #"{"commit":{"cid":"bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm","rev":"3k2a"}}"#)
        try await client.unlike("at://did:plc:me/app.bsky.feed.like/3k2b")
        try await client.deleteRecord(at: "at://alice.test/com.example.thing/self")
        let bodies = try agent.requests.map {
            try JSONSerialization.jsonObject(with: XCTUnwrap($0.body)) as? NSDictionary
        }
        XCTAssertEqual(agent.requests.map(\.nsid), ["com.atproto.repo.deleteRecord", "com.atproto.repo.deleteRecord"])
        XCTAssertEqual(bodies[0], ["repo": "did:plc:me", "collection": "app.bsky.feed.like", "rkey": "3k2b"])
        XCTAssertEqual(bodies[1], ["repo": "alice.test", "collection": "com.example.thing", "rkey": "self"])
    }

    func testMuteScopesAreSentAsTheLexiconsFlags() async throws {
        let (client, agent) = stub()
        try await client.mute("did:plc:other")
        try await client.mute("did:plc:other", scope: .reposts)
        try await client.mute("did:plc:other", scope: MuteScope(onlyReposts: true, onlyQuotePosts: true))
        let bodies = try agent.requests.map {
            try JSONSerialization.jsonObject(with: XCTUnwrap($0.body)) as? NSDictionary
        }
        XCTAssertEqual(bodies[0], ["actor": "did:plc:other"])
        XCTAssertEqual(bodies[1], ["actor": "did:plc:other", "onlyReposts": true])
        XCTAssertEqual(bodies[2], ["actor": "did:plc:other", "onlyReposts": true, "onlyQuoteposts": true])
    }

    func testUnblockListDeletesNothingWhenViewerBlockedIsNotAListBlock() async throws {
        let list = "at://did:plc:other/app.bsky.graph.list/3k2c"
        let view = #"""
            {"list":{"uri":"\#(list)","cid":"bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm",
             "creator":{"did":"did:plc:other","handle":"other.test"},"name":"Spam","purpose":"app.bsky.graph.defs#modlist",
             "indexedAt":"2026-01-01T00:00:00.000Z","viewer":{"blocked":"at://did:plc:me/app.bsky.feed.like/3k2d"}},"items":[]}
            """#
        let (client, agent) = stub(view)
        let error = await refused(.unexpectedAnswer) { _ = try await client.unblockList(ATURI(rawValue: list)) }
        XCTAssertEqual(error?.expected, AppBskyGraphListblock.collection)
        XCTAssertEqual(agent.requests.map(\.nsid), ["app.bsky.graph.getList"])
    }

    func testANotificationsSubjectPostIsTheReasonSubjectOrThePostItself() throws {
        func notification(_ reason: String, uri: String, subject: String?) throws
            -> AppBskyNotificationListNotifications.Notification
        {
            var json: [String: JSONValue] = [
                "uri": .string(uri), "cid": .string(post.cid.rawValue),
                "author": .object(["did": .string("did:plc:other"), "handle": .string("other.test")]),
                "reason": .string(reason),
                "record": .object([:]), "isRead": .bool(false), "indexedAt": .string("2026-01-01T00:00:00.000Z"),
            ]
            if let subject { json["reasonSubject"] = .string(subject) }
            return try AppBskyNotificationListNotifications.Notification(lexiconJSON: .object(json))
        }
        let mine = "at://did:plc:me/app.bsky.feed.post/3k2a"
        let theirs = "at://did:plc:other/app.bsky.feed.post/3k2e"
        XCTAssertEqual(
            BlueskyNotification.subjectURI(
                of: try notification("like", uri: "at://did:plc:other/app.bsky.feed.like/3k2f", subject: mine)),
            ATURI(rawValue: mine))
        XCTAssertEqual(
            BlueskyNotification.subjectURI(
                of: try notification(
                    "repost-via-repost", uri: "at://did:plc:other/app.bsky.feed.repost/3k", subject: mine)),
            ATURI(rawValue: mine))
        XCTAssertEqual(
            BlueskyNotification.subjectURI(of: try notification("reply", uri: theirs, subject: mine)),
            ATURI(rawValue: theirs))
        XCTAssertEqual(
            BlueskyNotification.subjectURI(of: try notification("quote", uri: theirs, subject: mine)),
            ATURI(rawValue: theirs))
        XCTAssertNil(
            BlueskyNotification.subjectURI(
                of: try notification("follow", uri: "at://did:plc:other/app.bsky.graph.follow/3k", subject: nil)))
        // A like of a feed generator has a subject that is not a post.
        XCTAssertNil(
            BlueskyNotification.subjectURI(
                of: try notification(
                    "like", uri: "at://did:plc:other/app.bsky.feed.like/3k",
                    subject: "at://did:plc:me/app.bsky.feed.generator/hot")))
    }

    func testANotificationPageReadsItsSubjectPostsTwentyFiveAtATimeAndDecidesEach() async throws {
        // 30 likes of 30 posts of mine by a muted account, and a follow: two getPosts calls (25 + 5).
        let cid = post.cid.rawValue
        let author = #"{"did":"did:plc:other","handle":"other.test","viewer":{"muted":true}}"#
        var notifications = (0..<30).map { index in
            #"{"uri":"at://did:plc:other/app.bsky.feed.like/3k\#(index)","cid":"\#(cid)","author":\#(author),"#
                + #""reason":"like","reasonSubject":"at://did:plc:me/app.bsky.feed.post/3p\#(index)","#
                + #""record":{},"isRead":false,"indexedAt":"2026-01-01T00:00:00.000Z"}"#
        }
        notifications.append(
            #"{"uri":"at://did:plc:other/app.bsky.graph.follow/3f","cid":"\#(cid)","author":\#(author),"#
                + #""reason":"follow","record":{},"isRead":true,"indexedAt":"2026-01-01T00:00:00.000Z"}"#)
        let list = #"{"cursor":"next","notifications":[\#(notifications.joined(separator: ","))]}"#
        let agent = StubAgent { request in
            var body = list
            if request.nsid == "app.bsky.feed.getPosts" {
                let posts = request.queryItems.filter { $0.name == "uris" }.compactMap(\.value).map { uri in
                    #"{"uri":"\#(uri)","cid":"\#(cid)","author":{"did":"did:plc:me","handle":"me.test"},"#
                        + #""record":{"$type":"app.bsky.feed.post","text":"hi","createdAt":"2026-01-01T00:00:00.000Z"},"#
                        + #""indexedAt":"2026-01-01T00:00:00.000Z"}"#
                }
                body = #"{"posts":[\#(posts.joined(separator: ","))]}"#
            }
            return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let page = try await XRPCClient(agent: agent).notifications(
            moderation: ModerationOptions(viewer: me, preferences: ModerationPreferences()))
        let lookups = agent.requests.filter { $0.nsid == "app.bsky.feed.getPosts" }
        XCTAssertEqual(lookups.map { $0.queryItems.filter { $0.name == "uris" }.count }, [25, 5])
        XCTAssertEqual(page.items.count, 31)
        XCTAssertEqual(page.cursor, "next")
        for (index, item) in page.items.prefix(30).enumerated() {
            XCTAssertEqual(item.subject?.uri, ATURI(rawValue: "at://did:plc:me/app.bsky.feed.post/3p\(index)"))
            XCTAssertEqual(item.subjectDecision?.isMe, true)
        }
        XCTAssertNil(page.items[30].subject)
        XCTAssertTrue(page.items.allSatisfy { $0.decision.muted && $0.decision.ui(.contentList).filter })
    }
}
