// Changes to the moderation items of the preferences, as the reference client makes them: the last
// valid item of a kind is changed (or a new one made), every item of that kind is removed, and the
// changed item is appended.

import AppBskyLexicons
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

extension BlueskyPreferences {
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
    public mutating func setLabelPreference(_ preference: LabelPreference, for label: String, labeler: DID? = nil) {
        setOneLabelPreference(preference, for: label, labeler: labeler)
        if labeler == nil, let legacy = Self.legacyName[label] {
            setOneLabelPreference(preference, for: legacy, labeler: nil)
        }
    }

    private mutating func setOneLabelPreference(_ preference: LabelPreference, for label: String, labeler: DID?) {
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

    /// Mutes a word or tag. The value is trimmed, loses a leading `#` and its first run of line breaks
    /// and invisible joiners; a value left empty is not added. The word gets a new `id`, as do
    /// stored words without one. Returns the word as stored, or `nil` when nothing was added.
    @discardableResult
    public mutating func addMutedWord(_ word: AppBskyActorDefs.MutedWord) -> AppBskyActorDefs.MutedWord? {
        let value = Self.sanitizedMutedWord(word.value)
        guard !value.isEmpty else { return nil }
        var stored = word
        stored.value = value
        stored.id = TID.next().rawValue
        var pref = mutedWordsPref() ?? AppBskyActorDefs.MutedWordsPref(items: [])
        pref.items.append(stored)
        pref.items = pref.items.map { item in
            var copy = item
            if copy.id == nil { copy.id = TID.next().rawValue }
            return copy
        }
        replaceAll(where: Self.isMutedWordsPref, with: .appBskyActorDefsMutedWordsPref(pref))
        return stored
    }

    /// Unmutes a word: the stored word with the same `id`, or, for stored words without one, the same
    /// value. Nothing changes when there is no muted-words item.
    public mutating func removeMutedWord(_ word: AppBskyActorDefs.MutedWord) {
        guard var pref = mutedWordsPref() else { return }
        if let index = pref.items.firstIndex(where: { stored in
            if let id = stored.id { return id == word.id }
            return stored.value == word.value
        }) {
            pref.items.remove(at: index)
        }
        pref.items = pref.items.map { item in
            var copy = item
            if copy.id == nil { copy.id = TID.next().rawValue }
            return copy
        }
        replaceAll(where: Self.isMutedWordsPref, with: .appBskyActorDefsMutedWordsPref(pref))
    }

    private func mutedWordsPref() -> AppBskyActorDefs.MutedWordsPref? {
        lastValid { if case .appBskyActorDefsMutedWordsPref(let p) = $0 { p } else { nil } }
    }

    private static func isMutedWordsPref(_ item: AppBskyActorDefs.PreferencesItem) -> Bool {
        if case .appBskyActorDefsMutedWordsPref = item { return true }
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

    /// A muted word's value as stored: trimmed, without a leading `#` (unless it starts an emoji
    /// keycap) and without its first run of line breaks, soft hyphens and zero-width characters.
    static func sanitizedMutedWord(_ value: String) -> String {
        var scalars = Array(value.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
        if scalars.first == "#" && (scalars.count < 2 || scalars[1] != "\u{FE0F}") { scalars.removeFirst() }
        let invisible: Set<Unicode.Scalar> = ["\r", "\n", "\u{AD}", "\u{2060}", "\u{200D}", "\u{200C}", "\u{200B}"]
        if let start = scalars.firstIndex(where: invisible.contains) {
            let end = scalars[start...].firstIndex(where: { !invisible.contains($0) }) ?? scalars.endIndex
            scalars.removeSubrange(start..<end)
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
