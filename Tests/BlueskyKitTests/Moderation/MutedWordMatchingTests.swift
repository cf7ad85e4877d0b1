// Muted words against text, the cases of the reference client (packages/api/tests/
// moderation-mutewords.test.ts, `matchMuteWords`): tags, early exits, whole words, punctuation around
// and inside words, phrases, languages without spaces, facets with several features.

import AtprotoLexicons
import BlueskyKit
import XCTest
import XRPCRuntime

final class MutedWordMatchingTests: XCTestCase {
    /// One muted word against one text; the tag facets stand for the `#tags` in the text.
    struct Case {
        var text: String
        var muted: String
        var targets: [AppBskyActorDefs.MutedWordTarget] = ["content"]
        var tagFacets: [String] = []
        var outlineTags: [String] = []
        var languages: [String]? = nil
        var matches: Bool
    }

    static let cases: [Case] = [
        // Tags: outline tags and tag facets; a content word matches tags too.
        Case(
            text: "This is a post #inlineTag", muted: "outlineTag", targets: ["tag"], tagFacets: ["inlineTag"],
            outlineTags: ["outlineTag"], matches: true),
        Case(
            text: "This is a post #inlineTag", muted: "inlineTag", targets: ["tag"], tagFacets: ["inlineTag"],
            outlineTags: ["outlineTag"], matches: true),
        Case(
            text: "This is a post #inlineTag", muted: "inlineTag", tagFacets: ["inlineTag"],
            outlineTags: ["outlineTag"], matches: true),
        Case(text: "This is a post", muted: "inlineTag", targets: ["tag"], matches: false),
        // Early exits: single characters, long words, exact text.
        Case(text: "改善希望です", muted: "希", matches: true),
        Case(text: "Idk why ☠︎ but maybe", muted: "☠︎", matches: true),
        Case(text: "hey", muted: "politics", matches: false),
        Case(text: "javascript", muted: "javascript", matches: true),
        // General content.
        Case(text: "This is a post about javascript", muted: "javascript", matches: true),
        Case(text: "Use your brain, Eric", muted: "ai", matches: false),
        Case(text: "Use your\n\tbrain, Eric", muted: "brain", matches: true),
        Case(text: "So happy :)", muted: ":)", matches: true),
        // Punctuation around and inside words.
        Case(text: "We're federating, yay!", muted: "yay!", matches: true),
        Case(text: "We're federating, yay!", muted: "yay", matches: true),
        Case(text: "We're federating, y!ppee!!", muted: "y!ppee", matches: true),
        Case(text: "We're federating, y!ppee!!", muted: "y!ppee!", matches: true),
        Case(text: "Yay, Bluesky's mutewords work", muted: "Bluesky's", matches: true),
        Case(text: "Yay, Bluesky's mutewords work", muted: "Bluesky", matches: true),
        Case(text: "Yay, Bluesky's mutewords work", muted: "bluesky", matches: true),
        Case(text: "Yay, Bluesky's mutewords work", muted: "blueskys", matches: true),
        Case(text: "Why so S@assy?", muted: "S@assy", matches: true),
        Case(text: "Why so S@assy?", muted: "s@assy", matches: true),
        Case(text: "New York Times", muted: "new york times", matches: true),
        Case(text: "Idk maybe a bot !command", muted: "!command", matches: true),
        Case(text: "Idk maybe a bot !command", muted: "command", matches: true),
        Case(text: "Idk maybe a bot command", muted: "!command", matches: false),
        Case(text: "Tomatoes are fruits and/or vegetables", muted: "and/or", matches: true),
        Case(text: "Tomatoes are fruits and/or vegetables", muted: "Andor", matches: false),
        Case(text: "I'm super-bad", muted: "super-bad", matches: true),
        Case(text: "I'm super-bad", muted: "super", matches: true),
        Case(text: "I'm super-bad", muted: "bad", matches: true),
        Case(text: "I'm super-bad", muted: "super bad", matches: true),
        Case(text: "I'm super-bad", muted: "superbad", matches: true),
        Case(text: "Weird post with idk_what_this_would_be", muted: "idk what this would be", matches: true),
        Case(text: "Weird post with idk_what_this_would_be", muted: "idk what this would be for", matches: false),
        Case(text: "Weird post with idk_what_this_would_be", muted: "idk", matches: true),
        Case(text: "Weird post with idk_what_this_would_be", muted: "idkwhatthiswouldbe", matches: true),
        Case(text: "Post with context(iykyk)", muted: "context(iykyk)", matches: true),
        Case(text: "Post with context(iykyk)", muted: "context", matches: true),
        Case(text: "Post with context(iykyk)", muted: "iykyk", matches: true),
        Case(text: "Post with context(iykyk)", muted: "(iykyk)", matches: true),
        Case(text: "Post with 🦋", muted: "🦋", matches: true),
        // Phrases.
        Case(
            text: "I like turtles, or how I learned to stop worrying and love the internet.", muted: "stop worrying",
            matches: true),
        Case(
            text: "I like turtles, or how I learned to stop worrying and love the internet.", muted: "turtles, or how",
            matches: true),
        // A language written without spaces.
        Case(
            text: "私はカメが好きです、またはどのようにして心配するのをやめてインターネットを愛するようになったのか", muted: "インターネット",
            languages: ["ja"], matches: true),
    ]

    func testEveryReferenceCase() {
        for item in Self.cases {
            let facets = item.tagFacets.map { Mock.tagFacet($0) }
            let found = MutedWords.matches(
                [Mock.mutedWord(item.muted, targets: item.targets)], text: item.text, facets: facets,
                outlineTags: item.outlineTags, languages: item.languages)
            XCTAssertEqual(!found.isEmpty, item.matches, "\"\(item.muted)\" in \"\(item.text)\"")
        }
    }

    func testATagMatchReportsTheMutedValue() {
        let word = Mock.mutedWord("outlineTag", targets: ["tag"])
        let found = MutedWords.matches(
            [word], text: "This is a post #inlineTag", facets: [Mock.tagFacet("inlineTag")], outlineTags: ["outlineTag"]
        )
        XCTAssertEqual(found, [MutedWordMatch(word: word, predicate: "outlineTag")])
    }

    func testEveryMatchingWordIsReportedInOrder() {
        let words = [Mock.mutedWord("post"), Mock.mutedWord("javascript")]
        let found = MutedWords.matches(words, text: "This is a post about javascript")
        XCTAssertEqual(
            found,
            [
                MutedWordMatch(word: words[0], predicate: "post"),
                MutedWordMatch(word: words[1], predicate: "javascript"),
            ])
    }

    func testAFacetWithSeveralTagsMatchesAnyOfThem() {
        let facet = Mock.tagFacet("good", "bad")
        XCTAssertFalse(MutedWords.matches([Mock.mutedWord("bad")], text: "tags", facets: [facet]).isEmpty)
    }

    func testATagBesideAFeatureOfAnotherLexiconStillMatches() throws {
        let other = AppBskyRichtextFacet.FeaturesItem.unknown(
            LexiconUnknownValue(.object(["$type": .string("com.example.richtext.facet#other"), "foo": .string("bar")])))
        let facet = AppBskyRichtextFacet(
            index: AppBskyRichtextFacet.ByteSlice(byteStart: 0, byteEnd: 4),
            features: [other, .appBskyRichtextFacetTag(AppBskyRichtextFacet.Tag(tag: "bad"))])
        XCTAssertFalse(MutedWords.matches([Mock.mutedWord("bad")], text: "test", facets: [facet]).isEmpty)
    }
}
