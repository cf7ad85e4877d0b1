// Muted words on whole posts (the post-level cases of packages/api/tests/moderation-mutewords.test.ts):
// the viewer's own posts, expiry, followed authors, and the alt texts of galleries in and around
// quoted posts.

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime

final class MutedWordPostTests: XCTestCase {
    let bob = Mock.profile("bob.test", displayName: "Bob")
    let carol = Mock.profile("carol.test", displayName: "Carol")

    func options(_ words: [AppBskyActorDefs.MutedWord], viewer: DID = "did:web:alice.test") -> ModerationOptions {
        Mock.options(viewer: viewer, adultContentEnabled: false, mutedWords: words)
    }

    func isMutedWord(_ cause: ModerationCause) -> Bool {
        if case .mutedWord = cause.kind { return true }
        return false
    }

    func testSomeoneElsesPostIsMuted() {
        let decision = options([Mock.mutedWord("words")]).decide(
            post: Mock.postView(Mock.post("Mute words!"), author: bob))
        XCTAssertEqual(decision.causes.count, 1)
        XCTAssertTrue(decision.causes.first.map(isMutedWord) ?? false)
        XCTAssertEqual(decision.ui(.contentList).flags, [.filter, .blur])
        XCTAssertEqual(decision.ui(.contentView).flags, [.blur])
    }

    func testTheViewersOwnPostIsNeverMuted() {
        let own = options([Mock.mutedWord("words")], viewer: bob.did)
        XCTAssertEqual(own.decide(post: Mock.postView(Mock.post("Mute words!"), author: bob)).causes.count, 0)
        let tagged = Mock.post("Mute #words!", facets: [Mock.tagFacet("words", start: 5, end: 11)])
        let ownTag = options([Mock.mutedWord("words", targets: ["tags"])], viewer: bob.did)
        XCTAssertEqual(ownTag.decide(post: Mock.postView(tagged, author: bob)).causes.count, 0)
    }

    func testAWordMutesUntilItExpires() {
        let now = Date()
        let later = Mock.mutedWord("words", expiresAt: LexiconDatetime(now.addingTimeInterval(1)))
        let earlier = Mock.mutedWord("words", expiresAt: LexiconDatetime(now.addingTimeInterval(-1)))
        let post = Mock.postView(Mock.post("Mute words!"), author: bob)
        XCTAssertTrue(options([later]).decide(post: post).causes.first.map(isMutedWord) ?? false)
        XCTAssertEqual(options([earlier]).decide(post: post).causes.count, 0)
    }

    func testExcludeFollowingSparesFollowedAuthorsOnly() {
        let words = [Mock.mutedWord("words", actorTarget: "exclude-following")]
        let followed = Mock.profile(
            "bob.test",
            viewer: AppBskyActorDefs.ViewerState(following: "at://did:web:alice.test/app.bsky.graph.follow/1"))
        let stranger = Mock.profile("carla.test", viewer: AppBskyActorDefs.ViewerState())
        XCTAssertEqual(
            options(words).decide(post: Mock.postView(Mock.post("Mute words!"), author: followed)).causes.count, 0)
        let strangers = options(words).decide(post: Mock.postView(Mock.post("Mute words!"), author: stranger))
        XCTAssertTrue(strangers.causes.first.map(isMutedWord) ?? false)
    }

    // Galleries.

    static func gallery(_ alts: [String]) -> AppBskyEmbedGallery {
        let blob = LexiconBlob(ref: CIDLink(Mock.cid.rawValue), mimeType: "image/jpeg", size: 1234)
        return AppBskyEmbedGallery(
            items: alts.map {
                .appBskyEmbedGalleryImage(
                    AppBskyEmbedGallery.Image(
                        image: blob, alt: $0, aspectRatio: AppBskyEmbedDefs.AspectRatio(width: 4, height: 3)))
            })
    }

    func galleryMuted(_ post: AppBskyFeedDefs.PostView) -> Bool {
        options([Mock.mutedWord("badword")]).decide(post: post).causes.contains(where: isMutedWord)
    }

    func testAltTextOfTheGalleryOfThePostItself() {
        let muted = Mock.postView(
            Mock.post(
                "innocent text", embed: .appBskyEmbedGallery(Self.gallery(["fine", "this contains badword here"]))),
            author: bob)
        XCTAssertTrue(galleryMuted(muted))
        let clean = Mock.postView(
            Mock.post("innocent text", embed: .appBskyEmbedGallery(Self.gallery(["nothing here", "still nothing"]))),
            author: bob)
        XCTAssertFalse(galleryMuted(clean))
    }

    func testAltTextOfTheGalleryOfAQuotedPost() {
        let quoted = Mock.post("inside quoted", embed: .appBskyEmbedGallery(Self.gallery(["contains badword inside"])))
        XCTAssertTrue(
            galleryMuted(Mock.postView(Mock.post("outer post"), author: bob, embed: Mock.quote(quoted, author: carol))))
    }

    func testAltTextOfTheMediaBesideAPostTheQuotedPostQuotes() {
        let inner = AppBskyEmbedRecord(
            record: ComAtprotoRepoStrongRef(uri: "at://did:web:dave.test/app.bsky.feed.post/inner", cid: Mock.cid))
        let quoted = Mock.post(
            "inside quoted record-with-media",
            embed: .appBskyEmbedRecordWithMedia(
                AppBskyEmbedRecordWithMedia(
                    record: inner, media: .appBskyEmbedGallery(Self.gallery(["contains badword in nested gallery"])))))
        XCTAssertTrue(
            galleryMuted(Mock.postView(Mock.post("outer post"), author: bob, embed: Mock.quote(quoted, author: carol))))
    }

    func testAltTextOfTheGalleryViewBesideAQuotedPost() {
        let image = AppBskyEmbedGallery.ViewImage(
            thumbnail: "https://example.test/thumb.jpg", fullsize: "https://example.test/full.jpg",
            alt: "contains badword on view side", aspectRatio: AppBskyEmbedDefs.AspectRatio(width: 4, height: 3))
        let inner = Mock.quoteRecord(
            Mock.post("inner content"), author: carol, uri: "at://did:web:dave.test/app.bsky.feed.post/inner")
        let view = AppBskyEmbedRecordWithMedia.View(
            record: AppBskyEmbedRecord.View(record: .appBskyEmbedRecordViewRecord(inner)),
            media: .appBskyEmbedGalleryView(AppBskyEmbedGallery.View(items: [.appBskyEmbedGalleryViewImage(image)])))
        XCTAssertTrue(
            galleryMuted(
                Mock.postView(Mock.post("outer post"), author: bob, embed: .appBskyEmbedRecordWithMediaView(view))))
    }
}
