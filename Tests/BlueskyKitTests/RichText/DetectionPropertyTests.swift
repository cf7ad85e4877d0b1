import AtprotoLexicons
import BlueskyKit
import SeededRandom
import XCTest
import XRPCTesting

/// Detection and the AttributedString round trip over random texts.
final class DetectionPropertyTests: XCTestCase {
    static let pieces =
        RandomRichText.pieces + [
            "@", "#", "$", "＃", "@a.com", "@x.test.", "http://", "HTTPS://a.com", "a.co/(x)", "$AB", "#1", "#️⃣",
            "\u{200B}", "_", ")", "!", "www.example.org", "e.g.", "\u{00A0}", "\u{FEFF}",
        ]

    func testDetectedRangesAreSortedAndOnCharacterBoundaries() {
        var generator = SplitMix64(seed: 7)
        for iteration in 0..<5000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...25, using: &generator) {
                text += Self.pieces.randomElement(using: &generator) ?? ""
            }
            let found = FacetDetector.detect(in: text)
            let bytes = Array(text.utf8)
            let context = "iteration \(iteration): \(text.debugDescription)"
            XCTAssertEqual(found.map(\.bytes.lowerBound), found.map(\.bytes.lowerBound).sorted(), context)
            for facet in found {
                XCTAssertTrue(0 <= facet.bytes.lowerBound && facet.bytes.upperBound <= bytes.count, context)
                XCTAssertFalse(facet.bytes.isEmpty, context)
                // Each range starts and ends on a scalar boundary and starts with @, #, ＃, $ or the link.
                let covered = String(decoding: bytes[facet.bytes], as: UTF8.self)
                XCTAssertEqual(Array(covered.utf8), Array(bytes[facet.bytes]), context)
                switch facet.kind {
                case .mention(let handle): XCTAssertEqual(covered, "@" + handle, context)
                case .link(let uri): XCTAssertTrue(uri.hasSuffix(covered), context)
                case .tag(let tag):
                    XCTAssertTrue(String(covered.unicodeScalars.dropFirst()) == tag || tag.hasPrefix("$"), context)
                    XCTAssertLessThanOrEqual(tag.count, RichTextLimits.tagGraphemes, context)
                }
            }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    static func featurePerByte(_ rich: RichText) -> [RichTextFeature?] {
        rich.segments().flatMap { segment in Array(repeating: segment.feature, count: segment.bytes.count) }
    }

    func testAttributedStringRoundTripKeepsTextAndSegments() {
        var generator = SplitMix64(seed: 11)
        for iteration in 0..<2000 {
            let rich = RandomRichText.make(using: &generator)
            let back = RichText(rich.attributedString())
            let context = "iteration \(iteration): \(rich.text.debugDescription) \(rich.facets.map(\.index))"
            XCTAssertEqual(back.text, rich.text, context)
            // Every byte has the same feature (adjacent facets with one feature become one run, as
            // AttributedString joins equal runs).
            XCTAssertEqual(Self.featurePerByte(back), Self.featurePerByte(rich), context)
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }
}
