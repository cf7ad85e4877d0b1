// Social actions and notifications through the shared PDS (`scripts/pds.sh start`) and its AppView's
// views: each action's effect read back as an app would (viewer state, counts), then undone. Each
// test on new accounts; skipped without ATPROTO_PDS_URL.
//
//   eval "$(scripts/pds.sh start)" && swift test --filter SocialIntegrationTests; scripts/pds.sh stop

import BlueskyKit
import Foundation
import XCTest

final class SocialIntegrationTests: XCTestCase {
    /// A signed-in account: its client and DID.
    struct Account {
        let client: XRPCClient
        let did: DID
    }

    /// A new account on the PDS, signed in.
    func account(_ name: String) async throws -> Account {
        guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], !text.isEmpty else {
            throw XCTSkip("ATPROTO_PDS_URL is not set: run eval \"$(scripts/pds.sh start)\" first")
        }
        let url = try XCTUnwrap(URL(string: text))
        let handle = "\(name)\(UInt32.random(in: 0...UInt32.max)).test"
        let password = "pw-\(UUID().uuidString)"
        _ = try await XRPCClient(agent: URLSessionAgent(serviceURL: url)).com.atproto.server.createAccount(
            handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
        let session = PasswordSession(service: url)
        let created = try await session.login(ATIdentifier(rawValue: handle), password: password)
        return Account(client: XRPCClient(agent: session), did: created.did)
    }

    func publish(_ text: String, by account: Account) async throws -> ComAtprotoRepoStrongRef {
        try await account.client.publishPost(BlueskyPostDraft(text: RichText(text: text)), repo: account.did).strongRef
    }

    /// `uri` as `viewer` sees it.
    func view(_ uri: ATURI, by viewer: Account) async throws -> AppBskyFeedDefs.PostView {
        let posts = try await viewer.client.app.bsky.feed.getPosts(uris: [uri]).posts
        return try XCTUnwrap(posts.first)
    }

    func profile(_ did: DID, by viewer: Account) async throws -> AppBskyActorDefs.ProfileViewDetailed {
        try await viewer.client.app.bsky.actor.getProfile(actor: ATIdentifier(did))
    }

    func testLikeSetsViewerLikeAndCountsAndUnlikeUndoesBoth() async throws {
        let (alice, bob) = (try await account("like"), try await account("liked"))
        let post = try await publish("like me", by: bob)
        let like = try await alice.client.like(post, repo: alice.did)
        XCTAssertEqual(like.uri.collection, AppBskyFeedLike.collection)
        XCTAssertEqual(like.uri.authority, ATIdentifier(alice.did))
        var seen = try await view(post.uri, by: alice)
        XCTAssertEqual(seen.viewer?.like, like.uri)
        XCTAssertEqual(seen.likeCount, 1)
        let likers = try await bob.client.app.bsky.feed.getLikes(uri: post.uri).likes.map(\.actor.did)
        XCTAssertEqual(likers, [alice.did])

        try await alice.client.unlike(try XCTUnwrap(seen.viewer?.like))
        seen = try await view(post.uri, by: alice)
        XCTAssertNil(seen.viewer?.like)
        XCTAssertEqual(seen.likeCount, 0)

        // Liked through its view, undone by the URI the call returned.
        let again = try await alice.client.like(seen, repo: alice.did)
        let read1 = try await view(post.uri, by: alice).likeCount
        XCTAssertEqual(read1, 1)
        try await alice.client.unlike(again.uri)
        let read2 = try await view(post.uri, by: alice).likeCount
        XCTAssertEqual(read2, 0)
    }

