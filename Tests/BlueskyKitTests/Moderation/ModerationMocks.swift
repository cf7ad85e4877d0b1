// Test data: the shapes the reference client's behaviour suites build (a post, its author, a quoted
// post, labels from a labeler), made with the SDK's own types.

import AtprotoLexicons
import BlueskyKit
import XRPCRuntime

enum Mock {
    static let cid: CIDString = "bafyreiclp443lavogvhj3d2ob2cxbfuscni2k5jk7bebjzg7khl3esabwq"
    static let time: LexiconDatetime = "2024-05-01T12:00:00.000Z"
    static let labeler: DID = "did:plc:fake-labeler"

    static func label(_ value: String, uri: String, src: DID = labeler, neg: Bool? = nil) -> ComAtprotoLabelDefs.Label {
        ComAtprotoLabelDefs.Label(src: src, uri: URIString(rawValue: uri), val: value, cts: time, neg: neg)
    }

    static func post(
        _ text: String, facets: [AppBskyRichtextFacet]? = nil, embed: AppBskyFeedPost.Embed? = nil,
        langs: [LexiconLanguageTag]? = ["en"], tags: [String]? = nil
    ) -> AppBskyFeedPost {
        AppBskyFeedPost(text: text, createdAt: time, embed: embed, facets: facets, langs: langs, tags: tags)
    }

    static func profile(
        _ handle: String, displayName: String? = nil, viewer: AppBskyActorDefs.ViewerState? = nil,
        labels: [ComAtprotoLabelDefs.Label]? = nil
    ) -> AppBskyActorDefs.ProfileViewBasic {
        AppBskyActorDefs.ProfileViewBasic(
            did: DID(rawValue: "did:web:\(handle)"), handle: ATHandle(rawValue: handle), displayName: displayName,
            labels: labels, viewer: viewer)
    }

    static func fullProfile(_ basic: AppBskyActorDefs.ProfileViewBasic) -> AppBskyActorDefs.ProfileView {
        AppBskyActorDefs.ProfileView(
            did: basic.did, handle: basic.handle, displayName: basic.displayName, labels: basic.labels,
            viewer: basic.viewer)
    }

    static func postView(
        _ record: AppBskyFeedPost, author: AppBskyActorDefs.ProfileViewBasic,
        embed: AppBskyFeedDefs.PostView.Embed? = nil,
        labels: [ComAtprotoLabelDefs.Label]? = nil
    ) -> AppBskyFeedDefs.PostView {
        AppBskyFeedDefs.PostView(
            uri: ATURI(rawValue: "at://\(author.did)/app.bsky.feed.post/fake"), cid: cid, author: author,
            record: LexiconUnknownValue(encoding: record), indexedAt: time, embed: embed, labels: labels)
    }

    static func quoteRecord(
        _ record: AppBskyFeedPost, author: AppBskyActorDefs.ProfileViewBasic,
        labels: [ComAtprotoLabelDefs.Label]? = nil,
        uri: String? = nil
    ) -> AppBskyEmbedRecord.ViewRecord {
        AppBskyEmbedRecord.ViewRecord(
            uri: ATURI(rawValue: uri ?? "at://\(author.did)/app.bsky.feed.post/fake"), cid: cid, author: author,
            value: LexiconUnknownValue(encoding: record), indexedAt: time, labels: labels)
    }

    static func quote(
        _ record: AppBskyFeedPost, author: AppBskyActorDefs.ProfileViewBasic, labels: [ComAtprotoLabelDefs.Label]? = nil
    ) -> AppBskyFeedDefs.PostView.Embed {
        .appBskyEmbedRecordView(
            AppBskyEmbedRecord.View(
                record: .appBskyEmbedRecordViewRecord(quoteRecord(record, author: author, labels: labels))))
    }

    static func list(_ name: String = "Fake List") -> AppBskyGraphDefs.ListViewBasic {
        AppBskyGraphDefs.ListViewBasic(
            uri: "at://did:plc:fake/app.bsky.graph.list/fake", cid: cid, name: name,
            purpose: "app.bsky.graph.defs#modlist",
            indexedAt: time)
    }

    static func mutedWord(
        _ value: String, targets: [AppBskyActorDefs.MutedWordTarget] = ["content"], actorTarget: String = "all",
        expiresAt: LexiconDatetime? = nil
    ) -> AppBskyActorDefs.MutedWord {
        AppBskyActorDefs.MutedWord(
            value: value, targets: targets, actorTarget: AppBskyActorDefs.MutedWord.ActorTarget(rawValue: actorTarget),
            expiresAt: expiresAt)
    }

    static func tagFacet(_ tags: String..., start: Int = 0, end: Int = 4) -> AppBskyRichtextFacet {
        AppBskyRichtextFacet(
            index: AppBskyRichtextFacet.ByteSlice(byteStart: start, byteEnd: end),
            features: tags.map { .appBskyRichtextFacetTag(AppBskyRichtextFacet.Tag(tag: $0)) })
    }

    static func customDefinition(
        _ identifier: String, blurs: String, severity: String, defaultSetting: String = "warn", adultOnly: Bool? = nil,
        labeler: DID
    ) -> LabelDefinition {
        LabelDefinition(
            ComAtprotoLabelDefs.LabelValueDefinition(
                identifier: identifier, severity: .init(rawValue: severity), blurs: .init(rawValue: blurs), locales: [],
                adultOnly: adultOnly, defaultSetting: .init(rawValue: defaultSetting)),
            definedBy: labeler)
    }

    static func options(
        viewer: DID? = "did:web:alice.test", adultContentEnabled: Bool = true,
        labels: [String: BlueskyLabelPreference] = [:],
        labelers: [LabelerSettings] = [], mutedWords: [AppBskyActorDefs.MutedWord] = [], hiddenPosts: [String] = [],
        definitions: [DID: [LabelDefinition]] = [:]
    ) -> ModerationOptions {
        ModerationOptions(
            viewer: viewer,
            preferences: ModerationPreferences(
                adultContentEnabled: adultContentEnabled, labels: labels, labelers: labelers, mutedWords: mutedWords,
                hiddenPosts: hiddenPosts),
            labelDefinitions: definitions)
    }
}

/// The flags a scenario table expects of one context's outcome.
enum Flag: Hashable {
    case filter, blur, alert, inform, noOverride
}

extension ModerationUI {
    /// The flags the outcome has, to compare with a table's expectation.
    var flags: Set<Flag> {
        var result: Set<Flag> = []
        if filter { result.insert(.filter) }
        if blur { result.insert(.blur) }
        if alert { result.insert(.alert) }
        if inform { result.insert(.inform) }
        if noOverride { result.insert(.noOverride) }
        return result
    }
}
