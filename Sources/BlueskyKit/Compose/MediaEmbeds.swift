import AppBskyLexicons
import BlueskyVideo
import ComAtprotoLexicons
import Foundation

extension PostLexiconLimits {
    /// `app.bsky.embed.gallery#main.items`: `maxLength`. The lexicon asks authoring apps to stop at
    /// ``galleryAuthoringItems`` for now; the composer refuses only what the lexicon refuses.
    public static let maxGalleryItems = 20
    /// The soft limit the gallery lexicon asks authoring apps to keep to for now.
    public static let galleryAuthoringItems = 10
}

extension BlueskyExternalCard {
    /// A card made from atproto records: `associatedRefs` are the records the card shows.
    public init(
        uri: URIString, title: String, description: String, associatedRefs: [ComAtprotoRepoStrongRef],
        thumbnail: (data: Data, mimeType: String)? = nil
    ) {
        self.init(uri: uri, title: title, description: description, thumbnail: thumbnail)
        self.associatedRefs = associatedRefs
    }
}

extension BlueskyPostDraft {
    /// Whether the draft has a gallery or a video.
    var hasNewMedia: Bool { !gallery.isEmpty || video != nil }

    /// What the lexicons refuse in the gallery and the video, and in more than one media embed.
    func mediaProblems() -> [BlueskyDraftProblem] {
        var problems: [BlueskyDraftProblem] = []
        let kinds = [
            images.isEmpty ? nil : "images", gallery.isEmpty ? nil : "a gallery", video == nil ? nil : "a video",
            external == nil ? nil : "a link card",
        ].compactMap { $0 }
        // Images with a card alone are `imagesWithExternal` already.
        if kinds.count > 1, hasNewMedia { problems.append(.moreThanOneMedia(kinds: kinds)) }
        if gallery.count > PostLexiconLimits.maxGalleryItems {
            problems.append(.tooManyGalleryItems(count: gallery.count, max: PostLexiconLimits.maxGalleryItems))
        }
        for (index, image) in gallery.enumerated() {
            let name = "gallery image \(index + 1)"
            problems += Self.blobProblems(
                name, bytes: image.data.count, mimeType: image.mimeType, maxBytes: PostLexiconLimits.maxImageBytes)
            if let ratio = image.aspectRatio {
                if ratio.width < 1 || ratio.height < 1 { problems.append(.invalidAspectRatio(attachment: name)) }
            } else {
                problems.append(.missingAspectRatio(attachment: name))
            }
        }
        if let video { problems += Self.videoProblems(video) }
        return problems
    }

    static func videoProblems(_ video: BlueskyVideoEmbed) -> [BlueskyDraftProblem] {
        var problems: [BlueskyDraftProblem] = []
        if !VideoLexiconLimits.accepts(video.video.mimeType, VideoLexiconLimits.acceptedVideoTypes) {
            problems.append(
                .unacceptedMediaType(
                    attachment: "video", mimeType: video.video.mimeType,
                    accepted: VideoLexiconLimits.acceptedVideoTypes))
        }
        if let size = video.video.size, size > VideoLexiconLimits.maxVideoBytes {
            problems.append(.blobTooLarge(attachment: "video", bytes: size, maxBytes: VideoLexiconLimits.maxVideoBytes))
        }
        if let ratio = video.aspectRatio, ratio.width < 1 || ratio.height < 1 {
            problems.append(.invalidAspectRatio(attachment: "video"))
        }
        if video.captions.count > VideoLexiconLimits.maxCaptions {
            problems.append(.tooManyCaptions(count: video.captions.count, max: VideoLexiconLimits.maxCaptions))
        }
        for (index, caption) in video.captions.enumerated() {
            let name = "caption \(index + 1) (\(caption.lang.rawValue))"
            if !VideoLexiconLimits.accepts(caption.mimeType, VideoLexiconLimits.acceptedCaptionTypes) {
                problems.append(
                    .unacceptedMediaType(
                        attachment: name, mimeType: caption.mimeType, accepted: VideoLexiconLimits.acceptedCaptionTypes)
                )
            }
            if caption.data.count > VideoLexiconLimits.maxCaptionBytes {
                problems.append(
                    .blobTooLarge(
                        attachment: name, bytes: caption.data.count, maxBytes: VideoLexiconLimits.maxCaptionBytes))
            }
        }
        return problems
    }
}

extension AppBskyEmbedRecordWithMedia.Media {
    /// The same media as a post's own embed.
    var postEmbed: AppBskyFeedPost.Embed? {
        switch self {
        case .appBskyEmbedImages(let images): .appBskyEmbedImages(images)
        case .appBskyEmbedVideo(let video): .appBskyEmbedVideo(video)
        case .appBskyEmbedGallery(let gallery): .appBskyEmbedGallery(gallery)
        case .appBskyEmbedExternal(let external): .appBskyEmbedExternal(external)
        default: nil
        }
    }
}

extension XRPCClient {
    /// Uploads the gallery's images, or the video's caption tracks, and returns the embed; `nil`
    /// when the draft has neither.
    func uploadGalleryOrVideo(of draft: BlueskyPostDraft) async throws(BlueskyComposeError)
        -> AppBskyEmbedRecordWithMedia.Media?
    {
        if !draft.gallery.isEmpty {
            var items: [AppBskyEmbedGallery.ItemsItem] = []
            for (index, image) in draft.gallery.enumerated() {
                let name = "gallery image \(index + 1)"
                guard let ratio = image.aspectRatio else {
                    throw .invalidDraft([.missingAspectRatio(attachment: name)])
                }
                let blob = try await upload(image.data, mimeType: image.mimeType, attachment: name)
                items.append(.appBskyEmbedGalleryImage(.init(image: blob, alt: image.alt, aspectRatio: ratio)))
            }
            return .appBskyEmbedGallery(AppBskyEmbedGallery(items: items))
        }
        guard let video = draft.video else { return nil }
        var captions: [AppBskyEmbedVideo.Caption] = []
        for (index, caption) in video.captions.enumerated() {
            let blob = try await upload(
                caption.data, mimeType: caption.mimeType, attachment: "caption \(index + 1) (\(caption.lang.rawValue))")
            captions.append(AppBskyEmbedVideo.Caption(lang: caption.lang, file: blob))
        }
        return .appBskyEmbedVideo(
            AppBskyEmbedVideo(
                video: video.video, alt: video.alt, aspectRatio: video.aspectRatio,
                captions: captions.isEmpty ? nil : captions, presentation: video.presentation))
    }
}
