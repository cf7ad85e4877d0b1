import AtprotoLexicons
import BlueskyKit
import XCTest

/// The official client's insert and delete scenarios (a facet over bytes 2..<7 of "hello world"),
/// in ASCII and with emoji, and its sanitizing scenarios.
final class EditingTests: XCTestCase {
    func helloWorld() -> RichText { RichText(text: "hello world", facets: [facet(2, 7)]) }

    func ranges(_ rich: RichText) -> [Range<Int>] { rich.facets.map { $0.index.byteStart..<$0.index.byteEnd } }

    func covered(_ rich: RichText) -> [String] {
        rich.facets.map {
            String(decoding: Array(rich.text.utf8)[$0.index.byteStart..<$0.index.byteEnd], as: UTF8.self)
        }
    }

    func testInsert() {
        var before = helloWorld()
        before.insert("test", atByte: 0)
        XCTAssertEqual(before.text, "testhello world")
        XCTAssertEqual(ranges(before), [6..<11])
        var inner = helloWorld()
        inner.insert("test", atByte: 4)
        XCTAssertEqual(inner.text, "helltesto world")
        XCTAssertEqual(ranges(inner), [2..<11])
        var after = helloWorld()
        after.insert("test", atByte: 8)
        XCTAssertEqual(after.text, "hello wotestrld")
        XCTAssertEqual(ranges(after), [2..<7])
        // At the facet's start: moves it; at its end: leaves it.
        var atStart = helloWorld()
        atStart.insert("X", atByte: 2)
        XCTAssertEqual(covered(atStart), ["llo w"])
        var atEnd = helloWorld()
        atEnd.insert("X", atByte: 7)
        XCTAssertEqual(covered(atEnd), ["llo w"])
    }

    func testDelete() {
        let cases: [(Range<Int>, String, [Range<Int>])] = [
            (0..<9, "ld", []),  // A: entirely outer
            (7..<11, "hello w", [2..<7]),  // B: entirely after
            (4..<11, "hell", [2..<4]),  // C: partially after
            (3..<5, "hel world", [2..<5]),  // D: entirely inner
            (1..<5, "h world", [1..<3]),  // E: partially before
            (0..<2, "llo world", [0..<5]),  // F: entirely before
        ]
        for (range, text, expected) in cases {
            var rich = helloWorld()
            rich.deleteBytes(in: range)
            XCTAssertEqual(rich.text, text, "\(range)")
            XCTAssertEqual(ranges(rich), expected, "\(range)")
        }
    }

    func testEditsWithEmoji() {
        let family = "👨‍👩‍👧‍👧"
        // The facet covers "llo w" between emoji.
        let base = RichText(text: "he\(family)llo w\(family)orld", facets: [facet(27, 32)])
        XCTAssertEqual(covered(base), ["llo w"])
        var inserted = base
        inserted.insert(family, atByte: 29)
        XCTAssertEqual(covered(inserted), ["ll\(family)o w"])
        var deleted = base
        deleted.deleteBytes(in: 2..<27)  // the first family
        XCTAssertEqual(deleted.text, "hello w\(family)orld")
        XCTAssertEqual(covered(deleted), ["llo w"])
        var partly = base
        partly.deleteBytes(in: 31..<57)  // "w" and the second family
        XCTAssertEqual(covered(partly), ["llo "])
        // An offset inside a UTF-8 sequence is taken to the start of its character.
        var inside = base
        inside.insert("X", atByte: 3)
        XCTAssertEqual(inside.text, "heX\(family)llo w\(family)orld")
        XCTAssertEqual(covered(inside), ["llo w"])
        var outside = base
        outside.insert("!", atByte: 1000)
        XCTAssertEqual(outside.text, base.text + "!")
    }

    func testEditsByStringIndex() {
        var rich = helloWorld()
        let w = rich.text.firstIndex(of: "w") ?? rich.text.endIndex
        rich.insert("big ", at: w)
        XCTAssertEqual(rich.text, "hello big world")
        XCTAssertEqual(covered(rich), ["llo big w"])
        let big = rich.text.range(of: "big ") ?? rich.text.startIndex..<rich.text.startIndex
        rich.delete(big)
        XCTAssertEqual(covered(rich), ["llo w"])
    }

