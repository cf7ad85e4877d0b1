import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCTesting

/// Galleries, video embeds and link cards with `associatedRefs` in `publishPost`, against the stub
/// server of ``PublishPostTests``: what is written, and what is refused before anything is sent.
final class GalleryAndCardTests: XCTestCase {
    let quoted = ComAtprotoRepoStrongRef(
        uri: "at://did:plc:bob/app.bsky.feed.post/3kquoted", cid: CIDString(rawValue: PublishPostTests.cid))

    func image(_ byte: UInt8, alt: String = "alt", ratio: Bool = true) -> BlueskyImageAttachment {
        BlueskyImageAttachment(
            data: Data(repeating: byte, count: 10 + Int(byte)), mimeType: "image/png", alt: alt,
            width: ratio ? 4 : nil, height: ratio ? 3 : nil)
    }

    /// The post record of the last `applyWrites`.
    func sentPost(_ agent: StubAgent) throws -> AppBskyFeedPost {
        let request = try XCTUnwrap(agent.requests.last { $0.path.hasSuffix("applyWrites") })
        let body = try JSONValue.parse(try XCTUnwrap(request.body))
        let first = try XCTUnwrap(PublishPostTests.array(body.objectValue?["writes"]).first?.objectValue)
        return try AppBskyFeedPost(lexiconJSON: try XCTUnwrap(first["value"]))
    }

    func testAGalleryUploadsEachImageAndWritesThemInOrder() async throws {
        let agent = PublishPostTests.server()
        var draft = BlueskyPostDraft(text: RichText(text: "a gallery"))
        draft.gallery = (1...12).map { image(UInt8($0), alt: "image \($0)") }
        _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
        let uploads = agent.requests.filter { $0.path.hasSuffix("uploadBlob") }
        XCTAssertEqual(uploads.map { $0.body?.count }, (1...12).map { 10 + $0 })
        guard case .appBskyEmbedGallery(let gallery)? = try sentPost(agent).embed else { return XCTFail("no gallery") }
        let items = gallery.items.compactMap { item -> AppBskyEmbedGallery.Image? in
            if case .appBskyEmbedGalleryImage(let image) = item { image } else { nil }
        }
        XCTAssertEqual(items.map(\.alt), (1...12).map { "image \($0)" })
        XCTAssertEqual(items.map(\.image.size), (1...12).map { 10 + $0 })
        XCTAssertEqual(items.first?.aspectRatio, AppBskyEmbedDefs.AspectRatio(width: 4, height: 3))
    }

    func testAGalleryWithAQuoteIsRecordWithMedia() async throws {
        let agent = PublishPostTests.server()
        var draft = BlueskyPostDraft(text: RichText(text: "quoted with a gallery"), quote: quoted)
        draft.gallery = [image(1), image(2)]
        _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
        guard case .appBskyEmbedRecordWithMedia(let embed)? = try sentPost(agent).embed,
            case .appBskyEmbedGallery(let gallery) = embed.media
        else { return XCTFail("no gallery beside the quote") }
        XCTAssertEqual(gallery.items.count, 2)
        XCTAssertEqual(embed.record.record, quoted)
    }

