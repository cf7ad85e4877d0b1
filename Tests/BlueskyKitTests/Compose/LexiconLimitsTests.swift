import BlueskyKit
import Foundation
import XCTest

/// The limits the draft checks apply are the installed lexicons' (`lexicons/`, installed by
/// `swift run lexgen install`), so a lexicon change that moves one fails here.
final class LexiconLimitsTests: XCTestCase {
    func definitions(_ path: String) throws -> [String: Any] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("lexicons/\(path).json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return try XCTUnwrap(object?["defs"] as? [String: Any])
    }

    /// The value at `path` (keys separated by dots) in `object`.
    func value(_ object: [String: Any], _ path: String) -> Any? {
        var current: Any? = object
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    func testLimitsAreTheLexicons() throws {
        let images = try definitions("app/bsky/embed/images")
        XCTAssertEqual(value(images, "main.properties.images.maxLength") as? Int, PostLexiconLimits.maxImages)
        XCTAssertEqual(value(images, "image.properties.image.maxSize") as? Int, PostLexiconLimits.maxImageBytes)
        XCTAssertEqual(
            value(images, "image.properties.image.accept") as? [String], PostLexiconLimits.acceptedImageTypes)
        let external = try definitions("app/bsky/embed/external")
        XCTAssertEqual(
            value(external, "external.properties.thumb.maxSize") as? Int, PostLexiconLimits.maxThumbnailBytes)
        XCTAssertEqual(
            value(external, "external.properties.thumb.accept") as? [String], PostLexiconLimits.acceptedImageTypes)
        let post = try definitions("app/bsky/feed/post")
        XCTAssertEqual(value(post, "main.record.properties.langs.maxLength") as? Int, PostLexiconLimits.maxLanguages)
        XCTAssertEqual(value(post, "main.record.properties.tags.maxLength") as? Int, PostLexiconLimits.maxTags)
        let labels = try definitions("com/atproto/label/defs")
        XCTAssertEqual(value(labels, "selfLabels.properties.values.maxLength") as? Int, PostLexiconLimits.maxSelfLabels)
        XCTAssertEqual(value(labels, "selfLabel.properties.val.maxLength") as? Int, PostLexiconLimits.maxSelfLabelBytes)
        let threadgate = try definitions("app/bsky/feed/threadgate")
        XCTAssertEqual(
            value(threadgate, "main.record.properties.allow.maxLength") as? Int, PostLexiconLimits.maxReplyGateRules)
    }
}
