import AtprotoLexicons
import BlueskyKit

/// The texts the benchmark measures, made the same way every run (no randomness).
enum Workload {
    static let words = [
        "the", "build", "is", "green", "again", "café", "naïve", "über", "שלום", "مرحبا", "日本語", "👍🏽",
        "👨‍👩‍👧‍👧", "🦋", "release", "notes", "thanks", "everyone", "e\u{301}te\u{301}",
    ]

    /// A post of exactly 300 graphemes with `facetCount` facets (mentions, links, tags in turn)
    /// spread over it, each over one word-like run.
    static func longPost(facetCount: Int) -> RichText {
        var rich = RichText(text: "")
        var index = 0
        var features = 0
        while rich.text.count < 300 {
            let kind = (index + index / 3) % 3
            let piece: String
            let feature: RichTextFeature?
            if features < facetCount, index % 4 != 0 {
                switch kind {
                case 0:
                    piece = "@u\(index).io"
                    feature = .mention(DID(rawValue: "did:plc:user\(index)"))
                case 1:
                    piece = "x.co/\(index)"
                    feature = .link(URIString(rawValue: "https://x.co/\(index)"))
                default:
                    piece = "#t\(index)"
                    feature = .tag("t\(index)")
                }
                features += 1
            } else {
                piece = words[index % words.count]
                feature = nil
            }
            let start = rich.utf8Count
            rich.text += piece
            if let feature { rich.facets.append(AppBskyRichtextFacet(bytes: start..<rich.utf8Count, feature: feature)) }
            rich.text += " "
            index += 1
        }
        // Exactly 300 graphemes: drop what is over (only plain text is at the end).
        while rich.text.count > 300 { rich.text.removeLast() }
        let total = rich.utf8Count
        rich.facets.removeAll { $0.index.byteEnd > total }
        return rich
    }

    /// 100 post texts like a timeline page's: plain chatter, mentions, links with and without a
    /// scheme, tags, emoji, other scripts; 20 to 300 graphemes.
    static func timelineTexts(count: Int = 100) -> [String] {
        (0..<count).map { post in
            var text = ""
            var index = post
            let target = 20 + (post * 37) % 280
            while text.count < target {
                switch index % 11 {
                case 0: text += "@friend\(index % 7).bsky.social "
                case 3: text += "https://example.com/articles/\(index)?ref=feed, "
                case 5: text += "see github.com/org/repo\(index). "
                case 7: text += "#topic\(index % 5) "
                case 9: text += "(@someone.test) "
                default: text += words[(index * 7) % words.count] + " "
                }
                index += 1
            }
            return String(text.prefix(target))
        }
    }
}
