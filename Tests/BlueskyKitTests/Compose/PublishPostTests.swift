import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCTesting

/// `publishPost` against a stub server: the requests it makes, and what it refuses before sending.
final class PublishPostTests: XCTestCase {
    static let did = DID(rawValue: "did:plc:alice")
    static let cid = "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"
    static let blobCID = "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"
    let parent = ComAtprotoRepoStrongRef(
        uri: "at://did:plc:bob/app.bsky.feed.post/3kparent", cid: CIDString(rawValue: cid))
    let root = ComAtprotoRepoStrongRef(
        uri: "at://did:plc:carol/app.bsky.feed.post/3kroot", cid: CIDString(rawValue: cid))

    /// A server that accepts uploads and writes, echoing the created URIs; `refuse` names an NSID to refuse.
    static func server(refuse: String? = nil) -> StubAgent {
        StubAgent { request in
            let nsid = String(request.path.dropFirst("/xrpc/".count))
            if nsid == refuse {
                return json(#"{"error": "InvalidSwap", "message": "no"}"#, status: 400)
            }
            switch nsid {
            case "com.atproto.repo.uploadBlob":
                let size = request.body?.count ?? 0
                let type = request.contentType ?? ""
                return json(
                    #"{"blob": {"$type": "blob", "ref": {"$link": "\#(blobCID)"}, "mimeType": "\#(type)", "size": \#(size)}}"#
                )
            case "com.atproto.repo.applyWrites":
                let body = try JSONValue.parse(request.body ?? Data())
                let writes = Self.array(body.objectValue?["writes"])
                let results = writes.map { write -> String in
                    let fields = write.objectValue ?? [:]
                    let uri =
                        "at://did:plc:alice/\(fields["collection"]?.stringValue ?? "")/\(fields["rkey"]?.stringValue ?? "")"
                    return
                        #"{"$type": "com.atproto.repo.applyWrites#createResult", "uri": "\#(uri)", "cid": "\#(cid)"}"#
                }
                return json(#"{"results": [\#(results.joined(separator: ","))]}"#)
            default:
                return json(#"{"error": "MethodNotImplemented"}"#, status: 501)
            }
        }
    }

    static func array(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { items } else { [] }
    }

    static func json(_ text: String, status: Int = 200) -> XRPCResponse {
        XRPCResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    func sentWrites(_ agent: StubAgent) throws -> [[String: JSONValue]] {
        let request = try XCTUnwrap(agent.requests.last { $0.path.hasSuffix("applyWrites") })
        let body = try JSONValue.parse(try XCTUnwrap(request.body))
        return (Self.array(body.objectValue?["writes"])).compactMap(\.objectValue)
    }

    func testEverythingInOneWrite() async throws {
        let agent = Self.server()
        let parentRecord = AppBskyFeedPost(
            text: "parent", createdAt: "2024-01-01T00:00:00.000Z", reply: .init(root: root, parent: root))
        var draft = BlueskyPostDraft(
            text: RichText(
                text: "hi @bob.test",
                facets: [AppBskyRichtextFacet(bytes: 3..<12, feature: .mention(DID(rawValue: "did:plc:bob")))]))
        draft.reply = BlueskyReplyTarget(parent: parent, record: parentRecord)
        draft.quote = parent
        draft.images = [
            BlueskyImageAttachment(
                data: Data(repeating: 1, count: 100), mimeType: "image/png", alt: "one", width: 4, height: 3),
            BlueskyImageAttachment(data: Data(repeating: 2, count: 50), mimeType: "image/jpeg", alt: "two"),
        ]
        draft.languages = ["en", "fr"]
        draft.selfLabels = ["graphic-media"]
        draft.quoteGate = QuoteGate(disableQuotes: true)
        let published = try await XRPCClient(agent: agent).publishPost(draft, repo: Self.did)

        XCTAssertEqual(
            agent.requests.map(\.path).map { $0.split(separator: "/").last ?? "" },
            [
                "com.atproto.repo.uploadBlob", "com.atproto.repo.uploadBlob", "com.atproto.repo.applyWrites",
            ])
        let writes = try sentWrites(agent)
        XCTAssertEqual(writes.map { $0["collection"]?.stringValue }, ["app.bsky.feed.post", "app.bsky.feed.postgate"])
        let rkey = try XCTUnwrap(writes[0]["rkey"]?.stringValue)
        XCTAssertEqual(writes[1]["rkey"]?.stringValue, rkey, "a gate's key is its post's")
        XCTAssertEqual(published.strongRef.uri.rawValue, "at://did:plc:alice/app.bsky.feed.post/\(rkey)")
        XCTAssertEqual(published.postgate?.rawValue, "at://did:plc:alice/app.bsky.feed.postgate/\(rkey)")
        XCTAssertNil(published.threadgate)
        let postgate = try AppBskyFeedPostgate(lexiconJSON: try XCTUnwrap(writes[1]["value"]))
        XCTAssertEqual(postgate.post, published.strongRef.uri)
        XCTAssertEqual(postgate.embeddingRules?.count, 1)

        let post = try AppBskyFeedPost(lexiconJSON: try XCTUnwrap(writes[0]["value"]))
        XCTAssertEqual(post.reply?.parent, parent)
        XCTAssertEqual(post.reply?.root, root, "the root is the parent's root")
        XCTAssertEqual(post.langs, ["en", "fr"])
        XCTAssertEqual(post.facets?.first?.feature, .mention(DID(rawValue: "did:plc:bob")))
        guard case .appBskyEmbedRecordWithMedia(let embed)? = post.embed,
            case .appBskyEmbedImages(let images) = embed.media
        else { return XCTFail("expected a quote with images, got \(String(describing: post.embed))") }
        XCTAssertEqual(embed.record.record, parent)
        XCTAssertEqual(images.images.map(\.alt), ["one", "two"])
        XCTAssertEqual(images.images.map(\.image.size), [100, 50])
        XCTAssertEqual(images.images[0].aspectRatio?.width, 4)
        XCTAssertNil(images.images[1].aspectRatio)
        guard case .comAtprotoLabelDefsSelfLabels(let labels)? = post.labels else { return XCTFail("no labels") }
        XCTAssertEqual(labels.values.map(\.val), ["graphic-media"])
    }

    func testThreadgateAndExternalCard() async throws {
        let agent = Self.server()
        var draft = BlueskyPostDraft(text: RichText(text: "read this"))
        draft.external = BlueskyExternalCard(
            uri: "https://example.com", title: "Example", description: "A page",
            thumbnail: (Data(repeating: 3, count: 10), "image/webp"))
        draft.replyGate = ReplyGate(allow: [.mentioned, .list("at://did:plc:alice/app.bsky.graph.list/3klist")])
        let published = try await XRPCClient(agent: agent).publishPost(draft, repo: Self.did)
        let writes = try sentWrites(agent)
        XCTAssertEqual(
            writes.map { $0["collection"]?.stringValue }, ["app.bsky.feed.post", "app.bsky.feed.threadgate"])
        let gate = try AppBskyFeedThreadgate(lexiconJSON: try XCTUnwrap(writes[1]["value"]))
        XCTAssertEqual(gate.post, published.strongRef.uri)
        XCTAssertEqual(gate.allow?.count, 2)
        guard case .appBskyEmbedExternal(let external)? = published.record.embed else { return XCTFail("no card") }
        XCTAssertEqual(external.external.thumb?.mimeType, "image/webp")
        // Nobody may reply: an empty allow list is written as such, not left out.
        let nobody = Self.server()
        var closed = BlueskyPostDraft(text: RichText(text: "closed"))
        closed.replyGate = ReplyGate(allow: [])
        _ = try await XRPCClient(agent: nobody).publishPost(closed, repo: Self.did)
        let closedWrites = try sentWrites(nobody)
        XCTAssertEqual(closedWrites[1]["value"]?.objectValue?["allow"], JSONValue.array([]))
    }

    func testWhatTheLexiconRefusesIsNeverSent() async throws {
        let image = BlueskyImageAttachment(data: Data(count: 10), mimeType: "image/png", alt: "")
        let cases: [(BlueskyPostDraft, BlueskyDraftProblem)] = [
            (
                BlueskyPostDraft(text: RichText(text: String(repeating: "é", count: 301))),
                .textTooLong(RichTextLength(of: String(repeating: "é", count: 301)))
            ),
            (BlueskyPostDraft(text: RichText(text: "")), .empty),
            (BlueskyPostDraft(text: RichText(text: "a"), images: Array(repeating: image, count: 5)), .tooManyImages(5)),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"),
                    images: [BlueskyImageAttachment(data: Data(count: 10), mimeType: "video/mp4", alt: "")]),
                .unacceptedMimeType(attachment: "image 1", mimeType: "video/mp4")
            ),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"),
                    images: [BlueskyImageAttachment(data: Data(count: 2_000_001), mimeType: "image/jpeg", alt: "")]),
                .blobTooLarge(attachment: "image 1", bytes: 2_000_001, maxBytes: 2_000_000)
            ),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"),
                    images: [
                        BlueskyImageAttachment(
                            data: Data(count: 1), mimeType: "image/png", alt: "", width: 0, height: 3)
                    ]
                ),
                .invalidAspectRatio(attachment: "image 1")
            ),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"), images: [image],
                    external: BlueskyExternalCard(uri: "https://a.com", title: "", description: "")),
                .imagesWithExternal
            ),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"),
                    external: BlueskyExternalCard(
                        uri: "https://a.com", title: "", description: "",
                        thumbnail: (Data(count: 1_000_001), "image/png"))),
                .blobTooLarge(attachment: "thumbnail", bytes: 1_000_001, maxBytes: 1_000_000)
            ),
            (BlueskyPostDraft(text: RichText(text: "a"), languages: ["en", "fr", "de", "it"]), .tooManyLanguages(4)),
            (
                BlueskyPostDraft(text: RichText(text: "a", facets: [facet(0, 5)])),
                .facetOutsideText(index: 0, byteStart: 0, byteEnd: 5)
            ),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"),
                    reply: BlueskyReplyTarget(
                        parent: parent, record: AppBskyFeedPost(text: "", createdAt: "2024-01-01T00:00:00Z")),
                    replyGate: ReplyGate(allow: [])), .replyGateOnReply
            ),
            (
                BlueskyPostDraft(
                    text: RichText(text: "a"), replyGate: ReplyGate(allow: Array(repeating: .followers, count: 6))),
                .tooManyReplyGateRules(6)
            ),
            (
                BlueskyPostDraft(text: RichText(text: "a"), tags: [String(repeating: "t", count: 65)]),
                .invalidTags([String(repeating: "t", count: 65)])
            ),
        ]
        for (draft, problem) in cases {
            let agent = Self.server()
            do {
                _ = try await XRPCClient(agent: agent).publishPost(draft, repo: Self.did)
                XCTFail("accepted: \(problem)")
            } catch .invalidDraft(let problems) {
                XCTAssertEqual(problems, [problem])
            } catch {
                XCTFail("\(error)")
            }
            XCTAssertTrue(agent.requests.isEmpty, "\(problem): sent \(agent.requests.map(\.path))")
        }
    }

    func testRecordsTheValidatorRefusesAreNeverSent() async throws {
        // A mention whose DID is not a DID; a link that is not a URI; a language that is not a tag.
        let draft = BlueskyPostDraft(
            text: RichText(
                text: "@x", facets: [AppBskyRichtextFacet(bytes: 0..<2, feature: .mention(DID(rawValue: "x")))]),
            images: [BlueskyImageAttachment(data: Data(count: 1), mimeType: "image/png", alt: "")],
            languages: ["not a language"])
        let agent = Self.server()
        do {
            _ = try await XRPCClient(agent: agent).publishPost(draft, repo: Self.did)
            XCTFail("accepted")
        } catch .invalidDraft(let problems) {
            guard case .invalidRecord(let collection, let error) = problems.first else { return XCTFail("\(problems)") }
            XCTAssertEqual(collection, "app.bsky.feed.post")
            XCTAssertEqual(Set(error.violations.map(\.path)), ["$.facets[0].features[0].did", "$.langs[0]"])
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertTrue(agent.requests.isEmpty, "nothing uploaded for a post that cannot be written")
    }

    func testServerRefusals() async throws {
        let draft = BlueskyPostDraft(
            text: RichText(text: "a"),
            images: [BlueskyImageAttachment(data: Data(count: 3), mimeType: "image/png", alt: "")])
        let refusesUpload = Self.server(refuse: "com.atproto.repo.uploadBlob")
        do {
            _ = try await XRPCClient(agent: refusesUpload).publishPost(draft, repo: Self.did)
            XCTFail("accepted")
        } catch .uploadRefused(let attachment, let error) {
            XCTAssertEqual(attachment, "image 1")
            XCTAssertEqual(error.status, 400)
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertFalse(refusesUpload.requests.contains { $0.path.hasSuffix("applyWrites") })
        let refusesWrite = Self.server(refuse: "com.atproto.repo.applyWrites")
        do {
            _ = try await XRPCClient(agent: refusesWrite).publishPost(draft, repo: Self.did)
            XCTFail("accepted")
        } catch .writeRefused(let error) {
            XCTAssertEqual(error.declaredError(for: ComAtprotoRepoApplyWrites.self), .invalidSwap)
            XCTAssertEqual(error.code, .declaredError)
        } catch {
            XCTFail("\(error)")
        }
        let broken = StubAgent { _ in throw URLError(.notConnectedToInternet) }
        do {
            _ = try await XRPCClient(agent: broken).publishPost(
                BlueskyPostDraft(text: RichText(text: "a")), repo: Self.did)
            XCTFail("accepted")
        } catch .notSent(let stage, _) {
            XCTAssertEqual(stage, "com.atproto.repo.applyWrites")
        } catch {
            XCTFail("\(error)")
        }
    }

    func testAnAnswerWithoutResultsIsReadBack() async throws {
        let readable = StubAgent { request in
            switch request.nsid {
            case "com.atproto.repo.applyWrites": return Self.json("{}")
            case "com.atproto.repo.getRecord":
                let rkey = request.queryItems.first { $0.name == "rkey" }?.value ?? ""
                return Self.json(
                    #"{"uri": "at://did:plc:alice/app.bsky.feed.post/\#(rkey)", "cid": "\#(Self.cid)", "#
                        + #""value": {"$type": "app.bsky.feed.post", "text": "a", "createdAt": "2024-01-01T00:00:00Z"}}"#
                )
            default: return Self.json("{}", status: 500)
            }
        }
        let published = try await XRPCClient(agent: readable).publishPost(
            BlueskyPostDraft(text: RichText(text: "a")), repo: Self.did)
        XCTAssertEqual(published.strongRef.cid.rawValue, Self.cid)
        XCTAssertEqual(readable.requests.map(\.nsid), ["com.atproto.repo.applyWrites", "com.atproto.repo.getRecord"])

        let unreadable = StubAgent { request in
            request.nsid == "com.atproto.repo.applyWrites"
                ? Self.json("{}") : Self.json(#"{"error": "X"}"#, status: 500)
        }
        do {
            _ = try await XRPCClient(agent: unreadable).publishPost(
                BlueskyPostDraft(text: RichText(text: "a")), repo: Self.did)
            XCTFail("no reference, no error")
        } catch .writtenWithoutReference(let uri, _) {
            XCTAssertTrue(uri.rawValue.hasPrefix("at://did:plc:alice/app.bsky.feed.post/"))
        } catch {
            XCTFail("\(error)")
        }
    }

    func testAReadBackAnswerWithoutACIDIsALocalReadFailureNotAServerError() async throws {
        let noCID = StubAgent { request in
            switch request.nsid {
            case "com.atproto.repo.applyWrites": return Self.json("{}")
            case "com.atproto.repo.getRecord":
                let rkey = request.queryItems.first { $0.name == "rkey" }?.value ?? ""
                return Self.json(
                    #"{"uri": "at://did:plc:alice/app.bsky.feed.post/\#(rkey)", "#
                        + #""value": {"$type": "app.bsky.feed.post", "text": "a", "createdAt": "2024-01-01T00:00:00Z"}}"#
                )
            default: return Self.json("{}", status: 500)
            }
        }
        do {
            _ = try await XRPCClient(agent: noCID).publishPost(
                BlueskyPostDraft(text: RichText(text: "a")), repo: Self.did)
            XCTFail("no reference, no error")
        } catch .writtenWithoutReference(_, let underlying) {
            XCTAssertFalse(underlying is XRPCError, "a 200 answer is not a server error: \(underlying)")
            let cause = try XCTUnwrap(underlying as? LexiconDecodingError, "\(underlying)")
            XCTAssertEqual(cause.code, .missingField)
            XCTAssertEqual(cause.path, ["cid"])
        } catch {
            XCTFail("\(error)")
        }
    }
}
