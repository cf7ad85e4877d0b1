import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest

/// Posts composed with BlueskyKit against a real PDS and read back: rich text with a mention, a link,
/// a tag and an image; a reply thread; a quote; a link card; a gated post.
final class BlueskyKitIntegrationTests: XCTestCase {
    /// A 1x1 PNG.
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
        ?? Data()

    func read(_ published: BlueskyPublishedPost, _ account: LoggedIn) async throws -> RepositoryRecord<AppBskyFeedPost>
    {
        let rkey = try XCTUnwrap(published.strongRef.uri.rkey)
        let read = try await account.client.getRecord(AppBskyFeedPost.self, repo: account.repo, rkey: rkey)
        XCTAssertEqual(read.cid, published.strongRef.cid)
        XCTAssertEqual(read.value, published.record)
        return read
    }

    func testMentionLinkTagAndImage() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        let client = account.client
        let text = "hi @\(environment.handle) and @nobody-here.test, see example.com/docs. #swift\n\n\n\n"
        let rich = await RichText.detecting(text) { handle in
            try? await client.com.atproto.identity.resolveHandle(handle: handle).did
        }.sanitized()
        var draft = BlueskyPostDraft(text: rich, languages: ["en"])
        draft.images = [
            BlueskyImageAttachment(data: Self.png, mimeType: "image/png", alt: "one pixel", width: 1, height: 1)
        ]
        let published = try await client.publishPost(draft, repo: account.did)
        let read = try await read(published, account)

