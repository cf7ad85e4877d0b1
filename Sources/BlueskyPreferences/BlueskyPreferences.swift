// The user's `app.bsky.actor` preferences as a list of items, read and changed item by item. Items this
// module does not change (other kinds, kinds newer than the SDK, items that did not decode) stay as
// they were, in their place, and an item written back unchanged is sent as the bytes it was read as.

import AppBskyLexicons
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

/// The user's Bluesky preferences (`app.bsky.actor.getPreferences`), every kind the lexicons define
/// typed to read and to change.
///
/// ```swift
/// try await client.updateBlueskyPreferences { preferences in
///     preferences.setLabelPreference(.warn, for: "graphic-media")
///     try preferences.addSavedFeeds([.feed("at://did:plc:x/app.bsky.feed.generator/cats", pinned: true)])
/// }
/// ```
///
/// Equality and hashing compare ``items`` only.
public struct BlueskyPreferences: Sendable, Hashable {
    /// The preference items as read, in order; unknown and undecodable items included.
    public var items: [AppBskyActorDefs.PreferencesItem]

    /// The items as the server sent them, with their bytes: an item of ``items`` equal to one of
    /// these is written back as its bytes (unknown items keep their key order, numbers and escapes).
    var read: [ReadPreferenceItem] = []

    /// Wraps the items of a `getPreferences` answer.
    public init(_ items: [AppBskyActorDefs.PreferencesItem] = []) {
        self.items = items
    }

    /// The items read from a server, with their bytes.
    init(read: [ReadPreferenceItem]) {
        self.items = read.map(\.item)
        self.read = read
    }

    public static func == (lhs: BlueskyPreferences, rhs: BlueskyPreferences) -> Bool { lhs.items == rhs.items }

    public func hash(into hasher: inout Hasher) { hasher.combine(items) }

    /// The current name of each legacy label value, and back.
    package static let currentName = ["nsfw": "porn", "gore": "graphic-media", "suggestive": "sexual"]
    package static let legacyName = ["porn": "nsfw", "graphic-media": "gore", "sexual": "suggestive"]

    /// Whether an item decoded and passes its lexicon's validation.
    package static func isValid(_ item: AppBskyActorDefs.PreferencesItem) -> Bool {
        switch item {
        case .invalid, .unknown: return false
        default: return (try? item.validate()) != nil
        }
    }

    /// The last valid item `extract` accepts.
    func lastValid<T>(_ extract: (AppBskyActorDefs.PreferencesItem) -> T?) -> T? {
        for item in items.reversed() where Self.isValid(item) {
            if let value = extract(item) { return value }
        }
        return nil
    }

    /// Replaces every item of one kind (`isKind`, valid or not) by `replacement`, at the end.
    mutating func replaceAll(
        where isKind: (AppBskyActorDefs.PreferencesItem) -> Bool, with replacement: AppBskyActorDefs.PreferencesItem
    ) {
        items.removeAll(where: isKind)
        items.append(replacement)
    }

    /// Checks `replacement` against its lexicon, then replaces every item of its kind by it.
    mutating func replaceChecked(
        _ replacement: AppBskyActorDefs.PreferencesItem, preference: String,
        where isKind: (AppBskyActorDefs.PreferencesItem) -> Bool
    ) throws(BlueskyPreferenceError) {
        do {
            try replacement.validate()
        } catch {
            throw BlueskyPreferenceError(
                .invalidValue, preference: preference, message: "breaks its lexicon: \(error)", underlying: error)
        }
        replaceAll(where: isKind, with: replacement)
    }

    /// The body of `putPreferences`: each item unchanged since it was read as its bytes, the others
    /// serialized.
    func wireBody() -> Data {
        var unused: [AppBskyActorDefs.PreferencesItem: [Int]] = [:]
        for (index, entry) in read.enumerated() { unused[entry.item, default: []].append(index) }
        var body = Data(#"{"preferences":["#.utf8)
        for (position, item) in items.enumerated() {
            if position > 0 { body.append(UInt8(ascii: ",")) }
            if var indexes = unused[item], !indexes.isEmpty {
                body.append(read[indexes.removeFirst()].bytes)
                unused[item] = indexes
            } else {
                body.append(item.lexiconJSON.serialized())
            }
        }
        body.append(contentsOf: Array("]}".utf8))
        return body
    }
}

/// One item as read, with its bytes.
struct ReadPreferenceItem: Sendable {
    var item: AppBskyActorDefs.PreferencesItem
    var bytes: Data
}
