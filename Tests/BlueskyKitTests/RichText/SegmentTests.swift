import AtprotoLexicons
import BlueskyKit
import XCTest

func facet(_ start: Int, _ end: Int, _ feature: RichTextFeature = .tag("t")) -> AppBskyRichtextFacet {
    AppBskyRichtextFacet(
        index: .init(byteStart: start, byteEnd: end), features: [feature.featureItem])
}

/// The official client's segment scenarios, and what it gets wrong with wrong facets.
final class SegmentTests: XCTestCase {
    func texts(_ rich: RichText) -> [String] { rich.segments().map(\.text) }

    func testPlainText() {
        XCTAssertEqual(texts(RichText(text: "")), [])
        XCTAssertEqual(texts(RichText(text: "", facets: [facet(0, 3)])), [])
        XCTAssertEqual(texts(RichText(text: "hello")), ["hello"])
        XCTAssertNil(RichText(text: "hello").segments()[0].facet)
    }

    func testFacetPositions() {
        XCTAssertEqual(texts(RichText(text: "one two three", facets: [facet(4, 7)])), ["one ", "two", " three"])
        XCTAssertEqual(texts(RichText(text: "one two three", facets: [facet(0, 3)])), ["one", " two three"])
        XCTAssertEqual(texts(RichText(text: "one two three", facets: [facet(8, 13)])), ["one two ", "three"])
        XCTAssertEqual(texts(RichText(text: "one two three", facets: [facet(0, 13)])), ["one two three"])
        let words = RichText(text: "one two three", facets: [facet(0, 3), facet(4, 7), facet(8, 13)])
        XCTAssertEqual(texts(words), ["one", " ", "two", " ", "three"])
        XCTAssertEqual(words.segments().map { $0.facet != nil }, [true, false, true, false, true])
        XCTAssertEqual(words.segments().map(\.bytes), [0..<3, 3..<4, 4..<7, 7..<8, 8..<13])
    }

    func testUTF8Indices() {
        let family = "👨‍👩‍👧‍👧"
        XCTAssertEqual(family.utf8.count, 25)
        let rich = RichText(
            text: "\(family) \(family) \(family)", facets: [facet(0, 25), facet(26, 51), facet(52, 77)])
        XCTAssertEqual(texts(rich), [family, " ", family, " ", family])
    }

    func testFeatures() {
        let rich = RichText(
            text: "@alice.test see example.com #swift",
            facets: [
                facet(0, 11, .mention(DID(rawValue: "did:plc:alice"))),
                facet(16, 27, .link(URIString(rawValue: "https://example.com"))),
                facet(28, 34, .tag("swift")),
            ])
        let segments = rich.segments()
        XCTAssertEqual(segments.map(\.text), ["@alice.test", " see ", "example.com", " ", "#swift"])
        XCTAssertEqual(segments[0].mention, DID(rawValue: "did:plc:alice"))
        XCTAssertEqual(segments[2].link, URIString(rawValue: "https://example.com"))
        XCTAssertEqual(segments[4].tag, "swift")
        XCTAssertNil(segments[1].feature)
    }

    func testOverlappingFacetsAreSkipped() {
        // Left edge: the later facet starts inside the earlier one.
        let left = RichText(text: "one two three", facets: [facet(0, 7), facet(4, 13)])
        XCTAssertEqual(texts(left), ["one two", " three"])
        // Right edge, given out of order: sorted by start first.
        let right = RichText(text: "one two three", facets: [facet(4, 13), facet(0, 7)])
        XCTAssertEqual(texts(right), ["one two", " three"])
    }

    func testNegativeAndOutOfBoundsFacets() {
        let rich = RichText(text: "one two three", facets: [facet(7, 4), facet(0, 3), facet(8, 400), facet(50, 60)])
        XCTAssertEqual(texts(rich), ["one", " two ", "three"])
        XCTAssertEqual(rich.segments().map(\.bytes), [0..<3, 3..<8, 8..<13])
    }

    func testFacetStartingBeforeTheTextIsSkipped() {
        // The official client skips it; moving its start to 0 would link the text's first bytes.
        let rich = RichText(text: "one two three", facets: [facet(-3, 3, .link(URIString(rawValue: "https://x.test")))])
        XCTAssertEqual(texts(rich), ["one two three"])
        XCTAssertNil(rich.segments()[0].facet)
        let later = RichText(text: "one two three", facets: [facet(-1, 7), facet(4, 7)])
        XCTAssertEqual(texts(later), ["one ", "two", " three"])
    }

