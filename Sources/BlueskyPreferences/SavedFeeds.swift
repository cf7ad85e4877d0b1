// Saved feeds (`savedFeedsPrefV2`): each with an id, a type (`feed`, `list`, `timeline`), its value and
// whether it is pinned. When the account has only the legacy `savedFeedsPref` (two lists of URIs),
// the saved feeds are read from it and the first change writes them as a v2 item; the legacy item,
// when there is one, is kept in step for older clients.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// A feed to save, without an id: ``BlueskyPreferences/addSavedFeeds(_:)`` gives it a new TID.
public struct BlueskyNewSavedFeed: Sendable, Hashable {
    /// `feed` (a feed generator), `list` (a list's posts), `timeline` (the following timeline), or
    /// another type a newer client knows.
    public var type: AppBskyActorDefs.SavedFeed.Type_
    /// The feed generator's or the list's AT URI; `following` for the timeline.
    public var value: String
    /// Whether the feed is pinned (shown as a tab).
    public var pinned: Bool

    /// Creates a feed to save.
    public init(type: AppBskyActorDefs.SavedFeed.Type_, value: String, pinned: Bool) {
        self.type = type
        self.value = value
        self.pinned = pinned
    }

    /// A feed generator (`app.bsky.feed.generator` record) to save.
    public static func feed(_ uri: ATURI, pinned: Bool = false) -> BlueskyNewSavedFeed {
        BlueskyNewSavedFeed(type: .feed, value: uri.rawValue, pinned: pinned)
    }

    /// A list (`app.bsky.graph.list` record) whose members' posts make the feed.
    public static func list(_ uri: ATURI, pinned: Bool = false) -> BlueskyNewSavedFeed {
        BlueskyNewSavedFeed(type: .list, value: uri.rawValue, pinned: pinned)
    }

    /// The following timeline.
    public static func timeline(pinned: Bool = true) -> BlueskyNewSavedFeed {
        BlueskyNewSavedFeed(type: .timeline, value: "following", pinned: pinned)
    }
}

extension BlueskyPreferences {
    /// The saved feeds, in order: the last valid `savedFeedsPrefV2` item's, or, without one, those of
    /// the legacy `savedFeedsPref` (the following timeline first and pinned, then the pinned feeds and
    /// lists, then the other saved ones; other URIs left out), or only the pinned following timeline.
    ///
    /// Feeds read from the legacy item get new ids at each read until a change writes them:
    /// `XRPCClient.savedFeeds()` writes them first, so their ids stay.
    public var savedFeeds: [AppBskyActorDefs.SavedFeed] { savedFeedsV2 ?? migratedSavedFeeds() }

    /// Whether the saved feeds are stored as a `savedFeedsPrefV2` item (and not read from the legacy one).
    public var hasSavedFeedsV2: Bool { savedFeedsV2 != nil }

    /// Saves feeds, each with a new TID as its id, after the saved ones. A feed of a type and value
    /// already saved is not saved again (its stored form is returned).
    ///
    /// - Returns: The feeds as stored.
    /// - Throws: ``BlueskyPreferenceError`` (`invalidFeed`, `invalidValue`); nothing is changed.
    @discardableResult
    public mutating func addSavedFeeds(
        _ feeds: [BlueskyNewSavedFeed]
    ) throws(BlueskyPreferenceError) -> [AppBskyActorDefs.SavedFeed] {
        for feed in feeds { try Self.checkSavedFeed(type: feed.type, value: feed.value) }
        var saved = savedFeeds
        var result: [AppBskyActorDefs.SavedFeed] = []
        for feed in feeds {
            if let existing = saved.first(where: { $0.type == feed.type && $0.value == feed.value }) {
                result.append(existing)
                continue
            }
            let stored = AppBskyActorDefs.SavedFeed(
                id: TID.next().rawValue, type: feed.type, value: feed.value, pinned: feed.pinned)
            saved.append(stored)
            result.append(stored)
        }
        try writeSavedFeeds(saved)
        return result
    }

