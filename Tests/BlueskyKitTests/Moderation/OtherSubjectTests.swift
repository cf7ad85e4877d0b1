// Notifications, feed generators and lists: their own labels count as content labels, their author's
// or creator's relationships and labels as for a post; the viewer's own are never filtered.

import AtprotoLexicons
import BlueskyChat
import BlueskyKit
import XCTest
import XRPCRuntime

final class OtherSubjectTests: XCTestCase {
    let labeler: DID = "did:web:labeler.test"
    var options: ModerationOptions { Mock.options(labelers: [LabelerSettings(did: labeler)]) }

    func hide(_ uri: String) -> ComAtprotoLabelDefs.Label { Mock.label("!hide", uri: uri, src: labeler) }

    func testANotificationCarriesItsLabelsAndItsAuthorsMute() {
        let author = Mock.fullProfile(Mock.profile("bob.test", viewer: AppBskyActorDefs.ViewerState(muted: true)))
        let notification = AppBskyNotificationListNotifications.Notification(
            uri: "at://did:web:bob.test/app.bsky.feed.post/fake", cid: Mock.cid, author: author, reason: "reply",
            record: LexiconUnknownValue(encoding: Mock.post("hi")), isRead: false, indexedAt: Mock.time)
        XCTAssertEqual(options.decide(notification: notification).ui(.contentList).flags, [.filter, .blur])
        var labeled = notification
        labeled.author = Mock.fullProfile(Mock.profile("bob.test"))
        labeled.labels = [hide("at://did:web:bob.test/app.bsky.feed.post/fake")]
        XCTAssertEqual(options.decide(notification: labeled).ui(.contentView).flags, [.blur, .noOverride])
    }

    func testAFeedGeneratorByABlockedCreator() {
        let creator = Mock.fullProfile(
            Mock.profile(
                "bob.test",
                viewer: AppBskyActorDefs.ViewerState(blocking: "at://did:web:alice.test/app.bsky.graph.block/1")))
        let feed = AppBskyFeedDefs.GeneratorView(
            uri: "at://did:web:bob.test/app.bsky.feed.generator/cats", cid: Mock.cid, did: "did:web:feed.test",
            creator: creator,
            displayName: "Cats", indexedAt: Mock.time)
        let decision = options.decide(feedGenerator: feed)
        XCTAssertTrue(decision.blocked)
        XCTAssertEqual(decision.ui(.contentList).flags, [.filter, .blur, .noOverride])
        XCTAssertEqual(decision.ui(.avatar).flags, [.blur, .noOverride])
    }

    func testListsByTheirLabelsAndTheirCreator() {
        let uri = "at://did:web:bob.test/app.bsky.graph.list/fake"
        let list = AppBskyGraphDefs.ListView(
            uri: ATURI(rawValue: uri), cid: Mock.cid, creator: Mock.fullProfile(Mock.profile("bob.test")), name: "Bad",
            purpose: "app.bsky.graph.defs#curatelist", indexedAt: Mock.time, labels: [hide(uri)])
        XCTAssertEqual(options.decide(list: list).ui(.contentList).flags, [.filter, .blur, .noOverride])
        var basic = Mock.list()
        basic.uri = ATURI(rawValue: uri)
        basic.labels = [hide(uri)]
        let decision = options.decide(list: basic)
        XCTAssertEqual(decision.did, "did:web:bob.test")
        XCTAssertEqual(decision.ui(.contentView).flags, [.blur, .noOverride])
        let own = Mock.options(viewer: "did:web:bob.test", labelers: [LabelerSettings(did: labeler)]).decide(
            list: basic)
        XCTAssertTrue(own.isMe)
        XCTAssertEqual(own.ui(.contentList).flags, [.blur])
    }

    func testAStatusCarriesItsLabelsAndItsAccountsRelationships() {
        let statusURI = "at://did:web:bob.test/app.bsky.actor.status/self"
        var profile = Mock.profile("bob.test")
        profile.status = AppBskyActorDefs.StatusView(
            status: "app.bsky.actor.status#live", record: LexiconUnknownValue(encoding: Mock.post("live")),
            labels: [hide(statusURI)], uri: ATURI(rawValue: statusURI))
        XCTAssertEqual(options.decide(status: profile).ui(.contentList).flags, [.filter, .blur, .noOverride])
        XCTAssertEqual(
            options.decide(profile: profile).ui(.contentList).flags, [], "the status's label is not the profile's")
        var muted = Mock.profile("bob.test", viewer: AppBskyActorDefs.ViewerState(muted: true))
        muted.status = AppBskyActorDefs.StatusView(
            status: "app.bsky.actor.status#live", record: LexiconUnknownValue(encoding: Mock.post("live")))
        XCTAssertEqual(options.decide(status: muted).ui(.contentList).flags, [.filter, .blur])
        XCTAssertEqual(options.decide(status: Mock.fullProfile(Mock.profile("bob.test"))).ui(.contentList).flags, [])
    }

    func testAChatProfileIsAProfile() {
        let chat = ChatBskyActorDefs.ProfileViewBasic(
            did: "did:web:bob.test", handle: "bob.test", viewer: AppBskyActorDefs.ViewerState(blockedBy: true))
        XCTAssertEqual(options.decide(profile: chat).ui(.profileList).flags, [.filter, .blur, .noOverride])
    }

    func testAPostQuotingABlockedPostIsLeftOutOfListsButNotCovered() {
        let blocked = AppBskyEmbedRecord.ViewBlocked(
            uri: "at://did:web:carla.test/app.bsky.feed.post/q", blocked: true,
            author: AppBskyFeedDefs.BlockedAuthor(
                did: "did:web:carla.test", viewer: AppBskyActorDefs.ViewerState(blockedBy: true)))
        let post = Mock.postView(
            Mock.post("look"), author: Mock.profile("bob.test"),
            embed: .appBskyEmbedRecordView(AppBskyEmbedRecord.View(record: .appBskyEmbedRecordViewBlocked(blocked))))
        let decision = options.decide(post: post)
        XCTAssertEqual(decision.ui(.contentList).flags, [.filter])
        XCTAssertEqual(decision.ui(.contentView).flags, [])
    }

    func testHidingAQuotedPostHidesThePostsQuotingIt() {
        let quoted = "at://did:web:carla.test/app.bsky.feed.post/fake"
        let post = Mock.postView(
            Mock.post("look"), author: Mock.profile("bob.test"),
            embed: Mock.quote(Mock.post("q"), author: Mock.profile("carla.test")))
        let decision = Mock.options(hiddenPosts: [quoted]).decide(post: post)
        XCTAssertEqual(decision.ui(.contentList).flags, [.filter, .blur])
        XCTAssertEqual(decision.ui(.contentView).flags, [.blur])
    }
}
