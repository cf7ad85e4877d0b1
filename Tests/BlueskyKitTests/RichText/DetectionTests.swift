import AtprotoIdentityResolution
import AtprotoLexicons
import BlueskyKit
import XCTest

/// The official client's detection scenarios (`@atproto/api` rich-text detection tests), as the
/// segments they give: `[text]` for plain runs, `[text, did or uri]` for mentions and links.
final class DetectionTests: XCTestCase {
    /// Resolves every handle to `did:fake:<handle>`, like the official tests' stub.
    static func detect(_ text: String) async -> RichText {
        await RichText.detecting(text) { handle in DID(rawValue: "did:fake:\(handle.rawValue)") }
    }

    static func outline(_ rich: RichText) -> [[String]] {
        rich.segments().map { segment in
            switch segment.feature {
            case nil: return [segment.text]
            case .mention(let did): return [segment.text, did.rawValue]
            case .link(let uri): return [segment.text, uri.rawValue]
            case .tag: return [segment.text, ""]
            }
        }
    }

    func check(_ cases: [(String, [[String]])], file: StaticString = #filePath, line: UInt = #line) async {
        for (input, expected) in cases {
            let outline = Self.outline(await Self.detect(input))
            XCTAssertEqual(outline, expected, "input: \(input.debugDescription)", file: file, line: line)
        }
    }

    func testMentions() async {
        let h = "did:fake:handle.com"
        await check([
            ("no mention", [["no mention"]]),
            ("@handle.com middle end", [["@handle.com", h], [" middle end"]]),
            ("start @handle.com end", [["start "], ["@handle.com", h], [" end"]]),
            ("start middle @handle.com", [["start middle "], ["@handle.com", h]]),
            (
                "@handle.com @handle.com @handle.com",
                [["@handle.com", h], [" "], ["@handle.com", h], [" "], ["@handle.com", h]]
            ),
            ("@full123-chars.test", [["@full123-chars.test", "did:fake:full123-chars.test"]]),
            ("not@right", [["not@right"]]),
            ("@handle.com!@#$chars", [["@handle.com", h], ["!@#$chars"]]),
            ("@handle.com\n@handle.com", [["@handle.com", h], ["\n"], ["@handle.com", h]]),
            ("parenthetical (@handle.com)", [["parenthetical ("], ["@handle.com", h], [")"]]),
            ("👨‍👩‍👧‍👧 @handle.com 👨‍👩‍👧‍👧", [["👨‍👩‍👧‍👧 "], ["@handle.com", h], [" 👨‍👩‍👧‍👧"]]),
            // Ours: a trailing dot is not part of the handle; an unknown top-level domain is no handle.
            ("hi @handle.com.", [["hi "], ["@handle.com", h], ["."]]),
            ("hi @handle.notatld", [["hi @handle.notatld"]]),
            ("@under_score.com", [["@under_score.com"]]),
        ])
    }

    func testLinksWithScheme() async {
        await check([
            ("start https://middle.com end", [["start "], ["https://middle.com", "https://middle.com"], [" end"]]),
            (
                "start https://middle.com/foo/bar?baz=bux#hash end",
                [
                    ["start "], ["https://middle.com/foo/bar?baz=bux#hash", "https://middle.com/foo/bar?baz=bux#hash"],
                    [" end"],
                ]
            ),
            (
                "https://start.com/foo/bar?baz=bux#hash middle end",
                [
                    ["https://start.com/foo/bar?baz=bux#hash", "https://start.com/foo/bar?baz=bux#hash"],
                    [" middle end"],
                ]
            ),
            (
                "https://newline1.com\nhttps://newline2.com",
                [
                    ["https://newline1.com", "https://newline1.com"], ["\n"],
                    ["https://newline2.com", "https://newline2.com"],
                ]
            ),
            ("👨‍👩‍👧‍👧 https://middle.com 👨‍👩‍👧‍👧", [["👨‍👩‍👧‍👧 "], ["https://middle.com", "https://middle.com"], [" 👨‍👩‍👧‍👧"]]),
            (
                "Classic article https://socket3.wordpress.com/2018/02/03/designing-windows-95s-user-interface/ ",
                [
                    ["Classic article "],
                    [
                        "https://socket3.wordpress.com/2018/02/03/designing-windows-95s-user-interface/",
                        "https://socket3.wordpress.com/2018/02/03/designing-windows-95s-user-interface/",
                    ], [" "],
                ]
            ),
            (
                "https://foo.com https://bar.com/whatever https://baz.com",
                [
                    ["https://foo.com", "https://foo.com"], [" "],
                    ["https://bar.com/whatever", "https://bar.com/whatever"], [" "],
                    ["https://baz.com", "https://baz.com"],
                ]
            ),
            (
                "punctuation https://foo.com, https://bar.com/whatever; https://baz.com.",
                [
                    ["punctuation "], ["https://foo.com", "https://foo.com"], [", "],
                    ["https://bar.com/whatever", "https://bar.com/whatever"], ["; "],
                    ["https://baz.com", "https://baz.com"], ["."],
                ]
            ),
            (
                "parenthentical (https://foo.com)",
                [["parenthentical ("], ["https://foo.com", "https://foo.com"], [")"]]
            ),
            (
                "except for https://foo.com/thing_(cool)",
                [["except for "], ["https://foo.com/thing_(cool)", "https://foo.com/thing_(cool)"]]
            ),
        ])
    }

