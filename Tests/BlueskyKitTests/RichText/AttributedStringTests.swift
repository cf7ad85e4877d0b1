import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest

final class AttributedStringTests: XCTestCase {
    let alice = DID(rawValue: "did:plc:alice")
    let family = "👨‍👩‍👧‍👧"

    func sample() -> RichText {
        // "👨‍👩‍👧‍👧 hi @alice.test see example.com #swift"
        let text = "\(family) hi @alice.test see example.com #swift"
        return RichText(
            text: text,
            facets: [
                facet(29, 40, .mention(alice)), facet(45, 56, .link(URIString(rawValue: "https://example.com"))),
                facet(57, 63, .tag("swift")),
            ])
    }

    func testAttributes() {
        let attributed = sample().attributedString()
        XCTAssertEqual(String(attributed.characters), sample().text)
        let runs = attributed.runs.map {
            (String(attributed.characters[$0.range]), $0.blueskyMention, $0.blueskyTag, $0.link)
        }
        XCTAssertEqual(runs.map(\.0), ["\(family) hi ", "@alice.test", " see ", "example.com", " ", "#swift"])
        XCTAssertEqual(runs[1].1, alice)
        XCTAssertEqual(runs[1].3, URL(string: "at://did:plc:alice"))
        XCTAssertEqual(runs[3].3, URL(string: "https://example.com"))
        XCTAssertEqual(runs[5].2, "swift")
        XCTAssertNil(runs[5].3)
        XCTAssertNil(runs[0].3)
        let custom = sample().attributedString(urls: RichTextURLs(tag: { URL(string: "myapp://tag/\($0)") }))
        XCTAssertEqual(custom.runs.last?.link, URL(string: "myapp://tag/swift"))
    }

    func testRoundTrip() {
        let rich = sample()
        XCTAssertEqual(RichText(rich.attributedString()), rich)
        // Wrong facets come back as the segments show them: the overlapping one is gone, none is lost.
        let wrong = RichText(text: "one two three", facets: [facet(4, 13), facet(0, 7), facet(-2, 99)])
        let back = RichText(wrong.attributedString())
        XCTAssertEqual(back.text, wrong.text)
        XCTAssertEqual(back.facets.map(\.index.byteStart), [0])
    }

    func testEditedAttributedStringGivesMovedFacets() throws {
        var attributed = sample().attributedString()
        // Insert before the mention, delete "see ", append a link typed in the editor.
        let mention = try XCTUnwrap(attributed.range(of: "@alice.test"))
        attributed.insert(AttributedString("ooh "), at: mention.lowerBound)
        let see = try XCTUnwrap(attributed.range(of: "see "))
        attributed.removeSubrange(see)
        var added = AttributedString("docs")
        added.link = URL(string: "https://example.org/docs")
        attributed += AttributedString(" ") + added
        let rich = RichText(attributed)
        XCTAssertEqual(rich.text, "\(family) hi ooh @alice.test example.com #swift docs")
        let segments = rich.segments().filter { $0.feature != nil }
        XCTAssertEqual(segments.map(\.text), ["@alice.test", "example.com", "#swift", "docs"])
        XCTAssertEqual(
            segments.map(\.feature),
            [
                .mention(alice), .link(URIString(rawValue: "https://example.com")), .tag("swift"),
                .link(URIString(rawValue: "https://example.org/docs")),
            ])
    }

    func testLinkThatIsNotAURLSurvives() {
        let rich = RichText(text: "x", facets: [facet(0, 1, .link(URIString(rawValue: "not a url with spaces")))])
        let attributed = rich.attributedString()
        XCTAssertEqual(RichText(attributed), rich)
    }
}
