import AtprotoLexicons
import BlueskyKit
import SeededRandom
import XCTest
import XRPCTesting

/// Random edits of random rich texts: a facet untouched by an edit still covers the same text, and
/// every facet stays inside the text.
final class EditingPropertyTests: XCTestCase {
    func covered(_ rich: RichText, _ facet: AppBskyRichtextFacet) -> [UInt8] {
        Array(Array(rich.text.utf8)[facet.index.byteStart..<facet.index.byteEnd])
    }

    /// Facets over whole graphemes that do not overlap, for texts edited at grapheme boundaries.
    func wellFormed(using generator: inout SplitMix64) -> RichText {
        let base = RandomRichText.make(using: &generator)
        let rich = RichText(
            text: base.text,
            facets: base.segments().compactMap { segment in
                segment.facet.map {
                    AppBskyRichtextFacet(
                        index: .init(byteStart: segment.bytes.lowerBound, byteEnd: segment.bytes.upperBound),
                        features: $0.features)
                }
            })
        return rich
    }

    /// The UTF-8 offsets of the grapheme boundaries of `text`.
    func boundaries(_ text: String) -> [Int] {
        var offsets = [0]
        for character in text { offsets.append((offsets.last ?? 0) + character.utf8.count) }
        return offsets
    }

    func testEditsKeepFacetsOnTheirText() {
        var generator = SplitMix64(seed: 2024)
        for iteration in 0..<3000 {
            var rich = wellFormed(using: &generator)
            let offsets = boundaries(rich.text)
            let before = rich.facets.map { (facet: $0, text: covered(rich, $0)) }
            let a = offsets.randomElement(using: &generator) ?? 0
            let b = offsets.randomElement(using: &generator) ?? 0
            let context =
                "iteration \(iteration): \(rich.text.debugDescription) \(rich.facets.map(\.index)) edit \(a) \(b)"
            if Bool.random(using: &generator) {
                let inserted = RandomRichText.pieces.randomElement(using: &generator) ?? "x"
                rich.insert(inserted, atByte: a)
                XCTAssertEqual(rich.utf8Count, offsets.last.map { $0 + inserted.utf8.count }, context)
                for (old, new) in zip(before, rich.facets) {
                    // Outside (at or before the start, at or after the end): the same text, moved or not.
                    if a <= old.facet.index.byteStart || a >= old.facet.index.byteEnd {
                        XCTAssertEqual(covered(rich, new), old.text, context)
                    } else {
                        XCTAssertEqual(
                            new.index.byteEnd - new.index.byteStart, old.text.count + inserted.utf8.count, context)
                    }
                }
            } else {
                let range = min(a, b)..<max(a, b)
                rich.deleteBytes(in: range)
                let untouched = before.filter {
                    $0.facet.index.byteEnd <= range.lowerBound || $0.facet.index.byteStart >= range.upperBound
                }
                for old in untouched {
                    XCTAssertTrue(
                        rich.facets.contains { covered(rich, $0) == old.text && $0.features == old.facet.features },
                        context)
                }
            }
            for facet in rich.facets {
                XCTAssertTrue(
                    0 <= facet.index.byteStart && facet.index.byteStart < facet.index.byteEnd
                        && facet.index.byteEnd <= rich.utf8Count, context)
            }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }
}