    func testCollapsesBlankLines() {
        let cases: [(String, String)] = [
            (
                "test\n\n\n\n\ntest\n\n\n\n\n\n\ntest\n\n\n\n\n\n\ntest\n\n\n\n\n\n\ntest",
                "test\n\ntest\n\ntest\n\ntest\n\ntest"
            ),
            ("test👨‍👩‍👧‍👧\n\n\n\n\n👨‍👩‍👧‍👧test\n\n\n\n\n\n\ntest👨‍👩‍👧‍👧", "test👨‍👩‍👧‍👧\n\n👨‍👩‍👧‍👧test\n\ntest👨‍👩‍👧‍👧"),
            ("test\n\n\n\n\ntest\n \n \n \n \n\n\ntest\n\n\n\n\n  \n\ntest", "test\n\ntest\n\ntest\n\ntest"),
            ("test\n\ntest\n\ntest", "test\n\ntest\n\ntest"),
            ("test test          test", "test test          test"),
            ("", ""),
            (
                "test\r\ntest\n\rtest\rtest\n\n\n\ntest\n\r \n \n \n \n\n\ntest",
                "test\r\ntest\n\rtest\rtest\n\ntest\n\ntest"
            ),
            ("test\n\u{200B}\u{200B}\n\n\n\ntest\n \u{200B}\u{200B} \n\n\n\ntest", "test\n\ntest\n\ntest"),
            ("test\n\u{200C}\u{200C}\n\n\ntest", "test\n\ntest"),
            ("test\n\u{200D}\u{200D}\n\n\ntest", "test\n\ntest"),
            ("test\n\u{AD}\u{AD}\n\n\ntest", "test\n\ntest"),
            ("test\n\u{2060}\u{2060}\n\n\ntest", "test\n\ntest"),
        ]
        for (input, output) in cases {
            XCTAssertEqual(
                RichText(text: input).sanitized(trimming: .none).text, output, input.debugDescription)
        }
    }

    func testSanitizingMovesFacets() {
        let input = RichText(
            text: "test\n\n\n\n\ntest\n\n\n\n\n\n\ntest\n\n\n\n\n\n\ntest\n\n\n\n\n\n\ntest",
            facets: [facet(0, 13), facet(13, 24), facet(9, 15), facet(4, 9)])
        XCTAssertEqual(covered(input), ["test\n\n\n\n\ntest", "\n\n\n\n\n\n\ntest", "test\n\n", "\n\n\n\n\n"])
        let output = input.sanitized(trimming: .none)
        XCTAssertEqual(output.text, "test\n\ntest\n\ntest\n\ntest\n\ntest")
        XCTAssertEqual(covered(output), ["test\n\ntest", "test", "test"])
    }

    func testSanitizingMovesFacetsWithEmoji() {
        let family = "👨‍👩‍👧‍👧"
        let text = String(repeating: "\(family)test\n\n\n\n\n", count: 7)
        var facets: [AppBskyRichtextFacet] = []
        var from = text.startIndex
        for piece in ["\(family)test\n\n\n\n\n\(family)test", "\n\n\n\n\n\(family)test", "\(family)test\n\n", "\n\n"] {
            guard let found = text.range(of: piece, range: from..<text.endIndex) else { return XCTFail(piece) }
            let start = text.utf8.distance(from: text.startIndex, to: found.lowerBound)
            facets.append(facet(start, start + piece.utf8.count))
            from = found.upperBound
        }
        let output = RichText(text: text, facets: facets).sanitized(trimming: .none)
        XCTAssertEqual(output.text, String(repeating: "\(family)test\n\n", count: 7))
        XCTAssertEqual(covered(output), ["\(family)test\n\n\(family)test", "\(family)test", "\(family)test"])
    }

    func testHostileFacetValuesNeverCrashAnEdit() {
        var rich = RichText(text: "hello", facets: [facet(Int.max - 1, Int.max), facet(Int.min, Int.max), facet(1, 3)])
        rich.insert("abc", atByte: 0)
        rich.insert("x", atByte: 4)
        rich.deleteBytes(in: 0..<2)
        rich.deleteBytes(in: Int.min..<Int.max)
        XCTAssertEqual(rich.text, "")
        XCTAssertEqual(rich.segments(), [])
        XCTAssertEqual(RichText(text: "hi", facets: [facet(Int.max, Int.min)]).sanitized(trimming: .both).text, "hi")
    }

    func testTrimming() {
        let rich = RichText(
            text: " \n hi @alice.test \n\n",
            facets: [facet(6, 17, .mention(DID(rawValue: "did:plc:alice"))), facet(17, 20)])
        let end = rich.sanitized()
        XCTAssertEqual(end.text, " \n hi @alice.test")
        XCTAssertEqual(covered(end), ["@alice.test"])
        let both = rich.sanitized(trimming: .both)
        XCTAssertEqual(both.text, "hi @alice.test")
        XCTAssertEqual(covered(both), ["@alice.test"])
        XCTAssertEqual(RichText(text: " \n\n\n\n ").sanitized(trimming: .both).text, "")
    }
}
