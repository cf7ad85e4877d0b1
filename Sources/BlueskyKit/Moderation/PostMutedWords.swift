// Where muted words are looked for in a post: its text and tags, its images' and gallery's alt texts,
// and, in a quoted post, the same plus link cards; a link card of the post itself; the media beside a
// quoted post. The first place with a match decides.

import AppBskyLexicons
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

extension ModerationOptions {
    /// The muted words that match the post, or `nil` when none does. A record that is not a valid
    /// `app.bsky.feed.post` contributes no text (its embeds' views are still looked at).
    func mutedWordMatches(in post: AppBskyFeedDefs.PostView) -> [MutedWordMatch]? {
        let words = preferences.mutedWords
        guard !words.isEmpty else { return nil }
        let moment = now ?? Date()
        func match(
            _ text: String, facets: [AppBskyRichtextFacet]? = nil, tags: [String]? = nil, languages: [String]?,
            author: AppBskyActorDefs.ProfileViewBasic
        ) -> [MutedWordMatch]? {
            let following = author.viewer?.following.map { !$0.rawValue.isEmpty } ?? false
            let found = MutedWords.matches(
                words, text: text, facets: facets, outlineTags: tags, languages: languages, authorIsFollowed: following,
                now: moment)
            return found.isEmpty ? nil : found
        }
        func matchRecord(_ record: AppBskyFeedPost, author: AppBskyActorDefs.ProfileViewBasic) -> [MutedWordMatch]? {
            if let found = match(
                record.text, facets: record.facets, tags: record.tags, languages: record.langs?.map(\.rawValue),
                author: author)
            {
                return found
            }
            for alt in Self.altTexts(record.embed) {
                if let found = match(alt, languages: record.langs?.map(\.rawValue), author: author) { return found }
            }
            return nil
        }

        let record = Self.postRecord(post.record)
        if let record, let found = matchRecord(record, author: post.author) { return found }

        switch post.embed {
        case .appBskyEmbedRecordView(let view)?:
            guard case .appBskyEmbedRecordViewRecord(let quoted) = view.record,
                let quotedPost = Self.postRecord(quoted.value)
            else { return nil }
            if let found = matchRecord(quotedPost, author: quoted.author) { return found }
            // A quoted post's link card, also beside a post it quotes in turn.
            switch quotedPost.embed {
            case .appBskyEmbedExternal(let external)?:
                return match(Self.cardText(external.external), languages: [], author: quoted.author)
            case .appBskyEmbedRecordWithMedia(let withMedia)?:
                switch withMedia.media {
                case .appBskyEmbedExternal(let external):
                    return match(Self.cardText(external.external), languages: [], author: quoted.author)
                case .appBskyEmbedImages(let images):
                    for image in images.images {
                        if let found = match(image.alt, languages: [], author: quoted.author) { return found }
                    }
                case .appBskyEmbedGallery(let gallery):
                    for case .appBskyEmbedGalleryImage(let image) in gallery.items {
                        if let found = match(image.alt, languages: [], author: quoted.author) { return found }
                    }
                default:
                    break
                }
            default:
                break
            }
        case .appBskyEmbedExternalView(let view)?:
            return match("\(view.external.title) \(view.external.description)", languages: [], author: post.author)
        case .appBskyEmbedRecordWithMediaView(let view)?:
            guard case .appBskyEmbedRecordViewRecord(let quoted) = view.record.record else { return nil }
            if let quotedPost = Self.postRecord(quoted.value),
                let found = match(
                    quotedPost.text, facets: quotedPost.facets, tags: quotedPost.tags,
                    languages: quotedPost.langs?.map(\.rawValue),
                    author: quoted.author)
            {
                return found
            }
            switch view.media {
            case .appBskyEmbedImagesView(let images):
                for image in images.images {
                    if let found = match(
                        image.alt, languages: record?.langs?.map(\.rawValue) ?? [], author: quoted.author)
                    {
                        return found
                    }
                }
            case .appBskyEmbedGalleryView(let gallery):
                for case .appBskyEmbedGalleryViewImage(let image) in gallery.items {
                    if let found = match(
                        image.alt, languages: record?.langs?.map(\.rawValue) ?? [], author: quoted.author)
                    {
                        return found
                    }
                }
            case .appBskyEmbedExternalView(let external):
                return match(
                    "\(external.external.title) \(external.external.description)", languages: [], author: quoted.author)
            default:
                break
            }
        default:
            break
        }
        return nil
    }

    /// The record as a post, when it is one.
    static func postRecord(_ value: LexiconUnknownValue) -> AppBskyFeedPost? {
        guard value.type == AppBskyFeedPost.collection.rawValue else { return nil }
        return try? value.decode(as: AppBskyFeedPost.self)
    }

    /// The alt texts of a post's own images or gallery.
    static func altTexts(_ embed: AppBskyFeedPost.Embed?) -> [String] {
        switch embed {
        case .appBskyEmbedImages(let images)?: images.images.map(\.alt)
        case .appBskyEmbedGallery(let gallery)?:
            gallery.items.compactMap {
                if case .appBskyEmbedGalleryImage(let image) = $0 { return image.alt }
                return nil
            }
        default: []
        }
    }

    /// A link card's title and description, as one text.
    static func cardText(_ external: AppBskyEmbedExternal.External) -> String {
        "\(external.title) \(external.description)"
    }
}