        let features = RichText(post: read.value).segments().compactMap { segment in
            segment.feature.map { (segment.text, $0) }
        }
        XCTAssertEqual(features.map(\.0), ["@\(environment.handle)", "example.com/docs", "#swift"])
        XCTAssertEqual(
            features.map(\.1),
            [.mention(account.did), .link(URIString(rawValue: "https://example.com/docs")), .tag("swift")])
        XCTAssertTrue(read.value.text.hasSuffix("#swift"), "trailing blank lines trimmed")
        guard case .appBskyEmbedImages(let images)? = read.value.embed else { return XCTFail("no images") }
        XCTAssertEqual(images.images.first?.alt, "one pixel")
        XCTAssertEqual(images.images.first?.aspectRatio?.width, 1)
        let blob = try XCTUnwrap(images.images.first?.image)
        XCTAssertEqual(blob.size, Self.png.count)
        let bytes = try await client.com.atproto.sync.getBlob(
            did: account.did, cid: CIDString(rawValue: blob.ref.cid.description))
        XCTAssertEqual(bytes.data, Self.png)
    }

    func testReplyThreadAndQuote() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        let root = try await client.publishPost(BlueskyPostDraft(text: RichText(text: "root")), repo: account.did)
        let first = try await client.publishPost(
            BlueskyPostDraft(
                text: RichText(text: "first reply"),
                reply: BlueskyReplyTarget(parent: root.strongRef, record: root.record)),
            repo: account.did)
        let rootRead = try await read(root, account)
        let firstRead = try await read(first, account)
        // A reply to the reply: its root is the thread's root, taken from the parent's record as read.
        let second = try await client.publishPost(
            BlueskyPostDraft(
                text: RichText(text: "second reply"),
                reply: BlueskyReplyTarget(parent: try XCTUnwrap(firstRead.strongRef), record: firstRead.value)),
            repo: account.did)
        let secondRead = try await read(second, account)
        XCTAssertEqual(firstRead.value.reply?.root, rootRead.strongRef)
        XCTAssertEqual(secondRead.value.reply?.root, rootRead.strongRef)
        XCTAssertEqual(secondRead.value.reply?.parent, firstRead.strongRef)

        let quote = try await client.publishPost(
            BlueskyPostDraft(text: RichText(text: "quoting"), quote: root.strongRef), repo: account.did)
        guard case .appBskyEmbedRecord(let embed)? = try await read(quote, account).value.embed else {
            return XCTFail("no quote")
        }
        XCTAssertEqual(embed.record, root.strongRef)
        let quoteWithImage = try await client.publishPost(
            BlueskyPostDraft(
                text: RichText(text: "quoting with a picture"), quote: root.strongRef,
                images: [BlueskyImageAttachment(data: Self.png, mimeType: "image/png", alt: "pixel")]),
            repo: account.did)
        guard case .appBskyEmbedRecordWithMedia(let both)? = try await read(quoteWithImage, account).value.embed else {
            return XCTFail("no quote with media")
        }
        XCTAssertEqual(both.record.record, root.strongRef)
    }

    func testLinkCardWithThumbnail() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let card = BlueskyExternalCard(
            uri: "https://example.com/article", title: "An article", description: "About things",
            thumbnail: (Self.png, "image/png"))
        let published = try await account.client.publishPost(
            BlueskyPostDraft(text: RichText.detectingLinksAndTags("read https://example.com/article"), external: card),
            repo: account.did)
        guard case .appBskyEmbedExternal(let external)? = try await read(published, account).value.embed else {
            return XCTFail("no card")
        }
        XCTAssertEqual(external.external.uri, "https://example.com/article")
        XCTAssertEqual(external.external.title, "An article")
        XCTAssertEqual(external.external.thumb?.size, Self.png.count)
    }

    func testGatedPostAndItsGatesAreWrittenTogether() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        var draft = BlueskyPostDraft(text: RichText(text: "only people I mention or follow may reply; no quotes"))
        draft.selfLabels = ["graphic-media"]
        draft.replyGate = ReplyGate(allow: [.mentioned, .following])
        draft.quoteGate = QuoteGate(disableQuotes: true)
        let published = try await client.publishPost(draft, repo: account.did)
        XCTAssertEqual(account.sentNSIDs.last, "com.atproto.repo.applyWrites")
        _ = try await read(published, account)
        XCTAssertFalse(account.sentNSIDs.contains("com.atproto.repo.createRecord"), "never a post without its gates")

        let rkey = try XCTUnwrap(published.strongRef.uri.rkey)
        let threadgate = try await client.getRecord(AppBskyFeedThreadgate.self, repo: account.repo, rkey: rkey)
        XCTAssertEqual(threadgate.uri, published.threadgate)
        XCTAssertEqual(threadgate.value.post, published.strongRef.uri)
        XCTAssertEqual(threadgate.value.allow?.count, 2)
        let postgate = try await client.getRecord(AppBskyFeedPostgate.self, repo: account.repo, rkey: rkey)
        XCTAssertEqual(postgate.uri, published.postgate)
        XCTAssertEqual(postgate.value.post, published.strongRef.uri)
        XCTAssertEqual(postgate.value.embeddingRules, [.appBskyFeedPostgateDisableRule(.init())])
    }

    func testARefusedWriteLeavesNothing() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        // A draft the lexicon refuses is never sent: no upload, no write.
        let before = account.transport.requests.count
        var draft = BlueskyPostDraft(text: RichText(text: String(repeating: "a", count: 301)))
        draft.images = [BlueskyImageAttachment(data: Self.png, mimeType: "image/png", alt: "")]
        do {
            _ = try await account.client.publishPost(draft, repo: account.did)
            XCTFail("a 301-grapheme post was sent")
        } catch .invalidDraft(let problems) {
            XCTAssertEqual(problems.count, 1)
        }
        XCTAssertEqual(account.transport.requests.count, before)
        // The server refuses a write to another account's repository: nothing of the post exists.
        do {
            _ = try await account.client.publishPost(
                BlueskyPostDraft(text: RichText(text: "not mine"), replyGate: ReplyGate(allow: [])),
                repo: DID(rawValue: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"))
            XCTFail("wrote to another repository")
        } catch .writeRefused(let error) {
            XCTAssertNotNil(error.status)
        }
    }
}