    func testAGalleryOf21IsRefusedNamingTheLimitBeforeSending() async throws {
        let agent = PublishPostTests.server()
        var draft = BlueskyPostDraft(text: RichText(text: "too many"))
        draft.gallery = (1...21).map { image(UInt8($0)) }
        do {
            _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
            XCTFail("a gallery of 21 was sent")
        } catch .invalidDraft(let problems) {
            XCTAssertEqual(problems, [.tooManyGalleryItems(count: 21, max: 20)])
            XCTAssertEqual(problems.first?.description, "a gallery of 21 items, over the lexicon's 20")
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertTrue(agent.requests.isEmpty)
        // 20 is the lexicon's limit, and is taken.
        draft.gallery.removeLast()
        _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
    }

    func testGalleryProblemsAreFoundBeforeSending() {
        var draft = BlueskyPostDraft(text: RichText(text: "problems"))
        draft.gallery = [
            image(1, ratio: false),
            BlueskyImageAttachment(data: Data(count: 2_000_001), mimeType: "video/mp4", alt: "", width: 1, height: 1),
        ]
        draft.images = [image(3)]
        XCTAssertEqual(
            Set(draft.problems()),
            [
                .moreThanOneMedia(kinds: ["images", "a gallery"]),
                .missingAspectRatio(attachment: "gallery image 1"),
                .unacceptedMimeType(attachment: "gallery image 2", mimeType: "video/mp4"),
                .blobTooLarge(attachment: "gallery image 2", bytes: 2_000_001, maxBytes: 2_000_000),
            ])
        // A gallery alone is a post's content: no text needed.
        var alone = BlueskyPostDraft(text: RichText(text: ""))
        alone.gallery = [image(1)]
        XCTAssertEqual(alone.problems(), [])
    }

    func testVideoEmbedProblemsAreFoundBeforeSending() async throws {
        let video = LexiconBlob(ref: CIDLink(PublishPostTests.blobCID), mimeType: "video/quicktime", size: 300_000_001)
        let vtt = Data("WEBVTT\n".utf8)
        var draft = BlueskyPostDraft(text: RichText(text: "a video"))
        draft.video = BlueskyVideoEmbed(
            video: video,
            captions: (1...21).map { _ in BlueskyVideoCaption(lang: "en", data: vtt) } + [
                BlueskyVideoCaption(lang: "fr", data: Data(count: 20_001), mimeType: "text/plain")
            ])
        draft.external = BlueskyExternalCard(uri: "https://example.com", title: "t", description: "d")
        let problems = draft.problems()
        XCTAssertTrue(problems.contains(.moreThanOneMedia(kinds: ["a video", "a link card"])))
        XCTAssertTrue(
            problems.contains(
                .unacceptedMediaType(attachment: "video", mimeType: "video/quicktime", accepted: ["video/mp4"])))
        XCTAssertTrue(problems.contains(.blobTooLarge(attachment: "video", bytes: 300_000_001, maxBytes: 300_000_000)))
        XCTAssertTrue(problems.contains(.tooManyCaptions(count: 22, max: 20)))
        XCTAssertTrue(
            problems.contains(
                .unacceptedMediaType(attachment: "caption 22 (fr)", mimeType: "text/plain", accepted: ["text/vtt"])))
        XCTAssertTrue(problems.contains(.blobTooLarge(attachment: "caption 22 (fr)", bytes: 20_001, maxBytes: 20_000)))
        let agent = PublishPostTests.server()
        do {
            _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
            XCTFail("sent")
        } catch .invalidDraft {
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertTrue(agent.requests.isEmpty)
    }

    func testAVideoEmbedUploadsItsCaptionsAndKeepsTheVideoBlob() async throws {
        let agent = PublishPostTests.server()
        let video = LexiconBlob(ref: CIDLink(PublishPostTests.blobCID), mimeType: "video/mp4", size: 1234)
        var draft = BlueskyPostDraft(text: RichText(text: "a video"), quote: quoted)
        draft.video = BlueskyVideoEmbed(
            video: video, alt: "a cat", width: 16, height: 9,
            captions: [
                BlueskyVideoCaption(lang: "en", data: Data("WEBVTT\n\n1\n".utf8)),
                BlueskyVideoCaption(lang: "fr", data: Data("WEBVTT\n".utf8)),
            ],
            presentation: .init(rawValue: "gif"))
        _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
        let uploads = agent.requests.filter { $0.path.hasSuffix("uploadBlob") }
        XCTAssertEqual(uploads.map(\.contentType), ["text/vtt", "text/vtt"])
        guard case .appBskyEmbedRecordWithMedia(let embed)? = try sentPost(agent).embed,
            case .appBskyEmbedVideo(let sent) = embed.media
        else { return XCTFail("no video beside the quote") }
        XCTAssertEqual(sent.video, video)
        XCTAssertEqual(sent.alt, "a cat")
        XCTAssertEqual(sent.presentation?.rawValue, "gif")
        XCTAssertEqual(sent.aspectRatio, AppBskyEmbedDefs.AspectRatio(width: 16, height: 9))
        XCTAssertEqual(sent.captions?.map(\.lang), ["en", "fr"])
        XCTAssertEqual(sent.captions?.map(\.file.mimeType), ["text/vtt", "text/vtt"])
        XCTAssertEqual(sent.captions?.map(\.file.size), [10, 7])
    }

    func testALinkCardCarriesItsAssociatedRefs() async throws {
        let agent = PublishPostTests.server()
        var draft = BlueskyPostDraft(text: RichText(text: "an article"))
        draft.external = BlueskyExternalCard(
            uri: "https://blog.example.com/post", title: "Post", description: "From a site.standard document",
            associatedRefs: [quoted], thumbnail: (Data(repeating: 9, count: 20), "image/jpeg"))
        _ = try await XRPCClient(agent: agent).publishPost(draft, repo: PublishPostTests.did)
        guard case .appBskyEmbedExternal(let card)? = try sentPost(agent).embed else { return XCTFail("no card") }
        XCTAssertEqual(card.external.associatedRefs, [quoted])
        XCTAssertEqual(card.external.thumb?.size, 20)
        // A thumbnail over the lexicon's limit is refused before sending.
        let refused = PublishPostTests.server()
        draft.external?.thumbnail = (Data(count: 1_000_001), "image/jpeg")
        do {
            _ = try await XRPCClient(agent: refused).publishPost(draft, repo: PublishPostTests.did)
            XCTFail("sent")
        } catch .invalidDraft(let problems) {
            XCTAssertEqual(problems, [.blobTooLarge(attachment: "thumbnail", bytes: 1_000_001, maxBytes: 1_000_000)])
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertTrue(refused.requests.isEmpty)
    }

    func testMediaLimitsAreTheLexicons() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        func defs(_ path: String) throws -> [String: Any] {
            let data = try Data(contentsOf: root.appendingPathComponent("lexicons/\(path).json"))
            return try XCTUnwrap(
                (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["defs"] as? [String: Any])
        }
        func value(_ object: [String: Any], _ path: String) -> Any? {
            path.split(separator: ".").reduce(object as Any?) { ($0 as? [String: Any])?[String($1)] }
        }
        let gallery = try defs("app/bsky/embed/gallery")
        XCTAssertEqual(value(gallery, "main.properties.items.maxLength") as? Int, PostLexiconLimits.maxGalleryItems)
        XCTAssertEqual(value(gallery, "image.properties.image.maxSize") as? Int, PostLexiconLimits.maxImageBytes)
        XCTAssertEqual(
            value(gallery, "image.properties.image.accept") as? [String], PostLexiconLimits.acceptedImageTypes)
        XCTAssertEqual(value(gallery, "image.required") as? [String], ["image", "alt", "aspectRatio"])
        let video = try defs("app/bsky/embed/video")
        XCTAssertEqual(value(video, "main.properties.video.maxSize") as? Int, VideoLexiconLimits.maxVideoBytes)
        XCTAssertEqual(value(video, "main.properties.video.accept") as? [String], VideoLexiconLimits.acceptedVideoTypes)
        XCTAssertEqual(value(video, "main.properties.captions.maxLength") as? Int, VideoLexiconLimits.maxCaptions)
        XCTAssertEqual(value(video, "caption.properties.file.maxSize") as? Int, VideoLexiconLimits.maxCaptionBytes)
        XCTAssertEqual(
            value(video, "caption.properties.file.accept") as? [String], VideoLexiconLimits.acceptedCaptionTypes)
        let start = try defs("app/bsky/video/startUpload")
        XCTAssertEqual(
            value(start, "main.input.schema.properties.name.maxLength") as? Int, VideoLexiconLimits.maxFileNameBytes)
    }
}
