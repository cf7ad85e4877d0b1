import AtprotoLexicons
import BlueskyKit
import SeededRandom
import XCTest
import XRPCTesting

/// Random texts (emoji sequences, combining marks, right-to-left scripts, CR LF, whitespace) with
/// random facets (anywhere, any order, overlapping, negative, past the end, splitting sequences).
enum RandomRichText {
    static let pieces = [
        "a", "word", " ", "  ", "\n", "\r\n", "\t", "é", "e\u{301}", "\u{301}", "👨‍👩‍👧‍👧", "👍🏽", "🏳️‍🌈", "#️⃣",
        "שלום", "مرحبا", "\u{200F}", "\u{200D}", "日本語", "🦋", "@alice.test", "https://example.com/x", "#tag", "\u{FE0F}",
        "\u{1F1EB}\u{1F1F7}", ".", "(",
    ]

    static func make(using generator: inout SplitMix64) -> RichText {
        var text = ""
        for _ in 0..<Int.random(in: 0...30, using: &generator) {
            text += pieces.randomElement(using: &generator) ?? ""
        }
        let total = text.utf8.count
        var facets: [AppBskyRichtextFacet] = []
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            // Now and then the extremes a hostile server may send.
            let extremes = [Int.min, -1, Int.max]
            let start =
                Int.random(in: 0..<20, using: &generator) == 0
                ? extremes.randomElement(using: &generator) ?? 0 : Int.random(in: -4...(total + 4), using: &generator)
            let end =
                Int.random(in: 0..<20, using: &generator) == 0
                ? extremes.randomElement(using: &generator) ?? 0 : Int.random(in: -4...(total + 4), using: &generator)
            let feature: RichTextFeature =
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: .mention(DID(rawValue: "did:plc:x"))
                case 1: .link(URIString(rawValue: "https://example.com"))
                default: .tag("t")
                }
            facets.append(facet(start, end, feature))
        }
        return RichText(text: text, facets: facets)
    }
}

final class SegmentPropertyTests: XCTestCase {
    func testSegmentsNeverLoseTextAndAreValid() {
        var generator = SplitMix64(seed: 24)
        for iteration in 0..<10_000 {
            let rich = RandomRichText.make(using: &generator)
            let segments = rich.segments()
            let context = "iteration \(iteration): \(rich.text.debugDescription) \(rich.facets.map(\.index))"
            XCTAssertEqual(segments.map(\.text).joined(), rich.text, context)
            // Grapheme-whole: the segments' characters are the text's characters.
            XCTAssertEqual(segments.flatMap { Array($0.text) }, Array(rich.text), context)
            var cursor = 0
            for segment in segments {
                XCTAssertFalse(segment.text.isEmpty, context)
                XCTAssertEqual(segment.bytes.lowerBound, cursor, context)
                XCTAssertEqual(segment.bytes.count, segment.text.utf8.count, context)
                cursor = segment.bytes.upperBound
                guard let facet = segment.facet else { continue }
                XCTAssertTrue(rich.facets.contains(facet), context)
                XCTAssertFalse(segment.text.unicodeScalars.allSatisfy(\.properties.isWhitespace), context)
                // The segment covers the facet's range (cut to the text), widened to whole graphemes.
                XCTAssertLessThanOrEqual(segment.bytes.lowerBound, max(0, facet.index.byteStart), context)
                XCTAssertGreaterThanOrEqual(segment.bytes.upperBound, min(rich.utf8Count, facet.index.byteEnd), context)
            }
            XCTAssertEqual(cursor, rich.utf8Count, context)
            if iteration > 0, testRun?.failureCount ?? 0 > 0 { return }
        }
    }
}