    func testFacetsSplittingGraphemesAreWidened() {
        let family = "👨‍👩‍👧‍👧"
        // Byte 1 is inside the first scalar's UTF-8 sequence, 12 between scalars of one grapheme.
        let rich = RichText(text: "a\(family)b", facets: [facet(2, 12)])
        XCTAssertEqual(texts(rich), ["a", family, "b"])
        // "e" + combining acute: cutting after "e" would leave the accent alone.
        let accent = RichText(text: "cafe\u{301} bar", facets: [facet(0, 4)])
        XCTAssertEqual(texts(accent), ["cafe\u{301}", " bar"])
        // CR LF is one grapheme.
        let crlf = RichText(text: "a\r\nb", facets: [facet(2, 4)])
        XCTAssertEqual(texts(crlf), ["a", "\r\nb"])
    }

    func testWhitespaceOnlyFacetIsPlain() {
        let rich = RichText(text: "a   b", facets: [facet(1, 4)])
        XCTAssertEqual(texts(rich), ["a   b"])
        XCTAssertNil(rich.segments()[0].facet)
    }
}

/// The official client's legacy-entity scenarios: early posts carry `entities` with UTF-16 ranges.
final class LegacyEntityTests: XCTestCase {
    func entity(_ start: Int, _ end: Int, _ type: String, _ value: String) -> AppBskyFeedPost.Entity {
        AppBskyFeedPost.Entity(index: .init(start: start, end: end), type: type, value: value)
    }

    func testEntitiesBecomeFacets() {
        let post = AppBskyFeedPost(
            text: "test", createdAt: "2023-01-01T00:00:00Z",
            entities: [
                entity(0, 1, "link", "https://example.com"), entity(1, 2, "mention", "did:plc:1234"),
                entity(2, 3, "other", "willbedropped"),
            ])
        let rich = RichText(post: post)
        XCTAssertEqual(rich.facets.map(\.index.byteStart), [0, 1])
        XCTAssertEqual(rich.facets.map(\.index.byteEnd), [1, 2])
        XCTAssertEqual(
            rich.facets.map(\.feature),
            [.link(URIString(rawValue: "https://example.com")), .mention(DID(rawValue: "did:plc:1234"))])
    }

    func testUTF16IndicesBecomeUTF8Offsets() {
        let family = "👨‍👩‍👧‍👧"  // 11 UTF-16 units, 25 bytes
        let post = AppBskyFeedPost(
            text: family + family + family, createdAt: "2023-01-01T00:00:00Z",
            entities: [
                entity(0, 11, "link", "https://example.com"), entity(11, 22, "mention", "did:plc:1234"),
                entity(22, 33, "other", "willbedropped"),
            ])
        let rich = RichText(post: post)
        XCTAssertEqual(rich.facets.map { $0.index.byteStart..<$0.index.byteEnd }, [0..<25, 25..<50])
        // Facets win over entities; hostile ranges are cut to the text, and inside a surrogate pair
        // taken to its start.
        let hostile = AppBskyFeedPost(
            text: "a🦋b", createdAt: "2023-01-01T00:00:00Z",
            entities: [entity(2, 99, "link", "https://x.com"), entity(-5, Int.max, "mention", "did:plc:x")])
        XCTAssertEqual(RichText(post: hostile).facets.map { $0.index.byteStart..<$0.index.byteEnd }, [1..<6])
        XCTAssertEqual(RichText(post: hostile).segments().map(\.text).joined(), "a🦋b")
        var both = post
        both.facets = [facet(0, 25, .tag("x"))]
        XCTAssertEqual(RichText(post: both).facets.count, 1)
    }

    func testEntitiesThatCannotBeRangesAreDroppedAndTheRestSorted() {
        let post = AppBskyFeedPost(
            text: "one two three", createdAt: "2023-01-01T00:00:00Z",
            entities: [
                entity(8, 13, "link", "https://three.test"), entity(7, 4, "link", "https://reversed.test"),
                entity(-2, 3, "mention", "did:plc:before"), entity(0, 3, "mention", "did:plc:one"),
                entity(4, 7, "link", "https://two.test"),
            ])
        let rich = RichText(post: post)
        XCTAssertEqual(rich.facets.map { $0.index.byteStart..<$0.index.byteEnd }, [0..<3, 4..<7, 8..<13])
        XCTAssertEqual(
            rich.facets.map(\.feature),
            [
                .mention(DID(rawValue: "did:plc:one")), .link(URIString(rawValue: "https://two.test")),
                .link(URIString(rawValue: "https://three.test")),
            ])
        XCTAssertFalse(rich.facets.contains { $0.index.byteStart >= $0.index.byteEnd })
    }
}