    func testLinksWithoutScheme() async {
        await check([
            ("start middle.com end", [["start "], ["middle.com", "https://middle.com"], [" end"]]),
            (
                "start middle.com/foo/bar?baz=bux#hash end",
                [["start "], ["middle.com/foo/bar?baz=bux#hash", "https://middle.com/foo/bar?baz=bux#hash"], [" end"]]
            ),
            (
                "start middle end.com/foo/bar?baz=bux#hash",
                [["start middle "], ["end.com/foo/bar?baz=bux#hash", "https://end.com/foo/bar?baz=bux#hash"]]
            ),
            (
                "newline1.com\nnewline2.com",
                [["newline1.com", "https://newline1.com"], ["\n"], ["newline2.com", "https://newline2.com"]]
            ),
            (
                "a example.com/index.php php link",
                [["a "], ["example.com/index.php", "https://example.com/index.php"], [" php link"]]
            ),
            ("a trailing bsky.app: colon", [["a trailing "], ["bsky.app", "https://bsky.app"], [": colon"]]),
            ("not.. a..url ..here", [["not.. a..url ..here"]]),
            ("e.g.", [["e.g."]]),
            ("something-cool.jpg", [["something-cool.jpg"]]),
            ("website.com.jpg", [["website.com.jpg"]]),
            ("e.g./foo", [["e.g./foo"]]),
            ("website.com.jpg/foo", [["website.com.jpg/foo"]]),
        ])
    }

    func testHashtags() {
        let cases: [(String, [String], [Range<Int>])] = [
            ("#a", ["a"], [0..<2]),
            ("#a #b", ["a", "b"], [0..<2, 3..<5]),
            ("#1", [], []),
            ("#1a", ["1a"], [0..<3]),
            ("body #tag body", ["tag"], [5..<9]),
            ("body #1", [], []),
            ("body #a1", ["a1"], [5..<8]),
            ("#", [], []),
            ("#?", [], []),
            ("text # text", [], []),
            (
                "body #thisisa64characterstring_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                ["thisisa64characterstring_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], [5..<70]
            ),
            ("body #thisisa65characterstring_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", [], []),
            (
                "body #thisisa64characterstring_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
                ["thisisa64characterstring_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], [5..<70]
            ),
            ("its a #double#rainbow", ["double#rainbow"], [6..<21]),
            ("##hashash", ["#hashash"], [0..<9]),
            ("##", [], []),
            ("some #n0n3s@n5e!", ["n0n3s@n5e"], [5..<15]),
            ("works #with,punctuation", ["with,punctuation"], [6..<23]),
            (
                "strips trailing #punctuation, #like. #this!", ["punctuation", "like", "this"],
                [16..<28, 30..<35, 37..<42]
            ),
            ("strips #multi_trailing___...", ["multi_trailing"], [7..<22]),
            ("works with #🦋 emoji, and #butter🦋fly", ["🦋", "butter🦋fly"], [11..<16, 28..<42]),
            ("#same #same #but #diff", ["same", "same", "but", "diff"], [0..<5, 6..<11, 12..<16, 17..<22]),
            ("this #️⃣tag should not be a tag", [], []),
            ("this ##️⃣tag should be a tag", ["#️⃣tag"], [5..<16]),
            ("this #t\nag should be a tag", ["t"], [5..<7]),
            ("no match (\\u200B): #\u{200B}", [], []),
            ("no match (\\u200Ba): #\u{200B}a", [], []),
            ("match (a\\u200Bb): #a\u{200B}b", ["a"], [18..<20]),
            ("match (ab\\u200B): #ab\u{200B}", ["ab"], [18..<21]),
            ("no match (\\u20e2tag): #\u{20E2}tag", [], []),
            ("no match (a\\u20e2b): #a\u{20E2}b", ["a"], [21..<23]),
            ("match full width number sign (tag): ＃tag", ["tag"], [36..<42]),
            ("match full width number sign (tag): ＃#️⃣tag", ["#️⃣tag"], [36..<49]),
            ("no match 1?: #1?", [], []),
            // Ours: 64 graphemes of emoji is a tag although it is far over 64 UTF-16 units.
            ("#" + String(repeating: "👍🏽", count: 64), [String(repeating: "👍🏽", count: 64)], [0..<(1 + 64 * 8)]),
        ]
        for (input, tags, ranges) in cases {
            let found = FacetDetector.detect(in: input).filter {
                if case .tag(let tag) = $0.kind { return !tag.hasPrefix("$") } else { return false }
            }
            XCTAssertEqual(
                found.compactMap { if case .tag(let t) = $0.kind { t } else { nil } }, tags, input.debugDescription)
            XCTAssertEqual(found.map(\.bytes), ranges, input.debugDescription)
        }
    }

