import BlueskyKit
import Foundation
import XCTest

final class LengthTests: XCTestCase {
    func testGraphemesAndBytes() {
        let cases: [(String, graphemes: Int, bytes: Int)] = [
            ("", 0, 0),
            ("hello", 5, 5),
            ("👨‍👩‍👧‍👧", 1, 25),  // a ZWJ family: 7 scalars, one grapheme
            ("🏳️‍🌈", 1, 14),
            ("👍🏽", 1, 8),  // emoji + skin tone modifier
            ("\u{1F1EB}\u{1F1F7}", 1, 8),  // a flag: two regional indicators
            ("e\u{301}", 1, 3),  // combining acute
            ("ệ", 1, 3),  // precomposed
            ("e\u{323}\u{302}", 1, 5),  // two combining marks
            ("שלום", 4, 8),  // Hebrew, right to left
            ("مرحبا", 5, 10),  // Arabic, right to left
            ("\u{200F}שלום\u{200F}", 6, 14),  // with right-to-left marks (each a grapheme of its own)
            ("a\r\nb", 3, 4),  // CR LF is one grapheme
            ("👨‍👩‍👧‍👧🔥 good!✅", 9, 38),  // the official client's case
        ]
        for (text, graphemes, bytes) in cases {
            let length = RichText(text: text).length
            XCTAssertEqual(length.graphemes, graphemes, text.debugDescription)
            XCTAssertEqual(length.bytes, bytes, text.debugDescription)
        }
    }

    func testPostLimits() {
        XCTAssertTrue(RichTextLength(of: String(repeating: "a", count: 300)).fitsPost)
        XCTAssertFalse(RichTextLength(of: String(repeating: "a", count: 301)).fitsPost)
        // 300 family emoji: 300 graphemes but 7500 bytes, over the byte limit.
        let families = RichTextLength(of: String(repeating: "👨‍👩‍👧‍👧", count: 300))
        XCTAssertEqual(families.graphemesLeft, 0)
        XCTAssertFalse(families.fitsPost)
        // 120 of them: 3000 bytes exactly, fits.
        XCTAssertTrue(RichTextLength(of: String(repeating: "👨‍👩‍👧‍👧", count: 120)).fitsPost)
        XCTAssertFalse(RichTextLength(of: String(repeating: "👨‍👩‍👧‍👧", count: 120) + "a").fitsPost)
        // 300 letters with combining marks: 900 bytes, 300 graphemes.
        XCTAssertTrue(RichTextLength(of: String(repeating: "e\u{301}", count: 300)).fitsPost)
        XCTAssertEqual(RichTextLength(of: String(repeating: "שׁ", count: 301)).graphemesLeft, -1)
    }

    /// The limits are the installed lexicons' (`swift run lexgen install` puts them in `lexicons/`).
    func testLimitsAreTheLexicons() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        func definitions(_ path: String) throws -> [String: Any] {
            let data = try Data(contentsOf: root.appendingPathComponent("lexicons/\(path)"))
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return try XCTUnwrap(object?["defs"] as? [String: Any])
        }
        let post = try definitions("app/bsky/feed/post.json")
        let record = (post["main"] as? [String: Any])?["record"] as? [String: Any]
        let text = (record?["properties"] as? [String: Any])?["text"] as? [String: Any]
        XCTAssertEqual(text?["maxGraphemes"] as? Int, RichTextLimits.postGraphemes)
        XCTAssertEqual(text?["maxLength"] as? Int, RichTextLimits.postBytes)
        let tag =
            ((try definitions("app/bsky/richtext/facet.json")["tag"] as? [String: Any])?["properties"]
            as? [String: Any])?["tag"] as? [String: Any]
        XCTAssertEqual(tag?["maxGraphemes"] as? Int, RichTextLimits.tagGraphemes)
        XCTAssertEqual(tag?["maxLength"] as? Int, RichTextLimits.tagBytes)
    }
}
