import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// Generated values check themselves against the lexicons embedded in the SDK.
final class ValidationTests: XCTestCase {
    private let blob = LexiconBlob(
        ref: CIDLink("bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"), mimeType: "image/png", size: 1000)

    private func post(text: String = "hello", embed: AppBskyFeedPost.Embed? = nil) -> AppBskyFeedPost {
        AppBskyFeedPost(text: text, createdAt: "2024-01-01T00:00:00.000Z", embed: embed, langs: ["en"])
    }

    func testAValidPostHasNoViolations() throws {
        XCTAssertNoThrow(try post().validate())
        XCTAssertEqual(post().lexiconViolations, [])
    }

    func testLengthsCountGraphemesAndUTF8BytesAndNameTheField() {
        let longText = String(repeating: "a", count: 301)
        XCTAssertEqual(post(text: longText).lexiconViolations.map(\.rule), [.maxGraphemes])
        XCTAssertEqual(post(text: longText).lexiconViolations.map(\.path), ["$.text"])
        // 300 family emoji are 300 graphemes (allowed) but 7,500 UTF-8 bytes (over the 3,000 limit).
        let emoji = String(repeating: "👨‍👩‍👧‍👦", count: 300)
        XCTAssertEqual(post(text: emoji).lexiconViolations.map(\.rule), [.maxLength])
    }

    func testFormatsAndNestedUnionMembersAreChecked() {
        var value = post(
            embed: .appBskyEmbedImages(
                AppBskyEmbedImages(images: Array(repeating: .init(image: blob, alt: ""), count: 5))))
        value.createdAt = "yesterday"
        value.langs = ["en", "not a language tag"]
        let violations = value.lexiconViolations
        XCTAssertEqual(
            Set(violations.map { "\($0.path) \($0.rule.rawValue)" }),
            ["$.createdAt format", "$.embed.images maxLength", "$.langs[1] format"]
        )
        let error = LexiconValidationError(definition: AppBskyFeedPost.lexiconDefinition, violations: violations)
        XCTAssertTrue(
            error.description.contains("$.embed.images: 5 items, more than the maximum length 4"), error.description)
    }

    func testAnInlineUnionValidatesOnItsOwn() {
        let tooManyImages = AppBskyFeedPost.Embed.appBskyEmbedImages(
            AppBskyEmbedImages(images: Array(repeating: .init(image: blob, alt: ""), count: 5)))
        XCTAssertEqual(AppBskyFeedPost.Embed.lexiconDefinition, "app.bsky.feed.post#main/record/properties/embed")
        XCTAssertEqual(tooManyImages.lexiconViolations.map(\.path), ["$.images"])
        let wrongMime = AppBskyFeedPost.Embed.appBskyEmbedImages(
            AppBskyEmbedImages(images: [
                .init(image: LexiconBlob(ref: blob.ref, mimeType: "text/plain", size: 10), alt: "")
            ]))
        XCTAssertEqual(wrongMime.lexiconViolations.map(\.rule), [.accept])
    }

    func testARecordOfAnotherTypeIsRejectedByItsType() throws {
        let json = try JSONValue.parse(
            Data(#"{"$type": "app.bsky.feed.like", "text": "hi", "createdAt": "2024-01-01T00:00:00Z"}"#.utf8))
        XCTAssertThrowsError(try AppBskyFeedPost.validate(json: json)) { error in
            let violations = (error as? LexiconValidationError)?.violations ?? []
            XCTAssertEqual(violations.map(\.rule), [.recordType])
        }
    }

    func testAProcedureValidatesItsInputBeforeSendingUnlessToldNotTo() async throws {
        let agent = StubAgent(json: #"{"uri": "at://did:plc:abc/app.bsky.feed.post/3kabc", "cid": "bafyreia"}"#)
        let invalid = LexiconUnknownValue(encoding: post(text: String(repeating: "a", count: 301)))
        do {
            _ = try await XRPCClient(agent: agent).com.atproto.repo.createRecord(
                repo: "not an identifier", collection: "app.bsky.feed.post", record: invalid)
            XCTFail("an invalid input was sent")
        } catch {
            XCTAssertEqual(error.code, .invalidInput)
            let validation = try XCTUnwrap(error.underlying as? LexiconValidationError)
            XCTAssertEqual(validation.violations.map(\.path), ["$.repo"])
            XCTAssertEqual(validation.definition, "com.atproto.repo.createRecord#main/input/schema")
        }
        XCTAssertEqual(agent.requests.count, 0, "nothing is sent when the input is invalid")

        let lenient = XRPCClient(agent: agent, validatesInput: false)
        _ = try await lenient.com.atproto.repo.createRecord(
            repo: "not an identifier", collection: "app.bsky.feed.post", record: invalid)
        XCTAssertEqual(agent.requests.count, 1)
    }

    func testDecodingAResponseNeverFailsOnAConstraintOrAFormat() throws {
        let json = #"""
            {"uri": "not a uri", "cid": "not a cid", "author": {"did": "nope", "handle": "NOT VALID"},
             "record": {"$type": "app.bsky.feed.post", "text": "\#(String(repeating: "a", count: 400))",
                        "createdAt": "later"},
             "indexedAt": "never", "likeCount": -5}
            """#
        let view = try AppBskyFeedDefs.PostView(lexiconJSON: JSONValue.parse(Data(json.utf8)))
        XCTAssertEqual(view.author.handle.rawValue, "NOT VALID")
        XCTAssertEqual(view.likeCount, -5, "likeCount has no minimum in the lexicon, so -5 is kept and valid")
        XCTAssertEqual(
            Set(view.lexiconViolations.map(\.path)),
            ["$.uri", "$.cid", "$.author.did", "$.author.handle", "$.indexedAt"]
        )
    }

    func testQueryParameterDefaultsAreSentAndCanBeLeftOut() async throws {
        let agent = StubAgent(json: #"{"feed": []}"#)
        let client = XRPCClient(agent: agent)
        _ = try await client.app.bsky.feed.getTimeline()
        _ = try await client.app.bsky.feed.getTimeline(limit: nil)
        XCTAssertEqual(agent.requests.map(\.queryItems), [[URLQueryItem(name: "limit", value: "50")], []])
    }

    func testAnAbsentDefaultedPreferenceReadsAsItsDefault() throws {
        let json = try JSONValue.parse(Data(#"{"value": "spoiler", "targets": ["content"]}"#.utf8))
        let word = try AppBskyActorDefs.MutedWord(lexiconJSON: json)
        XCTAssertEqual(word.actorTarget, "all")
        XCTAssertEqual(word.lexiconJSON, json)
    }
}
