// The moderation items of the preferences (adult content, label preferences, labelers, hidden posts),
// changed as the reference client changes them: the last valid item of a kind is changed (or a new
// one made), every item of that kind is removed, and the changed item is appended.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension BlueskyPreferences {
    /// Whether adult content is on (the last valid `adultContentPref`; off when none is stored).
    public var adultContentEnabled: Bool {
        lastValid { if case .appBskyActorDefsAdultContentPref(let p) = $0 { p.enabled } else { nil } } ?? false
    }

    /// The posts the user hid (the last valid `hiddenPostsPref`).
    public var hiddenPosts: [ATURI] { hiddenPostsPref().items }

    /// The labelers the user subscribes to (the last valid labelers item), without app labelers.
    public var labelers: [DID] {
        for case .appBskyActorDefsLabelersPref(let pref) in items.reversed()
        where Self.isValid(.appBskyActorDefsLabelersPref(pref)) {
            return pref.labelers.map(\.did)
        }
        return []
    }

    /// Turns adult content on or off.
    public mutating func setAdultContentEnabled(_ enabled: Bool) {
        var pref =
            lastValid { if case .appBskyActorDefsAdultContentPref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.AdultContentPref(enabled: enabled)
        pref.enabled = enabled
        replaceAll(
            where: { if case .appBskyActorDefsAdultContentPref = $0 { true } else { false } },
            with: .appBskyActorDefsAdultContentPref(pref))
    }

    /// Sets the preference for a label value, globally or for one labeler's labels. A global
    /// preference for `porn`, `graphic-media` or `sexual` is also written under its legacy name
    /// (`nsfw`, `gore`, `suggestive`) for older clients.
    public mutating func setLabelPreference(
        _ preference: BlueskyLabelPreference, for label: String, labeler: DID? = nil
    ) {
        setOneLabelPreference(preference, for: label, labeler: labeler)
        if labeler == nil, let legacy = Self.legacyName[label] {
            setOneLabelPreference(preference, for: legacy, labeler: nil)
        }
    }

    private mutating func setOneLabelPreference(_ preference: BlueskyLabelPreference, for label: String, labeler: DID?)
    {
        func matches(_ pref: AppBskyActorDefs.ContentLabelPref) -> Bool {
            pref.label == label && pref.labelerDid == labeler
        }
        var pref =
            lastValid { item -> AppBskyActorDefs.ContentLabelPref? in
                if case .appBskyActorDefsContentLabelPref(let p) = item, matches(p) { return p }
                return nil
            }
            ?? AppBskyActorDefs.ContentLabelPref(
                label: label, visibility: .init(rawValue: preference.rawValue), labelerDid: labeler)
        pref.visibility = .init(rawValue: preference.rawValue)
        replaceAll(
            where: { if case .appBskyActorDefsContentLabelPref(let p) = $0 { matches(p) } else { false } },
            with: .appBskyActorDefsContentLabelPref(pref))
    }

    /// Subscribes to a labeler (once).
    public mutating func addLabeler(_ did: DID) {
        var pref = labelersPref()
        if !pref.labelers.contains(where: { $0.did == did }) {
            pref.labelers.append(AppBskyActorDefs.LabelerPrefItem(did: did))
        }
        replaceAll(where: Self.isLabelersPref, with: .appBskyActorDefsLabelersPref(pref))
    }

    /// Unsubscribes from a labeler.
    public mutating func removeLabeler(_ did: DID) {
        var pref = labelersPref()
        pref.labelers.removeAll { $0.did == did }
        replaceAll(where: Self.isLabelersPref, with: .appBskyActorDefsLabelersPref(pref))
    }

    private func labelersPref() -> AppBskyActorDefs.LabelersPref {
        lastValid { if case .appBskyActorDefsLabelersPref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.LabelersPref(labelers: [])
    }

    private static func isLabelersPref(_ item: AppBskyActorDefs.PreferencesItem) -> Bool {
        if case .appBskyActorDefsLabelersPref = item { return true }
        return false
    }

    /// Hides a post (once).
    public mutating func hidePost(_ uri: ATURI) {
        var pref = hiddenPostsPref()
        if !pref.items.contains(uri) { pref.items.append(uri) }
        replaceAll(where: Self.isHiddenPostsPref, with: .appBskyActorDefsHiddenPostsPref(pref))
    }

    /// Shows a hidden post again.
    public mutating func unhidePost(_ uri: ATURI) {
        var pref = hiddenPostsPref()
        pref.items.removeAll { $0 == uri }
        replaceAll(where: Self.isHiddenPostsPref, with: .appBskyActorDefsHiddenPostsPref(pref))
    }

    private func hiddenPostsPref() -> AppBskyActorDefs.HiddenPostsPref {
        lastValid { if case .appBskyActorDefsHiddenPostsPref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.HiddenPostsPref(items: [])
    }

    private static func isHiddenPostsPref(_ item: AppBskyActorDefs.PreferencesItem) -> Bool {
        if case .appBskyActorDefsHiddenPostsPref = item { return true }
        return false
    }
}