    /// Removes the saved feeds with these ids; ids not saved are ignored.
    public mutating func removeSavedFeeds(ids: [String]) throws(BlueskyPreferenceError) {
        let removed = Set(ids)
        try writeSavedFeeds(savedFeeds.filter { !removed.contains($0.id) })
    }

    /// Replaces each saved feed by the one of `feeds` with its id, in place.
    ///
    /// - Throws: ``BlueskyPreferenceError``: `notFound` for an id not saved, `invalidFeed`,
    ///   `invalidValue`; nothing is changed.
    public mutating func updateSavedFeeds(_ feeds: [AppBskyActorDefs.SavedFeed]) throws(BlueskyPreferenceError) {
        var saved = savedFeeds
        for feed in feeds {
            try Self.checkSavedFeed(type: feed.type, value: feed.value)
            guard let index = saved.firstIndex(where: { $0.id == feed.id }) else {
                throw BlueskyPreferenceError(
                    .notFound, preference: "savedFeedsPrefV2", value: feed.id, message: "is the id of no saved feed")
            }
            saved[index] = feed
        }
        try writeSavedFeeds(saved)
    }

    /// Pins the saved feeds with these ids (shown as tabs).
    ///
    /// - Throws: ``BlueskyPreferenceError`` `notFound` for an id not saved; nothing is changed.
    public mutating func pinSavedFeeds(ids: [String]) throws(BlueskyPreferenceError) {
        try setPinned(true, ids: ids)
    }

    /// Unpins the saved feeds with these ids (they stay saved).
    ///
    /// - Throws: ``BlueskyPreferenceError`` `notFound` for an id not saved; nothing is changed.
    public mutating func unpinSavedFeeds(ids: [String]) throws(BlueskyPreferenceError) {
        try setPinned(false, ids: ids)
    }

    /// Puts the saved feeds with these ids first, in this order; the others follow in their order.
    ///
    /// - Throws: ``BlueskyPreferenceError`` `notFound` for an id not saved; nothing is changed.
    public mutating func reorderSavedFeeds(ids: [String]) throws(BlueskyPreferenceError) {
        let saved = savedFeeds
        var first: [AppBskyActorDefs.SavedFeed] = []
        for id in ids where !first.contains(where: { $0.id == id }) {
            guard let feed = saved.first(where: { $0.id == id }) else {
                throw BlueskyPreferenceError(
                    .notFound, preference: "savedFeedsPrefV2", value: id, message: "is the id of no saved feed")
            }
            first.append(feed)
        }
        let named = Set(ids)
        try writeSavedFeeds(first + saved.filter { !named.contains($0.id) })
    }

    /// Replaces every saved feed by `feeds`, as given.
    ///
    /// - Throws: ``BlueskyPreferenceError``: `missingID` for an empty id, `duplicateID`, `invalidFeed`,
    ///   `invalidValue`; nothing is changed.
    public mutating func overwriteSavedFeeds(_ feeds: [AppBskyActorDefs.SavedFeed]) throws(BlueskyPreferenceError) {
        var ids = Set<String>()
        for feed in feeds {
            guard !feed.id.isEmpty else {
                throw BlueskyPreferenceError(
                    .missingID, preference: "savedFeedsPrefV2", value: feed.value, message: "has an empty id")
            }
            guard ids.insert(feed.id).inserted else {
                throw BlueskyPreferenceError(
                    .duplicateID, preference: "savedFeedsPrefV2", value: feed.id, message: "is the id of two feeds")
            }
            try Self.checkSavedFeed(type: feed.type, value: feed.value)
        }
        try writeSavedFeeds(feeds)
    }

