import AppBskyLexicons
import ComAtprotoLexicons

/// The limits of `app.bsky.feed.post` and its embeds that a draft is checked against before
/// anything is sent (the tests compare each with the installed lexicons).
public enum PostLexiconLimits {
    /// `app.bsky.embed.images#main.images`: `maxLength`.
    public static let maxImages = 4
    /// `app.bsky.embed.images#image.image`: `maxSize` in bytes.
    public static let maxImageBytes = 2_000_000
    /// `app.bsky.embed.external#external.thumb`: `maxSize` in bytes.
    public static let maxThumbnailBytes = 1_000_000
    /// The MIME types both blobs `accept`.
    public static let acceptedImageTypes = ["image/*"]
    /// `langs`: `maxLength`.
    public static let maxLanguages = 3
    /// `com.atproto.label.defs#selfLabels.values`: `maxLength`.
    public static let maxSelfLabels = 10
    /// `com.atproto.label.defs#selfLabel.val`: `maxLength` in bytes.
    public static let maxSelfLabelBytes = 128
    /// `tags`: `maxLength`.
    public static let maxTags = 8
    /// `app.bsky.feed.threadgate` `allow`: `maxLength`.
    public static let maxReplyGateRules = 5

    /// Whether `mimeType` matches one of `accepted` (`image/*` takes any `image/` subtype).
    static func accepts(_ mimeType: String, _ accepted: [String] = acceptedImageTypes) -> Bool {
        let type = mimeType.lowercased()
        return accepted.contains { pattern in
            pattern.hasSuffix("/*")
                ? type.hasPrefix(pattern.dropLast()) && type.count > pattern.count - 1 : type == pattern
        }
    }
}

/// What in a draft the lexicons refuse, found before anything is sent.
public enum BlueskyDraftProblem: Sendable, Hashable, CustomStringConvertible {
    /// The text is over ``RichTextLimits/postGraphemes`` graphemes or ``RichTextLimits/postBytes`` bytes.
    case textTooLong(RichTextLength)
    /// No text and nothing attached.
    case empty
    /// A facet (by position in the text's facets) whose range is empty, reversed or outside the text.
    case facetOutsideText(index: Int, byteStart: Int, byteEnd: Int)
    /// More images than ``PostLexiconLimits/maxImages``.
    case tooManyImages(Int)
    /// Images and a link card together (a post has one media embed).
    case imagesWithExternal
    /// A blob whose MIME type the lexicon does not accept; `attachment` is `image 1`... or `thumbnail`.
    case unacceptedMimeType(attachment: String, mimeType: String)
    /// A blob over the lexicon's `maxSize`.
    case blobTooLarge(attachment: String, bytes: Int, maxBytes: Int)
    /// An aspect ratio with a side under 1.
    case invalidAspectRatio(attachment: String)
    /// More languages than ``PostLexiconLimits/maxLanguages``.
    case tooManyLanguages(Int)
    /// More self-labels than ``PostLexiconLimits/maxSelfLabels``, or one over its length.
    case invalidSelfLabels([String])
    /// More tags than ``PostLexiconLimits/maxTags``, or one over ``RichTextLimits/tagGraphemes``
    /// graphemes or ``RichTextLimits/tagBytes`` bytes.
    case invalidTags([String])
    /// More reply-gate rules than ``PostLexiconLimits/maxReplyGateRules``.
    case tooManyReplyGateRules(Int)
    /// A reply gate on a reply: only a thread's root can be gated.
    case replyGateOnReply
    /// A gallery of more items than the lexicon's `maxLength` (`max`, ``PostLexiconLimits/maxGalleryItems``).
    case tooManyGalleryItems(count: Int, max: Int)
    /// More than one media embed (images, gallery, video, link card: `kinds`); a post has one.
    case moreThanOneMedia(kinds: [String])
    /// An attachment whose lexicon requires an aspect ratio (`gallery image 1`...) without one.
    case missingAspectRatio(attachment: String)
    /// A blob whose MIME type is not one of `accepted` (a video or a caption track).
    case unacceptedMediaType(attachment: String, mimeType: String, accepted: [String])
    /// More caption tracks than the lexicon's `maxLength` (`max`, `VideoLexiconLimits.maxCaptions`).
    case tooManyCaptions(count: Int, max: Int)
    /// A record built from the draft fails its lexicon (formats such as a mention's DID, a link's URI,
    /// a language tag): the generated validator's findings.
    case invalidRecord(collection: NSID, LexiconValidationError)

