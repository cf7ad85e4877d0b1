// Posts with a video (uploaded through the stand-in), a gallery and a link card with associatedRefs,
// written to the shared PDS by publishPost and read back as stored. Skipped without ATPROTO_PDS_URL.

import BlueskyKit
import Foundation
import VideoServiceStandIn
import XCTest

final class MediaPostIntegrationTests: XCTestCase {
    func storedPost(_ ref: ComAtprotoRepoStrongRef, _ fixture: VideoFixture) async throws -> AppBskyFeedPost {
        let rkey = try XCTUnwrap(ref.uri.rkey)
        return try await fixture.client.getRecord(AppBskyFeedPost.self, repo: ATIdentifier(fixture.did), rkey: rkey)
            .value
    }

    func testAVideoPostWithCaptionsIsWrittenAndShownAsAVideoPost() async throws {
        var configuration = VideoServiceStandIn.Configuration()
        configuration.processingPolls = 1
        let fixture = try await VideoFixture.make(configuration)
        let video = try await fixture.uploader().upload(BlueskyVideoFile(data: mp4Bytes(70_000), durationMs: 3000))
        var draft = BlueskyPostDraft(text: RichText(text: "a video with captions"))
        let vtt = Data("WEBVTT\n\n00:00.000 --> 00:01.000\nmeow\n".utf8)
        draft.video = BlueskyVideoEmbed(
            video: video.blob, alt: "a cat", width: 1280, height: 720,
            captions: [BlueskyVideoCaption(lang: "en", data: vtt), BlueskyVideoCaption(lang: "ja", data: vtt)])
        let published = try await fixture.client.publishPost(draft, repo: fixture.did)
        guard case .appBskyEmbedVideo(let embed)? = try await storedPost(published.strongRef, fixture).embed else {
            return XCTFail("no video embed stored")
        }
        XCTAssertEqual(embed.video, video.blob)
        XCTAssertEqual(embed.captions?.map(\.lang), ["en", "ja"])
        // The caption tracks are blobs of the account's PDS.
        for caption in embed.captions ?? [] {
            let stored = try await fixture.client.com.atproto.sync.getBlob(
                did: fixture.did, cid: CIDString(rawValue: caption.file.ref.cid))
            XCTAssertEqual(stored.data, vtt)
        }
        // The AppView files it under the author's video posts.
        let videos = try await fixture.client.app.bsky.feed.getAuthorFeed(
            actor: ATIdentifier(fixture.did), filter: .init(rawValue: "posts_with_video"))
        XCTAssertEqual(videos.feed.map(\.post.uri), [published.strongRef.uri])
    }

    func testAGalleryAndALinkCardWithAssociatedRefsAreWrittenAsDrafted() async throws {
        let fixture = try await VideoFixture.make()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 40))
        var draft = BlueskyPostDraft(text: RichText(text: "a gallery"))
        draft.gallery = (1...3).map {
            BlueskyImageAttachment(
                data: png + Data([UInt8($0)]), mimeType: "image/png", alt: "image \($0)", width: $0, height: 2)
        }
        let gallery = try await fixture.client.publishPost(draft, repo: fixture.did)
        guard case .appBskyEmbedGallery(let stored)? = try await storedPost(gallery.strongRef, fixture).embed else {
            return XCTFail("no gallery stored")
        }
        let items = stored.items.compactMap { item -> AppBskyEmbedGallery.Image? in
            if case .appBskyEmbedGalleryImage(let image) = item { image } else { nil }
        }
        XCTAssertEqual(items.map(\.alt), ["image 1", "image 2", "image 3"])
        XCTAssertEqual(items.map(\.aspectRatio.width), [1, 2, 3])

        var card = BlueskyPostDraft(text: RichText(text: "read the gallery"))
        card.external = BlueskyExternalCard(
            uri: "https://example.com/gallery", title: "Gallery", description: "From a record",
            associatedRefs: [gallery.strongRef], thumbnail: (png, "image/png"))
        let linked = try await fixture.client.publishPost(card, repo: fixture.did)
        guard case .appBskyEmbedExternal(let external)? = try await storedPost(linked.strongRef, fixture).embed else {
            return XCTFail("no card stored")
        }
        XCTAssertEqual(external.external.associatedRefs, [gallery.strongRef])
        XCTAssertEqual(external.external.thumb?.size, png.count)
    }
}
