// The moderation preferences the user's `app.bsky.actor` preferences describe: the moderation half of
// `BlueskyPreferences` (whose items and edits are BlueskyPreferences' own module's).

import AppBskyLexicons
import BlueskyPreferences
import ComAtprotoLexicons
import XRPCRuntime

extension BlueskyPreferences {
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
        var legacy: [(String, BlueskyLabelPreference)] = []
        for pref in labelPreferences {
            guard let visibility = BlueskyLabelPreference(storedValue: pref.visibility.rawValue) else { continue }
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
}
