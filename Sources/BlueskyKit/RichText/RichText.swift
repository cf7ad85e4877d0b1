import AppBskyLexicons
import ComAtprotoLexicons

/// A post's text with its facets: the annotations (mentions, links, hashtags) that
/// `app.bsky.richtext.facet` places over byte ranges of the text's UTF-8 encoding.
///
/// Swift strings index by `Character`; facets count UTF-8 bytes. This value keeps both straight:
/// ``segments()`` cuts the text for display (any facets, even wrong ones), the editing methods move
/// facets with the text, and ``detecting(_:resolveMention:)`` finds mentions, links and tags the
/// way the official client does.
///
/// ```swift
/// let rich = await RichText.detecting("hi @alice.test, see example.com #swift", resolver: resolver)
/// for segment in rich.segments() { print(segment.text, segment.feature as Any) }
/// ```
public struct RichText: Sendable, Hashable {
    /// The text.
    public var text: String
    /// The facets over ``text``, in the order given (segments sort them; they may be wrong).
    public var facets: [AppBskyRichtextFacet]

    /// Text with facets as a post carries them; nothing is checked or changed.
    public init(text: String, facets: [AppBskyRichtextFacet] = []) {
        self.text = text
        self.facets = facets
    }

    /// The text and facets of a post record. A post without facets but with the deprecated
    /// `entities` of early clients (UTF-16 ranges, `link` and `mention` types) gets those as facets,
    /// as the official client reads them; entities of other types are dropped.
    public init(post: AppBskyFeedPost) {
        if let facets = post.facets, !facets.isEmpty {
            self.init(text: post.text, facets: facets)
        } else if let entities = post.entities, !entities.isEmpty {
            self.init(text: post.text, facets: Self.facets(of: entities, in: post.text))
        } else {
            self.init(text: post.text)
        }
    }

    /// Legacy entities as facets, ordered by start: their UTF-16 offsets (an end past the text cut
    /// to it; one inside a surrogate pair taken to the pair's start) as UTF-8 offsets. An entity
    /// whose range cannot be one (it starts before the text, or ends before it starts) is dropped.
    static func facets(of entities: [AppBskyFeedPost.Entity], in text: String) -> [AppBskyRichtextFacet] {
        var utf8Offsets: [Int] = []
        utf8Offsets.reserveCapacity(text.utf16.count + 1)
        var offset = 0
        for scalar in text.unicodeScalars {
            utf8Offsets.append(offset)
            if scalar.utf16.count == 2 { utf8Offsets.append(offset) }
            offset += UTF8.width(scalar)
        }
        utf8Offsets.append(offset)
        func utf8(_ utf16: Int) -> Int { utf8Offsets[max(0, min(utf16, utf8Offsets.count - 1))] }
        let facets = entities.compactMap { entity -> AppBskyRichtextFacet? in
            let (start, end) = (entity.index.start, entity.index.end)
            guard start >= 0, start <= end else { return nil }
            let bytes = utf8(start)..<utf8(end)
            switch entity.type {
            case "link": return AppBskyRichtextFacet(bytes: bytes, feature: .link(URIString(rawValue: entity.value)))
            case "mention": return AppBskyRichtextFacet(bytes: bytes, feature: .mention(DID(rawValue: entity.value)))
            default: return nil
            }
        }
        // Stable: entities with the same start keep their order.
        return facets.enumerated()
            .sorted { ($0.element.index.byteStart, $0.offset) < ($1.element.index.byteStart, $1.offset) }
            .map(\.element)
    }

    /// The text's length in UTF-8 bytes, the unit of facet ranges.
    public var utf8Count: Int { text.utf8.count }

    /// The facets as a record's `facets` field: `nil` when there are none.
    public var recordFacets: [AppBskyRichtextFacet]? { facets.isEmpty ? nil : facets }
}

/// What a facet marks, for the three kinds of `app.bsky.richtext.facet`.
public enum RichTextFeature: Sendable, Hashable {
    /// A mention of an account (`#mention`).
    case mention(DID)
    /// A link (`#link`): the full URI, which the text may show shortened.
    case link(URIString)
    /// A hashtag (`#tag`), without its leading `#`.
    case tag(String)

    /// The feature of a facet's feature item; `nil` for kinds this module does not know (a newer
    /// lexicon's, or a malformed one), which display as plain text.
    public init?(_ item: AppBskyRichtextFacet.FeaturesItem) {
        switch item {
        case .appBskyRichtextFacetMention(let mention): self = .mention(mention.did)
        case .appBskyRichtextFacetLink(let link): self = .link(link.uri)
        case .appBskyRichtextFacetTag(let tag): self = .tag(tag.tag)
        case .unknown, .invalid: return nil
        }
    }

    /// The feature as a facet's feature item.
    public var featureItem: AppBskyRichtextFacet.FeaturesItem {
        switch self {
        case .mention(let did): return .appBskyRichtextFacetMention(.init(did: did))
        case .link(let uri): return .appBskyRichtextFacetLink(.init(uri: uri))
        case .tag(let tag): return .appBskyRichtextFacetTag(.init(tag: tag))
        }
    }
}

extension AppBskyRichtextFacet {
    /// A facet with one feature over the UTF-8 bytes `bytes` of a text.
    public init(bytes: Range<Int>, feature: RichTextFeature) {
        self.init(
            index: ByteSlice(byteStart: bytes.lowerBound, byteEnd: bytes.upperBound), features: [feature.featureItem])
    }

    /// The first feature of a kind this module knows, or `nil`.
    public var feature: RichTextFeature? {
        for item in features {
            if let feature = RichTextFeature(item) { return feature }
        }
        return nil
    }
}