    func testCashtags() {
        let cases: [(String, [String], [Range<Int>])] = [
            ("$AAPL", ["$AAPL"], [0..<5]), ("$aapl", ["$AAPL"], [0..<5]), ("$A", ["$A"], [0..<2]),
            ("$a", ["$A"], [0..<2]),
            ("$BTC $ETH", ["$BTC", "$ETH"], [0..<4, 5..<9]), ("$100", [], []), ("$GOOGL", ["$GOOGL"], [0..<6]),
            ("$TOOLONG", [], []), ("check $LEGO now", ["$LEGO"], [6..<11]), ("($GOOG)", ["$GOOG"], [1..<6]),
            ("$AAPL.", ["$AAPL"], [0..<5]), ("$AAPL, $MSFT!", ["$AAPL", "$MSFT"], [0..<5, 7..<12]),
            ("no$SPACE", [], []), ("$", [], []), ("$ AAPL", [], []), ("$123ABC", [], []),
            ("$ABC12", ["$ABC12"], [0..<6]), ("$ABC123", [], []),
        ]
        for (input, tags, ranges) in cases {
            let found = FacetDetector.detect(in: input).filter {
                if case .tag(let tag) = $0.kind { return tag.hasPrefix("$") } else { return false }
            }
            XCTAssertEqual(found.compactMap { if case .tag(let t) = $0.kind { t } else { nil } }, tags, input)
            XCTAssertEqual(found.map(\.bytes), ranges, input)
        }
    }

    func testUnresolvedMentionsStayText() async {
        let rich = await RichText.detecting("hi @alice.test and @nobody.test see example.com") { handle in
            handle.rawValue == "alice.test" ? DID(rawValue: "did:plc:alice") : nil
        }
        XCTAssertEqual(rich.text, "hi @alice.test and @nobody.test see example.com")
        XCTAssertEqual(
            rich.facets.map(\.feature),
            [.mention(DID(rawValue: "did:plc:alice")), .link(URIString(rawValue: "https://example.com"))])
        XCTAssertEqual(rich.facets.map(\.index.byteStart), [3, 36])
    }

    func testEachHandleIsResolvedOnceCaseInsensitively() async {
        let calls = Calls()
        let rich = await RichText.detecting("@Bob.test @bob.test @bob.TEST") { handle in
            await calls.record(handle.rawValue)
            return DID(rawValue: "did:plc:bob")
        }
        let recorded = await calls.names
        XCTAssertEqual(recorded, ["bob.test"])
        // `@bob.TEST` does not end in a lower-case `.test` or a known domain, as in the official client.
        XCTAssertEqual(rich.facets.count, 2)
    }
}

actor Calls {
    var names: [String] = []
    func record(_ name: String) { names.append(name) }
}

/// A handle resolver that knows some handles and fails for the rest, as `IdentityError`.
struct KnownHandles: HandleResolver {
    let dids: [String: String]
    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        guard let did = dids[handle.rawValue] else {
            throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "not known")
        }
        return DID(rawValue: did)
    }
}

final class ResolverDetectionTests: XCTestCase {
    func testMentionsResolvedThroughAHandleResolver() async {
        let resolver = KnownHandles(dids: ["alice.test": "did:plc:alice"])
        let rich = await RichText.detecting("@alice.test meets @carol.test", resolver: resolver)
        XCTAssertEqual(rich.facets.map(\.feature), [.mention(DID(rawValue: "did:plc:alice"))])
        XCTAssertEqual(rich.segments().map(\.text), ["@alice.test", " meets @carol.test"])
    }
}