    func testRepostThroughARepostNamesItAndUnrepostUndoesIt() async throws {
        let (alice, bob, carol) = (try await account("rp"), try await account("rpd"), try await account("rpvia"))
        let post = try await publish("repost me", by: bob)
        let carolsRepost = try await carol.client.repost(post, repo: carol.did)
        // Alice follows carol and sees the post in her timeline through carol's repost.
        try await alice.client.follow(carol.did, repo: alice.did)
        let timeline = try await alice.client.app.bsky.feed.getTimeline(limit: 10).feed
        let item = try XCTUnwrap(timeline.first { $0.post.uri == post.uri })
        XCTAssertEqual(item.viaRepost, carolsRepost)
        let repost = try await alice.client.repost(item.post, via: item.viaRepost, repo: alice.did)
        var seen = try await view(post.uri, by: alice)
        XCTAssertEqual(seen.viewer?.repost, repost.uri)
        XCTAssertEqual(seen.repostCount, 2)
        let reposters = try await bob.client.app.bsky.feed.getRepostedBy(uri: post.uri).repostedBy.map(\.did)
        XCTAssertEqual(Set(reposters), [alice.did, carol.did])
        // The via reached carol: she is told her repost was reposted.
        let carolsPage = try await carol.client.notifications(
            moderation: ModerationOptions(viewer: carol.did, preferences: ModerationPreferences()),
            reasons: [.repostViaRepost, .likeViaRepost])
        XCTAssertEqual(carolsPage.items.map(\.notification.reason), [.repostViaRepost])
        XCTAssertEqual(carolsPage.items.first?.notification.reasonSubject, carolsRepost.uri)

        // A like through the same repost.
        let like = try await alice.client.like(post, via: carolsRepost, repo: alice.did)
        let likeRecord = try await alice.client.getRecord(
            AppBskyFeedLike.self, repo: ATIdentifier(alice.did), rkey: try XCTUnwrap(like.uri.rkey))
        XCTAssertEqual(likeRecord.value.via, carolsRepost)

        try await alice.client.unrepost(try XCTUnwrap(seen.viewer?.repost))
        seen = try await view(post.uri, by: alice)
        XCTAssertNil(seen.viewer?.repost)
        XCTAssertEqual(seen.repostCount, 1)
    }

    func testFollowAndUnfollowThroughTheProfilesViewerState() async throws {
        let (alice, bob) = (try await account("follow"), try await account("followed"))
        let follow = try await alice.client.follow(bob.did, repo: alice.did)
        var seen = try await profile(bob.did, by: alice)
        XCTAssertEqual(seen.viewer?.following, follow.uri)
        XCTAssertEqual(seen.followersCount, 1)
        let read3 = try await profile(alice.did, by: bob).viewer?.followedBy
        XCTAssertEqual(read3, follow.uri)
        let followers = try await bob.client.app.bsky.graph.getFollowers(actor: ATIdentifier(bob.did)).followers
        XCTAssertEqual(followers.map(\.did), [alice.did])

        try await alice.client.unfollow(try XCTUnwrap(seen.viewer?.following))
        seen = try await profile(bob.did, by: alice)
        XCTAssertNil(seen.viewer?.following)
        XCTAssertEqual(seen.followersCount, 0)
    }

    func testBlockAndUnblock() async throws {
        let (alice, bob) = (try await account("block"), try await account("blocked"))
        let block = try await alice.client.block(bob.did, repo: alice.did)
        let read4 = try await profile(bob.did, by: alice).viewer?.blocking
        XCTAssertEqual(read4, block.uri)
        let read5 = try await profile(alice.did, by: bob).viewer?.blockedBy
        XCTAssertEqual(read5, true)
        let blocked = try await alice.client.app.bsky.graph.getBlocks().blocks.map(\.did)
        XCTAssertEqual(blocked, [bob.did])

        let seen = try await profile(bob.did, by: alice)
        try await alice.client.unblock(try XCTUnwrap(seen.viewer?.blocking))
        let read6 = try await profile(bob.did, by: alice).viewer?.blocking
        XCTAssertNil(read6)
        let read7 = try await profile(alice.did, by: bob).viewer?.blockedBy
        XCTAssertEqual(read7, false)
    }

    func testMuteScopesShowInTheProfileAndUnmuteClearsThem() async throws {
        let (alice, bob) = (try await account("mute"), try await account("muted"))
        let actor = ATIdentifier(bob.did)
        try await alice.client.mute(actor)
        var viewer = try await profile(bob.did, by: alice).viewer
        XCTAssertEqual(viewer?.muted, true)
        let read8 = try await alice.client.app.bsky.graph.getMutes().mutes.map(\.did)
        XCTAssertEqual(read8, [bob.did])

        try await alice.client.mute(actor, scope: .reposts)
        viewer = try await profile(bob.did, by: alice).viewer
        XCTAssertEqual(viewer?.muted, false)
        XCTAssertEqual(viewer?.mutedOnlyReposts, true)
        XCTAssertEqual(viewer?.mutedOnlyQuoteposts, false)

        try await alice.client.mute(actor, scope: .quotePosts)
        viewer = try await profile(bob.did, by: alice).viewer
        XCTAssertEqual(viewer?.mutedOnlyReposts, false)
        XCTAssertEqual(viewer?.mutedOnlyQuoteposts, true)

        try await alice.client.unmute(actor)
        viewer = try await profile(bob.did, by: alice).viewer
        XCTAssertEqual(viewer?.muted, false)
        XCTAssertEqual(viewer?.mutedOnlyQuoteposts, false)
        let read9 = try await alice.client.app.bsky.graph.getMutes().mutes.count
        XCTAssertEqual(read9, 0)
    }

