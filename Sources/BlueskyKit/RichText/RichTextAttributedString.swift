import AppBskyLexicons
import ComAtprotoLexicons
import Foundation

/// The attributes ``RichText/attributedString(urls:)`` puts on a post's text, beside Foundation's.
///
/// - A link run has Foundation's `link` (a `URL`, when the URI parses as one) and ``Link`` (the
///   facet's URI exactly as written).
/// - A mention run has ``Mention`` (the DID) and, by default, `link` set to `at://<did>`, so that
///   SwiftUI's `Text` makes it tappable; an app's `OpenURLAction` sees the `at` scheme and opens the
///   profile. ``RichTextURLs`` changes that URL.
/// - A tag run has ``Tag`` (without `#`) and `link` only when ``RichTextURLs/tag`` gives a URL (by
///   default it gives none: a tag has no standard URL; an app passes its own, e.g. `myapp://tag/x`).
///
/// Read them as `attributed.runs[\.blueskyMention]`, or `run.blueskyMention` on a run.
public enum BlueskyAttributes {
    /// The DID a run mentions (`app.bsky.richtext.facet#mention`).
    public enum Mention: AttributedStringKey {
        public typealias Value = DID
        public static let name = "BlueskyKit.mention"
    }

    /// The hashtag of a run, without `#` (`app.bsky.richtext.facet#tag`).
    public enum Tag: AttributedStringKey {
        public typealias Value = String
        public static let name = "BlueskyKit.tag"
    }

    /// The URI of a link run as the facet gives it (`app.bsky.richtext.facet#link`), also when it is
    /// not a `URL` Foundation can parse.
    public enum Link: AttributedStringKey {
        public typealias Value = URIString
        public static let name = "BlueskyKit.link"
    }
}

extension AttributeScopes {
    /// BlueskyKit's attributes with Foundation's.
    public struct BlueskyKitAttributes: AttributeScope {
        /// The DID a run mentions.
        public let blueskyMention: BlueskyAttributes.Mention
        /// The hashtag of a run.
        public let blueskyTag: BlueskyAttributes.Tag
        /// The URI of a link run.
        public let blueskyLink: BlueskyAttributes.Link
        /// Foundation's attributes (`link` among them).
        public let foundation: FoundationAttributes
    }

    /// BlueskyKit's attribute scope.
    public var blueskyKit: BlueskyKitAttributes.Type { BlueskyKitAttributes.self }
}

extension AttributeDynamicLookup {
    /// `run.blueskyMention`, `attributed.blueskyTag`, ... .
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AttributeScopes.BlueskyKitAttributes, T>)
        -> T
    { self[T.self] }
}

/// The `link` URLs ``RichText/attributedString(urls:)`` gives mentions and tags.
public struct RichTextURLs: Sendable {
    /// The URL of a mention; `nil` for none.
    public var mention: @Sendable (DID) -> URL?
    /// The URL of a tag (without `#`); `nil` for none.
    public var tag: @Sendable (String) -> URL?

    /// Mentions as `at://<did>`, tags without a URL, unless given.
    public init(
        mention: @escaping @Sendable (DID) -> URL? = { URL(string: "at://\($0.rawValue)") },
        tag: @escaping @Sendable (String) -> URL? = { _ in nil }
    ) {
        self.mention = mention
        self.tag = tag
    }
}

extension RichText {
    /// The text as an `AttributedString` with each facet's feature as attributes (see
    /// ``BlueskyAttributes``), cut as ``segments()`` cuts it, so any facets work.
    public func attributedString(urls: RichTextURLs = RichTextURLs()) -> AttributedString {
        var result = AttributedString()
        for segment in segments() {
            var piece = AttributedString(segment.text)
            switch segment.feature {
            case .mention(let did):
                piece.blueskyMention = did
                piece.link = urls.mention(did)
            case .tag(let tag):
                piece.blueskyTag = tag
                piece.link = urls.tag(tag)
            case .link(let uri):
                piece.blueskyLink = uri
                piece.link = URL(string: uri.rawValue)
            case nil: break
            }
            result += piece
        }
        return result
    }

    /// The text and facets of an `AttributedString`, typically one from ``attributedString(urls:)``
    /// that the person has edited. A run's feature is its ``BlueskyAttributes/Mention``, else its
    /// ``BlueskyAttributes/Tag``, else its ``BlueskyAttributes/Link``, else its Foundation `link`
    /// (a link added in the editor); the `link` a mention or tag also carries is not read as a
    /// link. Adjacent runs with the same feature make one facet.
    public init(_ attributed: AttributedString) {
        var facets: [AppBskyRichtextFacet] = []
        var offset = 0
        var open: (feature: RichTextFeature, start: Int)?
        var text = ""
        for run in attributed.runs {
            let piece = String(attributed.characters[run.range])
            text += piece
            let feature: RichTextFeature? =
                if let did = run.blueskyMention { .mention(did) } else if let tag = run.blueskyTag {
                    .tag(tag)
                } else if let uri = run.blueskyLink { .link(uri) } else if let url = run.link {
                    .link(URIString(rawValue: url.absoluteString))
                } else { nil }
            if let current = open, current.feature != feature {
                facets.append(AppBskyRichtextFacet(bytes: current.start..<offset, feature: current.feature))
                open = nil
            }
            if let feature, open == nil { open = (feature, offset) }
            offset += piece.utf8.count
        }
        if let current = open {
            facets.append(AppBskyRichtextFacet(bytes: current.start..<offset, feature: current.feature))
        }
        self.init(text: text, facets: facets)
    }
}