    public var description: String {
        switch self {
        case .textTooLong(let length):
            return "the text is \(length.graphemes) graphemes and \(length.bytes) bytes, over "
                + "\(RichTextLimits.postGraphemes) graphemes or \(RichTextLimits.postBytes) bytes"
        case .empty: return "the post has no text and nothing attached"
        case .facetOutsideText(let index, let start, let end):
            return "facet \(index) covers bytes \(start)..<\(end), which is not a range of the text"
        case .tooManyImages(let count): return "\(count) images, over \(PostLexiconLimits.maxImages)"
        case .imagesWithExternal: return "images and a link card cannot go together"
        case .unacceptedMimeType(let attachment, let type): return "\(attachment) is \(type), not an image type"
        case .blobTooLarge(let attachment, let bytes, let max): return "\(attachment) is \(bytes) bytes, over \(max)"
        case .invalidAspectRatio(let attachment): return "\(attachment) has an aspect ratio with a side under 1"
        case .tooManyLanguages(let count): return "\(count) languages, over \(PostLexiconLimits.maxLanguages)"
        case .invalidSelfLabels(let labels): return "self-labels \(labels) are too many or too long"
        case .invalidTags(let tags): return "tags \(tags) are too many or too long"
        case .tooManyReplyGateRules(let count):
            return "\(count) reply-gate rules, over \(PostLexiconLimits.maxReplyGateRules)"
        case .replyGateOnReply: return "a reply cannot have a reply gate: only the thread's root can"
        case .tooManyGalleryItems(let count, let max): return "a gallery of \(count) items, over the lexicon's \(max)"
        case .moreThanOneMedia(let kinds): return "a post has one media embed, not \(kinds.joined(separator: " and "))"
        case .missingAspectRatio(let attachment): return "\(attachment) needs an aspect ratio"
        case .unacceptedMediaType(let attachment, let type, let accepted):
            return "\(attachment) is \(type), not one of \(accepted)"
        case .tooManyCaptions(let count, let max): return "\(count) caption tracks, over the lexicon's \(max)"
        case .invalidRecord(let collection, let error): return "the \(collection) record is invalid: \(error)"
        }
    }
}

/// Why publishing a post failed.
public enum BlueskyComposeError: Error, Sendable, CustomStringConvertible {
    /// The draft breaks the lexicons; nothing was sent.
    case invalidDraft([BlueskyDraftProblem])
    /// The server refused a blob upload (`attachment`: `image 1`..., `thumbnail`); no record was written.
    case uploadRefused(attachment: String, XRPCCallError)
    /// The server refused the write of the post and its gates (`com.atproto.repo.applyWrites`); none
    /// of them exists. `error.declaredError(for: ComAtprotoRepoApplyWrites.self)` names declared errors.
    case writeRefused(XRPCCallError)
    /// No answer: the connection failed or the call was cancelled (`underlying`). When it happened
    /// during the write, the post may or may not exist.
    case notSent(stage: String, underlying: any Error)
    /// The post was written at the URI, but the answer gave no CID and reading the post back failed
    /// (`underlying`): it exists; do not send it again.
    case writtenWithoutReference(ATURI, underlying: any Error)

    public var description: String {
        switch self {
        case .invalidDraft(let problems):
            return "the post was not sent: " + problems.map(\.description).joined(separator: "; ")
        case .uploadRefused(let attachment, let error): return "the server refused \(attachment): \(error)"
        case .writeRefused(let error): return "the server refused the post: \(error)"
        case .notSent(let stage, let error): return "\(stage) failed: \(error)"
        case .writtenWithoutReference(let uri, let error):
            return "the post was written at \(uri.rawValue), but its CID could not be read back: \(error)"
        }
    }
}