    func testListMuteAndListBlockThroughTheListsViewerState() async throws {
        let (alice, bob) = (try await account("lists"), try await account("listed"))
        let list = try await alice.client.createRecord(
            AppBskyGraphList(name: "Spam", purpose: .modlist, createdAt: .now()), repo: ATIdentifier(alice.did))
        try await alice.client.createRecord(
            AppBskyGraphListitem(subject: bob.did, list: list.uri, createdAt: .now()), repo: ATIdentifier(alice.did))

        try await alice.client.muteList(list.uri)
        let read10 = try await alice.client.app.bsky.graph.getList(list: list.uri).list.viewer?.muted
        XCTAssertEqual(read10, true)
        let read11 = try await profile(bob.did, by: alice).viewer?.mutedByList?.uri
        XCTAssertEqual(read11, list.uri)
        try await alice.client.unmuteList(list.uri)
        let read12 = try await alice.client.app.bsky.graph.getList(list: list.uri).list.viewer?.muted
        XCTAssertEqual(read12, false)

        let block = try await alice.client.blockList(list.uri, repo: alice.did)
        XCTAssertEqual(block.uri.collection, AppBskyGraphListblock.collection)
        let read13 = try await alice.client.app.bsky.graph.getList(list: list.uri).list.viewer?.blocked
        XCTAssertEqual(read13, block.uri)
        let read14 = try await profile(bob.did, by: alice).viewer?.blockingByList?.uri
        XCTAssertEqual(read14, list.uri)
        let unblocked = try await alice.client.unblockList(list.uri)
        XCTAssertEqual(unblocked, block.uri)
        let read15 = try await alice.client.app.bsky.graph.getList(list: list.uri).list.viewer?.blocked
        XCTAssertNil(read15)
        let read16 = try await profile(bob.did, by: alice).viewer?.blockingByList
        XCTAssertNil(read16)
        let again = try await alice.client.unblockList(list.uri)
        XCTAssertNil(again, "a list not blocked has nothing to undo")
    }

    func testDeletingAPostAndAnyRecordByItsURI() async throws {
        let alice = try await account("delete")
        let first = try await publish("soon gone", by: alice)
        let second = try await publish("also gone", by: alice)
        try await alice.client.deletePost(first.uri)
        try await alice.client.deleteRecord(at: second.uri)
        let left = try await alice.client.app.bsky.feed.getPosts(uris: [first.uri, second.uri]).posts
        XCTAssertEqual(left.count, 0)
    }

    func testNotificationsCountPageWithDecisionsAndSubjectsAndSeen() async throws {
        let (alice, bob) = (try await account("notify"), try await account("notified"))
        let post = try await publish("tell me", by: bob)
        try await alice.client.like(post, repo: alice.did)
        try await alice.client.follow(bob.did, repo: alice.did)
        let postView = try await view(post.uri, by: alice)
        let reply = try await alice.client.publishPost(
            BlueskyPostDraft(text: RichText(text: "a reply"), reply: try BlueskyReplyTarget(postView)), repo: alice.did)

        let read17 = try await bob.client.unreadNotificationCount()
        XCTAssertEqual(read17, 3)
        let page = try await bob.client.notifications(
            moderation: ModerationOptions(viewer: bob.did, preferences: ModerationPreferences()))
        let byReason = Dictionary(uniqueKeysWithValues: page.items.map { ($0.notification.reason, $0) })
        XCTAssertEqual(Set(byReason.keys), [.like, .follow, .reply])
        XCTAssertEqual(byReason[.like]?.subject?.uri, post.uri)
        XCTAssertEqual(byReason[.reply]?.subject?.uri, reply.strongRef.uri)
        XCTAssertNil(byReason[.follow]?.subject)
        XCTAssertNotNil(byReason[.like]?.subjectDecision)
        for item in page.items {
            XCTAssertEqual(item.decision.did, alice.did)
            XCTAssertFalse(item.decision.ui(.contentList).filter)
            XCTAssertFalse(item.notification.isRead)
        }

        let muting = ModerationOptions(viewer: bob.did, preferences: ModerationPreferences())
        try await bob.client.markNotificationsSeen()
        let read18 = try await bob.client.unreadNotificationCount()
        XCTAssertEqual(read18, 0)
        let read = try await bob.client.notifications(moderation: muting, limit: 2)
        XCTAssertEqual(read.items.count, 2)
        XCTAssertTrue(read.items.allSatisfy(\.notification.isRead))
        XCTAssertNotNil(read.cursor)
        let rest = try await bob.client.notifications(moderation: muting, limit: 2, cursor: read.cursor)
        XCTAssertEqual(rest.items.count, 1)
    }
}