    /// Checks a saved feed's value fits its type.
    static func checkSavedFeed(
        type: AppBskyActorDefs.SavedFeed.Type_, value: String
    ) throws(BlueskyPreferenceError) {
        let collection: NSID? =
            switch type {
            case .feed: "app.bsky.feed.generator"
            case .list: "app.bsky.graph.list"
            default: nil
            }
        guard let collection else {
            guard !value.isEmpty else {
                throw BlueskyPreferenceError(
                    .invalidFeed, preference: "savedFeedsPrefV2", value: value,
                    message: "is empty: a \(type.rawValue) feed needs a value")
            }
            return
        }
        if let reason = ATURI.syntaxError(in: value) {
            throw BlueskyPreferenceError(
                .invalidFeed, preference: "savedFeedsPrefV2", value: value, message: "is not an AT URI: \(reason)")
        }
        let uri = ATURI(rawValue: value)
        guard uri.collection == collection, uri.rkey != nil else {
            throw BlueskyPreferenceError(
                .invalidFeed, preference: "savedFeedsPrefV2", value: value,
                message: "is not the URI of an \(collection) record, which a \(type.rawValue) feed needs")
        }
    }

    private mutating func setPinned(_ pinned: Bool, ids: [String]) throws(BlueskyPreferenceError) {
        var saved = savedFeeds
        for id in ids {
            guard let index = saved.firstIndex(where: { $0.id == id }) else {
                throw BlueskyPreferenceError(
                    .notFound, preference: "savedFeedsPrefV2", value: id, message: "is the id of no saved feed")
            }
            saved[index].pinned = pinned
        }
        try writeSavedFeeds(saved)
    }

    private var savedFeedsV2: [AppBskyActorDefs.SavedFeed]? {
        lastValid { if case .appBskyActorDefsSavedFeedsPrefV2(let p) = $0 { p.items } else { nil } }
    }

    private var savedFeedsV1: AppBskyActorDefs.SavedFeedsPref? {
        lastValid { if case .appBskyActorDefsSavedFeedsPref(let p) = $0 { p } else { nil } }
    }

    /// The saved feeds of the legacy item, with new ids.
    private func migratedSavedFeeds() -> [AppBskyActorDefs.SavedFeed] {
        var feeds = [
            AppBskyActorDefs.SavedFeed(id: TID.next().rawValue, type: .timeline, value: "following", pinned: true)
        ]
        guard let legacy = savedFeedsV1 else { return feeds }
        for (uris, pinned) in [(legacy.pinned, true), (legacy.saved, false)] {
            for uri in uris where !feeds.contains(where: { $0.value == uri.rawValue }) {
                let type: AppBskyActorDefs.SavedFeed.Type_
                switch uri.collection?.rawValue {
                case "app.bsky.feed.generator": type = .feed
                case "app.bsky.graph.list": type = .list
                default: continue
                }
                feeds.append(.init(id: TID.next().rawValue, type: type, value: uri.rawValue, pinned: pinned))
            }
        }
        return feeds
    }

    /// Writes `feeds` as the one v2 item, and the legacy item (when there is one) to match.
    private mutating func writeSavedFeeds(_ feeds: [AppBskyActorDefs.SavedFeed]) throws(BlueskyPreferenceError) {
        let v2 = AppBskyActorDefs.PreferencesItem.appBskyActorDefsSavedFeedsPrefV2(.init(items: feeds))
        var next = self
        try next.replaceChecked(v2, preference: "savedFeedsPrefV2") {
            if case .appBskyActorDefsSavedFeedsPrefV2 = $0 { true } else { false }
        }
        if var legacy = savedFeedsV1 {
            let uris = feeds.filter { $0.type == .feed || $0.type == .list }
            legacy.saved = uris.map { ATURI(rawValue: $0.value) }
            legacy.pinned = uris.filter(\.pinned).map { ATURI(rawValue: $0.value) }
            next.replaceAll(
                where: { if case .appBskyActorDefsSavedFeedsPref = $0 { true } else { false } },
                with: .appBskyActorDefsSavedFeedsPref(legacy))
        }
        self = next
    }
}
