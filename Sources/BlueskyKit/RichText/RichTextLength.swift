/// The limits `app.bsky.feed.post` and `app.bsky.richtext.facet` put on text.
public enum RichTextLimits {
    /// A post's text: at most this many graphemes (`maxGraphemes`).
    public static let postGraphemes = 300
    /// A post's text: at most this many UTF-8 bytes (`maxLength`).
    public static let postBytes = 3000
    /// A tag: at most this many graphemes (`app.bsky.richtext.facet#tag`, `maxGraphemes`).
    public static let tagGraphemes = 64
    /// A tag: at most this many UTF-8 bytes (`maxLength`).
    public static let tagBytes = 640
}

/// A text's length as the lexicon measures it: graphemes (what a person sees as one character:
/// an emoji with its modifiers and joiners, a letter with its combining marks) and UTF-8 bytes.
public struct RichTextLength: Sendable, Hashable {
    /// The number of grapheme clusters (Swift `Character`s), the count people see.
    public var graphemes: Int
    /// The number of UTF-8 bytes.
    public var bytes: Int

    /// The length of `text`.
    public init(of text: String) {
        graphemes = text.count
        bytes = text.utf8.count
    }

    /// Whether the text fits a post: at most ``RichTextLimits/postGraphemes`` graphemes and
    /// ``RichTextLimits/postBytes`` bytes.
    public var fitsPost: Bool { graphemes <= RichTextLimits.postGraphemes && bytes <= RichTextLimits.postBytes }

    /// Graphemes left before the post limit (negative when over); what a composer's counter shows.
    /// The byte limit binds only for text averaging over 10 bytes a grapheme (long emoji sequences),
    /// so a counter should still check ``fitsPost``.
    public var graphemesLeft: Int { RichTextLimits.postGraphemes - graphemes }
}

extension RichText {
    /// The text's length in graphemes and bytes.
    public var length: RichTextLength { RichTextLength(of: text) }
}
