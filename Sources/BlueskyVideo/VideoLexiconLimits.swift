import AppBskyLexicons
import Foundation

/// The limits of `app.bsky.embed.video` and `app.bsky.video.startUpload` that a video and its
/// captions are checked against before anything is sent (the tests compare each with the installed
/// lexicons).
public enum VideoLexiconLimits {
    /// `app.bsky.embed.video#main.video`: `maxSize` in bytes (300 MB).
    public static let maxVideoBytes = 300_000_000
    /// `app.bsky.embed.video#main.video`: `accept`.
    public static let acceptedVideoTypes = ["video/mp4"]
    /// `app.bsky.embed.video#main.captions`: `maxLength`.
    public static let maxCaptions = 20
    /// `app.bsky.embed.video#caption.file`: `maxSize` in bytes.
    public static let maxCaptionBytes = 20_000
    /// `app.bsky.embed.video#caption.file`: `accept`.
    public static let acceptedCaptionTypes = ["text/vtt"]
    /// `app.bsky.video.startUpload` input `name`: `maxLength` in bytes.
    public static let maxFileNameBytes = 256

    /// Whether `mimeType` matches one of `accepted` (`image/*` takes any `image/` subtype; case and
    /// parameters such as `; codecs=...` are ignored).
    public static func accepts(_ mimeType: String, _ accepted: [String]) -> Bool {
        let type = mimeType.lowercased().prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        return accepted.contains { pattern in
            pattern.hasSuffix("/*")
                ? type.hasPrefix(pattern.dropLast()) && type.count > pattern.count - 1 : type == pattern
        }
    }
}

/// A video file to upload, with what the service may check early.
public struct BlueskyVideoFile: Sendable, Hashable {
    /// The encoded video.
    public var data: Data
    /// Its MIME type: ``VideoLexiconLimits/acceptedVideoTypes`` (`video/mp4`).
    public var mimeType: String
    /// A file name for the service, at most ``VideoLexiconLimits/maxFileNameBytes`` bytes.
    public var name: String?
    /// The duration in milliseconds, if known: the service may refuse a video too long at once.
    public var durationMs: Int?
    /// The width in pixels, if known.
    public var width: Int?
    /// The height in pixels, if known.
    public var height: Int?

    /// A video of `data`.
    public init(
        data: Data, mimeType: String = "video/mp4", name: String? = nil, durationMs: Int? = nil, width: Int? = nil,
        height: Int? = nil
    ) {
        self.data = data
        self.mimeType = mimeType
        self.name = name
        self.durationMs = durationMs
        self.width = width
        self.height = height
    }

    /// Checks the file against the lexicons' limits, sending nothing.
    ///
    /// - Throws: ``BlueskyVideoUploadError`` with code ``BlueskyVideoUploadError/Code/invalidVideo`` naming the
    ///   limit: empty, over ``VideoLexiconLimits/maxVideoBytes``, a type not in
    ///   ``VideoLexiconLimits/acceptedVideoTypes``, a name over ``VideoLexiconLimits/maxFileNameBytes``.
    public func check() throws(BlueskyVideoUploadError) {
        if data.isEmpty { throw BlueskyVideoUploadError(.invalidVideo, message: "the video is empty") }
        if data.count > VideoLexiconLimits.maxVideoBytes {
            throw BlueskyVideoUploadError(
                .invalidVideo,
                message: "the video is \(data.count) bytes, over the lexicon's \(VideoLexiconLimits.maxVideoBytes)")
        }
        if !VideoLexiconLimits.accepts(mimeType, VideoLexiconLimits.acceptedVideoTypes) {
            throw BlueskyVideoUploadError(
                .invalidVideo,
                message: "the video is \(mimeType), not one of \(VideoLexiconLimits.acceptedVideoTypes)")
        }
        if let name, name.utf8.count > VideoLexiconLimits.maxFileNameBytes {
            throw BlueskyVideoUploadError(
                .invalidVideo,
                message: "the file name is \(name.utf8.count) bytes, over \(VideoLexiconLimits.maxFileNameBytes)")
        }
    }
}

/// A processed video and what a post shows with it: what `publishPost` turns into an
/// `app.bsky.embed.video` (the captions uploaded as blobs to the PDS first).
public struct BlueskyVideoEmbed: Sendable, Hashable {
    /// The processed video's blob (``BlueskyUploadedVideo/blob``).
    public var video: LexiconBlob
    /// The alt text.
    public var alt: String?
    /// Width and height (any unit, at least 1).
    public var aspectRatio: AppBskyEmbedDefs.AspectRatio?
    /// Captions, at most ``VideoLexiconLimits/maxCaptions``.
    public var captions: [BlueskyVideoCaption]
    /// How clients should show it (`default`, `gif`), or `nil`.
    public var presentation: AppBskyEmbedVideo.Presentation?

    /// A video embed; `width` and `height` give its aspect ratio.
    public init(
        video: LexiconBlob, alt: String? = nil, width: Int? = nil, height: Int? = nil,
        captions: [BlueskyVideoCaption] = [],
        presentation: AppBskyEmbedVideo.Presentation? = nil
    ) {
        self.video = video
        self.alt = alt
        if let width, let height { aspectRatio = AppBskyEmbedDefs.AspectRatio(width: width, height: height) }
        self.captions = captions
        self.presentation = presentation
    }
}

/// A caption track (`app.bsky.embed.video#caption`): a WebVTT file in one language.
public struct BlueskyVideoCaption: Sendable, Hashable {
    /// The language of the captions (BCP 47).
    public var lang: LexiconLanguageTag
    /// The WebVTT file, at most ``VideoLexiconLimits/maxCaptionBytes`` bytes.
    public var data: Data
    /// Its MIME type, `text/vtt`.
    public var mimeType: String

    /// A caption track.
    public init(lang: LexiconLanguageTag, data: Data, mimeType: String = "text/vtt") {
        self.lang = lang
        self.data = data
        self.mimeType = mimeType
    }
}
