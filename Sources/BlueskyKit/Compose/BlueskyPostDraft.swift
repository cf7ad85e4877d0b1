import AppBskyLexicons
import ComAtprotoLexicons
import Foundation

/// Everything a post is made of before it is sent: what `XRPCClient.publishPost(_:repo:)`
/// turns into records and blobs.
///
/// ```swift
/// var draft = BlueskyPostDraft(text: await RichText.detecting("hi @alice.test", resolver: resolver))
/// draft.images = [BlueskyImageAttachment(data: png, mimeType: "image/png", alt: "A cat", width: 800, height: 600)]
/// draft.replyGate = ReplyGate(allow: [.mentioned, .following])
/// let published = try await client.publishPost(draft, repo: did)
/// ```
public struct BlueskyPostDraft: Sendable {
    /// The text and its facets (``RichText/detecting(_:resolver:)`` finds them; sanitize first with
    /// ``RichText/sanitized(trimming:collapsingBlankLines:)`` to post as the official client does).
    public var text: RichText
    /// The post replied to, or `nil` for a new thread.
    public var reply: BlueskyReplyTarget?
    /// The post quoted, or `nil`.
    public var quote: ComAtprotoRepoStrongRef?
    /// Images, at most ``PostLexiconLimits/maxImages``; not with ``external``.
    public var images: [BlueskyImageAttachment]
    /// A link card, not with ``images``.
    public var external: BlueskyExternalCard?
    /// A gallery (`app.bsky.embed.gallery`), at most ``PostLexiconLimits/maxGalleryItems`` images, each
    /// with its aspect ratio; not with other media.
    public var gallery: [BlueskyImageAttachment] = []
    /// A processed video (`BlueskyVideoUploader`) with its captions; not with other media.
    public var video: BlueskyVideoEmbed?
    /// The languages of the text (BCP 47), at most ``PostLexiconLimits/maxLanguages``.
    public var languages: [LexiconLanguageTag]
    /// Self-labels (content warnings such as `porn`, `sexual`, `nudity`, `graphic-media`), at most
    /// ``PostLexiconLimits/maxSelfLabels``.
    public var selfLabels: [String]
    /// Extra hashtags beside those in the text (`tags`), at most ``PostLexiconLimits/maxTags``.
    public var tags: [String]
    /// Who may reply (an `app.bsky.feed.threadgate` written with the post), or `nil`: anyone.
    /// Only a thread's root post can have one: a reply with a gate is refused before sending.
    public var replyGate: ReplyGate?
    /// Who may quote (an `app.bsky.feed.postgate` written with the post), or `nil`: anyone.
    public var quoteGate: QuoteGate?
    /// The record's `createdAt`; `nil` for the time of sending.
    public var createdAt: LexiconDatetime?

    /// A draft with `text` and nothing else.
    public init(
        text: RichText, reply: BlueskyReplyTarget? = nil, quote: ComAtprotoRepoStrongRef? = nil,
        images: [BlueskyImageAttachment] = [], external: BlueskyExternalCard? = nil,
        languages: [LexiconLanguageTag] = [],
        selfLabels: [String] = [], tags: [String] = [], replyGate: ReplyGate? = nil, quoteGate: QuoteGate? = nil,
        createdAt: LexiconDatetime? = nil
    ) {
        self.text = text
        self.reply = reply
        self.quote = quote
        self.images = images
        self.external = external
        self.languages = languages
        self.selfLabels = selfLabels
        self.tags = tags
        self.replyGate = replyGate
        self.quoteGate = quoteGate
        self.createdAt = createdAt
    }
}

/// The post a reply answers: its reference (the reply's `parent`) and its thread's root.
public struct BlueskyReplyTarget: Sendable, Hashable {
    /// The post replied to.
    public var parent: ComAtprotoRepoStrongRef
    /// The thread's first post: the parent's own root when the parent is a reply, else the parent.
    public var root: ComAtprotoRepoStrongRef

    /// A reply to the post `parent` whose record is `record`: the root is taken from the record.
    public init(parent: ComAtprotoRepoStrongRef, record: AppBskyFeedPost) {
        self.parent = parent
        root = record.reply?.root ?? parent
    }

