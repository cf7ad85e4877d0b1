// The muted-word matcher first looks for the muted word's letters (without punctuation and
// whitespace) in the text's letters, and skips the word-by-word comparison when they are not there.
// These tests compare it with the full comparison on many generated texts and words.

import SeededRandom
import XCTest
import XRPCTesting

@testable import BlueskyKit

final class MutedWordPrefilterTests: XCTestCase {
    static let pieces = [
        "a", "b", "ab", "ba", "super", "bad", " ", "  ", "\n", "\t", "-", "/", "!", "'", "(", ")", "_", "@", "#",
        "…", "—", "希", "望", "🦋", "☠︎", "e\u{301}", "é", ",", ".", ":)", "$", "+",
    ]

    func testThePrefilterChangesNoOutcome() {
        var random = SplitMix64(seed: 25)
        var compared = 0
        var matched = 0
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Self.pieces.randomElement(using: &random) ?? ""
            }
            .joined()
            let muted: String
            if Bool.random(using: &random), !text.isEmpty {
                // A slice of the text, sometimes with its punctuation turned into spaces or dropped.
                let scalars = Array(text.unicodeScalars)
                let start = Int.random(in: 0..<scalars.count, using: &random)
                let end = Int.random(in: start...scalars.count, using: &random)
                var slice = String(String.UnicodeScalarView(scalars[start..<end]))
                if Bool.random(using: &random) { slice = MutedWords.replacingPunctuationRuns(slice, with: " ") }
                if Bool.random(using: &random) {
                    slice = String(String.UnicodeScalarView(slice.unicodeScalars.filter { !$0.isPunctuation }))
                }
                muted = slice
            } else {
                muted = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    Self.pieces.randomElement(using: &random) ?? ""
                }
                .joined()
            }
            for unspaced in [false, true] {
                let prepared = PreparedText(text)
                let fast = prepared.match(muted, unspaced: unspaced)
                let full = prepared.match(muted, unspaced: unspaced, prefilter: false)
                XCTAssertEqual(
                    fast.map { $0 ?? "<whole>" }, full.map { $0 ?? "<whole>" }, "\"\(muted)\" in \"\(text)\"")
                compared += 1
                if full != nil { matched += 1 }
            }
        }
        XCTAssertGreaterThan(matched, compared / 10, "too few matches to say anything")
    }
}
