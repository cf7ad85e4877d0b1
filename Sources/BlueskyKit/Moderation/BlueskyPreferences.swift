// The user's `app.bsky.actor` preferences as a list of items, read for moderation and changed item by
// item. Items this module does not change (other kinds, kinds newer than the SDK, items that did not
// decode) stay as they were, in their place, so a read-change-write loses nothing.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// The user's Bluesky preferences (`app.bsky.actor.getPreferences`), with typed reading and changes
/// of the moderation parts.
///
/// ```swift
/// var preferences = try await client.blueskyPreferences()
/// preferences.setLabelPreference(.warn, for: "graphic-media")
/// try await client.putBlueskyPreferences(preferences)
/// ```
public struct BlueskyPreferences: Sendable, Hashable {
    /// The preference items as read, in order; unknown and undecodable items included.
    public var items: [AppBskyActorDefs.PreferencesItem]

    /// Wraps the items of a `getPreferences` answer.
    public init(_ items: [AppBskyActorDefs.PreferencesItem] = []) {
        self.items = items
    }

    /// The moderation preferences the items describe.
    ///
    /// Starts from a new account's (adult content off, the built-in label defaults, no labelers) with
    /// `appLabelers` subscribed first; then, for each kind, the last valid item counts: the adult
    /// content switch, the labelers, the muted words and the hidden posts. Every valid label
    /// preference applies, global or for a subscribed labeler (one for a labeler the user does not
    /// subscribe to is dropped); the legacy visibility `show` reads as `ignore` and the legacy values
    /// `nsfw`, `gore` and `suggestive` set `porn`, `graphic-media` and `sexual`. Items that fail their
    /// lexicon's validation (a malformed DID, a missing field) and label preferences whose visibility
    /// is none of `ignore`, `show`, `warn`, `hide` are not applied.
    public func moderationPreferences(appLabelers: [DID] = []) -> ModerationPreferences {
        var result = ModerationPreferences(labelers: appLabelers.map { LabelerSettings(did: $0) })
        var labelPreferences: [AppBskyActorDefs.ContentLabelPref] = []
        for item in items where Self.isValid(item) {
            switch item {
            case .appBskyActorDefsAdultContentPref(let pref):
                result.adultContentEnabled = pref.enabled
            case .appBskyActorDefsContentLabelPref(let pref):
                labelPreferences.append(pref)
            case .appBskyActorDefsLabelersPref(let pref):
                result.labelers =
                    appLabelers.map { LabelerSettings(did: $0) } + pref.labelers.map { LabelerSettings(did: $0.did) }
            case .appBskyActorDefsMutedWordsPref(let pref):
                result.mutedWords = pref.items
            case .appBskyActorDefsHiddenPostsPref(let pref):
                result.hiddenPosts = pref.items.map(\.rawValue)
            default:
                break
            }
        }
        var legacy: [(String, LabelPreference)] = []
        for pref in labelPreferences {
            guard let visibility = LabelPreference(storedValue: pref.visibility.rawValue) else { continue }
            if let labeler = pref.labelerDid {
                guard let index = result.labelers.firstIndex(where: { $0.did == labeler }) else { continue }
                result.labelers[index].labels[pref.label] = visibility
            } else {
                result.labels[pref.label] = visibility
                if let current = Self.currentName[pref.label] { legacy.append((current, visibility)) }
            }
        }
        for (name, visibility) in legacy { result.labels[name] = visibility }
        return result
    }

    /// The labelers the user subscribes to (the last valid labelers item), without app labelers.
    public var labelers: [DID] {
        for case .appBskyActorDefsLabelersPref(let pref) in items.reversed()
        where Self.isValid(.appBskyActorDefsLabelersPref(pref)) {
            return pref.labelers.map(\.did)
        }
        return []
    }

    /// The current name of each legacy label value, and back.
    static let currentName = ["nsfw": "porn", "gore": "graphic-media", "suggestive": "sexual"]
    static let legacyName = ["porn": "nsfw", "graphic-media": "gore", "sexual": "suggestive"]

    /// Whether an item decoded and passes its lexicon's validation.
    static func isValid(_ item: AppBskyActorDefs.PreferencesItem) -> Bool {
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
}