    /// A reply to a post of a feed or thread.
    public init(_ post: FeedPost) {
        self.init(parent: ComAtprotoRepoStrongRef(uri: post.view.uri, cid: post.view.cid), record: post.record)
    }

    /// A reply to a post as a feed shows it; throws `LexiconDecodingError` when its record is not a post.
    public init(_ view: AppBskyFeedDefs.PostView) throws {
        self.init(parent: ComAtprotoRepoStrongRef(uri: view.uri, cid: view.cid), record: try view.postRecord())
    }

    /// The reference the record carries.
    public var replyRef: AppBskyFeedPost.ReplyRef { AppBskyFeedPost.ReplyRef(root: root, parent: parent) }
}

/// An image to upload and attach, with its alt text.
public struct BlueskyImageAttachment: Sendable, Hashable {
    /// The encoded image.
    public var data: Data
    /// Its MIME type, e.g. `image/jpeg`; it must be an `image/` type.
    public var mimeType: String
    /// The alt text (may be empty, but should not be).
    public var alt: String
    /// Width and height (any unit, at least 1), so that clients lay the image out before loading it.
    public var aspectRatio: AppBskyEmbedDefs.AspectRatio?

    /// An image; `width` and `height` give its aspect ratio.
    public init(data: Data, mimeType: String, alt: String, width: Int? = nil, height: Int? = nil) {
        self.data = data
        self.mimeType = mimeType
        self.alt = alt
        if let width, let height { aspectRatio = AppBskyEmbedDefs.AspectRatio(width: width, height: height) }
    }
}

/// A link card (`app.bsky.embed.external`).
public struct BlueskyExternalCard: Sendable, Hashable {
    /// The page linked to.
    public var uri: URIString
    /// The card's title.
    public var title: String
    /// The card's description.
    public var description: String
    /// The records (`uri` + CID) whose content the card shows, when it was made from atproto records
    /// (a `site.standard` document, say); empty for a plain web page.
    public var associatedRefs: [ComAtprotoRepoStrongRef] = []
    /// The thumbnail to upload: its bytes and MIME type.
    public var thumbnail: (data: Data, mimeType: String)? {
        get { thumbnailData.map { ($0, thumbnailMimeType) } }
        set {
            thumbnailData = newValue?.data
            thumbnailMimeType = newValue?.mimeType ?? ""
        }
    }
    var thumbnailData: Data?
    var thumbnailMimeType = ""

    /// A card; `thumbnail` is uploaded with the post.
    public init(uri: URIString, title: String, description: String, thumbnail: (data: Data, mimeType: String)? = nil) {
        self.uri = uri
        self.title = title
        self.description = description
        self.thumbnail = thumbnail
    }
}

/// Who may reply to a thread (`app.bsky.feed.threadgate`). An empty ``allow``: nobody.
public struct ReplyGate: Sendable, Hashable {
    /// A group allowed to reply.
    public enum Rule: Sendable, Hashable {
        /// Accounts the post mentions.
        case mentioned
        /// Accounts that follow the author.
        case followers
        /// Accounts the author follows.
        case following
        /// Accounts on a list (`app.bsky.graph.list`).
        case list(ATURI)
    }

    /// The groups allowed to reply, at most ``PostLexiconLimits/maxReplyGateRules``.
    public var allow: [Rule]

    /// A gate letting `allow` reply; `[]` lets nobody.
    public init(allow: [Rule]) { self.allow = allow }

    var allowItems: [AppBskyFeedThreadgate.AllowItem] {
        allow.map { rule in
            switch rule {
            case .mentioned: .appBskyFeedThreadgateMentionRule(.init())
            case .followers: .appBskyFeedThreadgateFollowerRule(.init())
            case .following: .appBskyFeedThreadgateFollowingRule(.init())
            case .list(let list): .appBskyFeedThreadgateListRule(.init(list: list))
            }
        }
    }
}

/// Who may quote a post (`app.bsky.feed.postgate`).
public struct QuoteGate: Sendable, Hashable {
    /// Whether nobody may quote the post.
    public var disableQuotes: Bool

    /// A gate; `disableQuotes` stops all quotes.
    public init(disableQuotes: Bool) { self.disableQuotes = disableQuotes }
}
