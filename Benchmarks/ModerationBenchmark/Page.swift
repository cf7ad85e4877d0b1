// A synthetic 100-post timeline page with what moderation looks at: labels from a subscribed labeler
// (built-in and custom values) on some posts and authors, self-labels, muted and blocked authors,
// quoted posts, link cards and images with alt text, tags; and preferences with muted words, hidden
// posts and per-labeler settings.

import AtprotoLexicons
import BlueskyKit
import XRPCRuntime

enum Page {
    static let labeler: DID = "did:plc:benchlabeler"
    static let viewer: DID = "did:plc:benchviewer"
    static let time: LexiconDatetime = "2024-05-01T12:00:00.000Z"
    static let cid: CIDString = "bafyreiclp443lavogvhj3d2ob2cxbfuscni2k5jk7bebjzg7khl3esabwq"

    static let words = [
        "We're federating, yay! A long post about the weather and the sea",
        "Thoughts on Swift concurrency and actors, or how I learned to stop worrying",
        "Photos from the trip: mountains, lakes, and a very tired dog",
        "Tomatoes are fruits and/or vegetables, a thread",
        "New York Times piece on the election; worth a read",
    ]

    static let options: ModerationOptions = {
        let rude = LabelDefinition(
            ComAtprotoLabelDefs.LabelValueDefinition(
                identifier: "rude", severity: "alert", blurs: "content", locales: []),
            definedBy: labeler)
        let spoiler = LabelDefinition(
            ComAtprotoLabelDefs.LabelValueDefinition(
                identifier: "spoiler", severity: "inform", blurs: "media", locales: []),
            definedBy: labeler)
        let muted = ["politics", "election", "spoilers", "crypto", "super-bad"].map {
            AppBskyActorDefs.MutedWord(value: $0, targets: ["content", "tag"])
        }
        let hidden =
            (0..<50).map { "at://did:plc:hidden\($0)/app.bsky.feed.post/3k2a" } + [
                "at://did:plc:author7/app.bsky.feed.post/p7"
            ]
        let preferences = ModerationPreferences(
            adultContentEnabled: true, labels: ["porn": .warn, "graphic-media": .hide],
            labelers: [LabelerSettings(did: labeler, labels: ["rude": .hide]), LabelerSettings(did: "did:plc:other")],
            mutedWords: muted, hiddenPosts: hidden)
        return ModerationOptions(
            viewer: viewer, preferences: preferences, labelDefinitions: [labeler: [rude, spoiler]])
    }()

    static func label(_ value: String, on uri: String, src: DID = labeler) -> ComAtprotoLabelDefs.Label {
        ComAtprotoLabelDefs.Label(src: src, uri: URIString(rawValue: uri), val: value, cts: time)
    }

    static func author(_ index: Int) -> AppBskyActorDefs.ProfileViewBasic {
        let did = DID(rawValue: "did:plc:author\(index)")
        var labels: [ComAtprotoLabelDefs.Label] = []
        if index % 11 == 0 { labels.append(label("rude", on: did.rawValue)) }
        if index % 13 == 0 { labels.append(label("porn", on: "at://\(did)/app.bsky.actor.profile/self", src: did)) }
        let viewer = AppBskyActorDefs.ViewerState(
            blockedBy: index % 23 == 0,
            following: index % 2 == 0 ? ATURI(rawValue: "at://\(viewer)/app.bsky.graph.follow/\(index)") : nil,
            muted: index % 17 == 0)
        return AppBskyActorDefs.ProfileViewBasic(
            did: did, handle: ATHandle(rawValue: "author\(index).test"), displayName: "Author \(index)", labels: labels,
            viewer: viewer)
    }

    static func record(_ index: Int, embed: AppBskyFeedPost.Embed? = nil) -> AppBskyFeedPost {
        AppBskyFeedPost(
            text: words[index % words.count] + " #\(index)", createdAt: time, embed: embed, langs: ["en"],
            tags: index % 9 == 0 ? ["spoilers"] : nil)
    }

    static func post(_ index: Int) -> AppBskyFeedDefs.PostView {
        let author = author(index)
        let uri = "at://\(author.did)/app.bsky.feed.post/p\(index)"
        var labels: [ComAtprotoLabelDefs.Label] = []
        if index % 5 == 0 { labels.append(label("graphic-media", on: uri)) }
        if index % 7 == 0 { labels.append(label("spoiler", on: uri)) }
        if index % 19 == 0 { labels.append(label("unknown-value", on: uri)) }
        var embed: AppBskyFeedDefs.PostView.Embed?
        var recordEmbed: AppBskyFeedPost.Embed?
        switch index % 4 {
        case 0:
            let quotedAuthor = Page.author(index + 100)
            let quoted = AppBskyEmbedRecord.ViewRecord(
                uri: ATURI(rawValue: "at://\(quotedAuthor.did)/app.bsky.feed.post/q\(index)"), cid: cid,
                author: quotedAuthor, value: LexiconUnknownValue(encoding: record(index + 1)), indexedAt: time,
                labels: index % 8 == 0 ? [label("porn", on: uri)] : nil)
            embed = .appBskyEmbedRecordView(AppBskyEmbedRecord.View(record: .appBskyEmbedRecordViewRecord(quoted)))
        case 1:
            let external = AppBskyEmbedExternal.ViewExternal(
                uri: URIString(rawValue: "https://example.com/\(index)"), title: "An article \(index)",
                description: "About the sea and the sky")
            embed = .appBskyEmbedExternalView(AppBskyEmbedExternal.View(external: external))
        case 2:
            let blob = LexiconBlob(ref: CIDLink(cid.rawValue), mimeType: "image/jpeg", size: 1000)
            recordEmbed = .appBskyEmbedImages(
                AppBskyEmbedImages(images: [AppBskyEmbedImages.Image(image: blob, alt: "a dog on a mountain path")]))
        default:
            break
        }
        return AppBskyFeedDefs.PostView(
            uri: ATURI(rawValue: uri), cid: cid, author: author,
            record: LexiconUnknownValue(encoding: record(index, embed: recordEmbed)), indexedAt: time, embed: embed,
            labels: labels)
    }

    static let posts: [AppBskyFeedDefs.PostView] = (0..<100).map(post)
}
