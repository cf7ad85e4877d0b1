import AtprotoLexicons
import Foundation
import XCTest

/// The fast entry points (`LexiconDecoder`, `init(jsonData:)`, `jsonData()`) and the `Codable` route
/// they replace agree, and keep what `Codable` alone would lose.
final class FastDecodingTests: XCTestCase {
    private let post = Data(
        #"""
        {"$type": "app.bsky.feed.post", "text": "hi", "createdAt": "2024-05-01T12:00:00.000Z",
         "langs": ["en"], "futureField": {"score": 1.0, "tags": [true, null, 3]},
         "embed": {"$type": "app.bsky.embed.external",
                   "external": {"uri": "https://example.com", "title": "t", "description": "d"}}}
        """#.utf8)

    func testEveryEntryPointDecodesTheSameValueAndKeepsUnknownFields() throws {
        let fast = try LexiconDecoder().decode(AppBskyFeedPost.self, from: post)
        let shorthand = try AppBskyFeedPost(jsonData: post)
        let codable = try JSONDecoder().decode(AppBskyFeedPost.self, from: post)
        XCTAssertEqual(fast.text, "hi")
        XCTAssertEqual(fast, shorthand)
        XCTAssertEqual(
            fast.unknownFields["futureField"],
            .object(["score": .number(1), "tags": .array([.bool(true), .null, .integer(3)])]),
            "the fast path keeps 1.0 a number")
        guard case .appBskyEmbedExternal(let external)? = codable.embed else {
            return XCTFail("the Codable route lost the embed: \(String(describing: codable.embed))")
        }
        XCTAssertEqual(external.external.title, "t")
        XCTAssertEqual(
            codable.unknownFields["futureField"]?.objectValue?["tags"], .array([.bool(true), .null, .integer(3)]))
    }

    func testWrittenBytesReadBackToTheSameValue() throws {
        let value = try AppBskyFeedPost(jsonData: post)
        XCTAssertEqual(try AppBskyFeedPost(jsonData: value.jsonData()), value)
        XCTAssertEqual(LexiconEncoder().encode(value), value.jsonData())
        XCTAssertEqual(try JSONValue.parse(value.jsonData()), try JSONValue.parse(post))
        XCTAssertEqual(
            try LexiconDecoder().decode(AppBskyFeedPost.self, from: String(decoding: post, as: UTF8.self)), value)
    }

    func testBadJSONAndWrongShapesFailWithTheirPlace() {
        XCTAssertThrowsError(try AppBskyFeedPost(jsonData: Data("{\n\"text\": }".utf8))) { error in
            XCTAssertEqual((error as? JSONParseError)?.line, 2, "\(error)")
        }
        XCTAssertThrowsError(try LexiconDecoder().decode(AppBskyFeedPost.self, from: Data(#"{"text": 5}"#.utf8))) {
            XCTAssertTrue($0 is LexiconDecodingError, "\($0)")
        }
    }
}
