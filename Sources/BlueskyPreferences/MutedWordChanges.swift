// Muted words and tags: added one or many at a time, updated by id, removed. Words stored without an
// id (written by older clients) get one at the first change, and are otherwise matched by value.

import AppBskyLexicons
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

extension BlueskyPreferences {
    /// The muted words and tags (the last valid muted-words item), as stored.
    public var mutedWords: [AppBskyActorDefs.MutedWord] { mutedWordsPref()?.items ?? [] }

    /// Mutes a word or tag. The value is trimmed, loses a leading `#` and its first run of line breaks
    /// and invisible joiners; a value left empty is not added. The word gets a new `id`, as do
    /// stored words without one. Returns the word as stored, or `nil` when nothing was added.
    @discardableResult
    public mutating func addMutedWord(_ word: AppBskyActorDefs.MutedWord) -> AppBskyActorDefs.MutedWord? {
        (try? addMutedWords([word]))?.first
    }

    /// Mutes several words or tags at once, each as ``addMutedWord(_:)`` does (values left empty after
    /// sanitizing are skipped). Returns the words as stored, each with its new `id`.
    ///
    /// - Throws: ``BlueskyPreferenceError`` (`invalidValue`) when a word breaks its lexicon (a value over
    ///   its length, a target over its length); nothing is changed.
    @discardableResult
    public mutating func addMutedWords(
        _ words: [AppBskyActorDefs.MutedWord]
    ) throws(BlueskyPreferenceError) -> [AppBskyActorDefs.MutedWord] {
        var added: [AppBskyActorDefs.MutedWord] = []
        for word in words {
            let value = Self.sanitizedMutedWord(word.value)
            guard !value.isEmpty else { continue }
            var stored = word
            stored.value = value
            stored.id = TID.next().rawValue
            added.append(stored)
        }
        guard !added.isEmpty else { return [] }
        var pref = mutedWordsPref() ?? AppBskyActorDefs.MutedWordsPref(items: [])
        pref.items = Self.withIDs(pref.items) + added
        try replaceChecked(
            .appBskyActorDefsMutedWordsPref(pref), preference: "mutedWordsPref", where: Self.isMutedWords)
        return added
    }

    /// Replaces the stored word with the same `id` by `word` (its value sanitized as when added).
    ///
    /// - Throws: ``BlueskyPreferenceError``: `missingID` when `word` has no id, `notFound` when no stored
    ///   word has it, `invalidValue` when the word breaks its lexicon. Nothing is changed then.
    public mutating func updateMutedWord(_ word: AppBskyActorDefs.MutedWord) throws(BlueskyPreferenceError) {
        guard let id = word.id else {
            throw BlueskyPreferenceError(
                .missingID, preference: "mutedWordsPref", value: word.value,
                message: "has no id: only a stored word (with the id it was given) can be updated")
        }
        var pref = mutedWordsPref() ?? AppBskyActorDefs.MutedWordsPref(items: [])
        pref.items = Self.withIDs(pref.items)
        guard let index = pref.items.firstIndex(where: { $0.id == id }) else {
            throw BlueskyPreferenceError(
                .notFound, preference: "mutedWordsPref", value: id, message: "is the id of no muted word")
        }
        var updated = word
        updated.value = Self.sanitizedMutedWord(word.value)
        pref.items[index] = updated
        try replaceChecked(
            .appBskyActorDefsMutedWordsPref(pref), preference: "mutedWordsPref", where: Self.isMutedWords)
    }

    /// Unmutes a word: the stored word with the same `id`, or, for stored words without one, the same
    /// value. Nothing changes when there is no muted-words item.
    public mutating func removeMutedWord(_ word: AppBskyActorDefs.MutedWord) {
        removeMutedWords([word])
    }

    /// Unmutes several words, each as ``removeMutedWord(_:)`` finds it.
    public mutating func removeMutedWords(_ words: [AppBskyActorDefs.MutedWord]) {
        guard var pref = mutedWordsPref() else { return }
        for word in words {
            if let index = pref.items.firstIndex(where: { stored in
                if let id = stored.id { return id == word.id }
                return stored.value == word.value
            }) {
                pref.items.remove(at: index)
            }
        }
        pref.items = Self.withIDs(pref.items)
        replaceAll(where: Self.isMutedWords, with: .appBskyActorDefsMutedWordsPref(pref))
    }

    private func mutedWordsPref() -> AppBskyActorDefs.MutedWordsPref? {
        lastValid { if case .appBskyActorDefsMutedWordsPref(let p) = $0 { p } else { nil } }
    }

    private static func isMutedWords(_ item: AppBskyActorDefs.PreferencesItem) -> Bool {
        if case .appBskyActorDefsMutedWordsPref = item { return true }
        return false
    }

    /// The words, each stored without an id given a new one.
    private static func withIDs(_ words: [AppBskyActorDefs.MutedWord]) -> [AppBskyActorDefs.MutedWord] {
        words.map { word in
            var copy = word
            if copy.id == nil { copy.id = TID.next().rawValue }
            return copy
        }
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
