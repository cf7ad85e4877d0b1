// Muted words and tags against a piece of text: whole words, phrases, words with punctuation inside
// or around them, and plain substring matching for single characters and languages written without
// spaces. Lengths, case and character classes follow the reference client (UTF-16 lengths, Unicode
// punctuation, ECMAScript whitespace), so the same words mute the same posts.

import AtprotoLexicons
import Foundation
import XRPCRuntime

/// A muted word or tag that matched, with the text it matched.
public struct MutedWordMatch: Sendable, Hashable {
    /// The muted word that matched.
    public var word: AppBskyActorDefs.MutedWord
    /// What it matched: the muted value itself, or the word of the text (lowercased) it matched.
    public var predicate: String

    /// Creates a match.
    public init(word: AppBskyActorDefs.MutedWord, predicate: String) {
        self.word = word
        self.predicate = predicate
    }
}

/// Matching of muted words and tags.
public enum MutedWords {
    /// Languages written without spaces between words: a muted word matches anywhere in their text.
    static let unspacedLanguages: Set<String> = ["ja", "zh", "ko", "th", "vi"]

    /// The muted words that match `text` and its tags, in the order of `mutedWords`.
    ///
    /// A word whose `expiresAt` is before `now` is skipped (an `expiresAt` that is not a valid datetime
    /// never expires); so is an `exclude-following` word when `authorIsFollowed`. Any target matches
    /// the tags (the `outlineTags` and the tag facets, compared without case); only `content` words
    /// match the text.
    public static func matches(
        _ mutedWords: [AppBskyActorDefs.MutedWord], text: String, facets: [AppBskyRichtextFacet]? = nil,
        outlineTags: [String]? = nil, languages: [String]? = nil, authorIsFollowed: Bool = false, now: Date = Date()
    ) -> [MutedWordMatch] {
        guard !mutedWords.isEmpty else { return [] }
        let unspaced = languages?.first.map { unspacedLanguages.contains($0) } ?? false
        var tags = (outlineTags ?? []).map { $0.lowercased() }
        for facet in facets ?? [] {
            for case .appBskyRichtextFacetTag(let tag) in facet.features { tags.append(tag.tag.lowercased()) }
        }
        let postText = text.lowercased()
        var matches: [MutedWordMatch] = []
        for word in mutedWords {
            if let expiry = word.expiresAt?.date, expiry < now { continue }
            if word.actorTarget.rawValue == "exclude-following" && authorIsFollowed { continue }
            let muted = word.value.lowercased()
            if tags.contains(where: { $0.utf8.elementsEqual(muted.utf8) }) {
                matches.append(MutedWordMatch(word: word, predicate: word.value))
                continue
            }
            guard word.targets.contains(where: { $0.rawValue == "content" }) else { continue }
            if let predicate = contentMatch(muted, in: postText, unspaced: unspaced) {
                matches.append(MutedWordMatch(word: word, predicate: predicate ?? word.value))
            }
        }
        return matches
    }

    /// How `muted` (lowercased) matches `text` (lowercased): `nil` for no match, `.some(nil)` for a
    /// match of the whole muted value, `.some(word)` for a match of one word of the text.
    static func contentMatch(_ muted: String, in text: String, unspaced: Bool) -> String?? {
        let mutedLength = muted.utf16.count
        if (mutedLength == 1 || unspaced) && text.containsScalars(muted) { return .some(nil) }
        if mutedLength > text.utf16.count { return nil }
        if muted.utf8.elementsEqual(text.utf8) { return .some(nil) }
        if muted.unicodeScalars.contains(where: { $0.isJSWhitespace || $0.isPunctuation })
            && text.containsScalars(muted)
        {
            return .some(nil)
        }
        for word in splitWords(text) {
            if word.utf8.elementsEqual(muted.utf8) { return .some(word) }
            let trimmed = trimmingPunctuation(word)
            if trimmed.utf8.elementsEqual(muted.utf8) { return .some(word) }
            if mutedLength > trimmed.utf16.count { continue }
            guard trimmed.unicodeScalars.contains(where: \.isPunctuation) else { continue }
            // A slash joins alternatives ("and/or"): such a word never matches its parts.
            if trimmed.unicodeScalars.contains("/") { return nil }
            let spaced = replacingPunctuationRuns(trimmed, with: " ")
            if spaced.utf8.elementsEqual(muted.utf8) { return .some(word) }
            let contiguous = String(String.UnicodeScalarView(spaced.unicodeScalars.filter { !$0.isJSWhitespace }))
            if contiguous.utf8.elementsEqual(muted.utf8) { return .some(word) }
            let parts = trimmed.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: \.isPunctuation)
            if parts.contains(where: { String(String.UnicodeScalarView($0)).utf8.elementsEqual(muted.utf8) }) {
                return .some(word)
            }
        }
        return nil
    }

    /// The text split at every whitespace character (runs give empty words, as the reference does).
    static func splitWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isJSWhitespace {
                words.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        words.append(String(current))
        return words
    }

    /// `word` without leading and trailing punctuation.
    static func trimmingPunctuation(_ word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.isPunctuation }),
            let last = scalars.lastIndex(where: { !$0.isPunctuation })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// `word` with each run of punctuation replaced by `replacement`.
    static func replacingPunctuationRuns(_ word: String, with replacement: Unicode.Scalar) -> String {
        var result = String.UnicodeScalarView()
        var inRun = false
        for scalar in word.unicodeScalars {
            if scalar.isPunctuation {
                if !inRun { result.append(replacement) }
                inRun = true
            } else {
                result.append(scalar)
                inRun = false
            }
        }
        return String(result)
    }
}

extension Unicode.Scalar {
    /// Whether the scalar is Unicode punctuation (general category P*).
    var isPunctuation: Bool {
        switch properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            true
        default: false
        }
    }

    /// Whether the scalar is whitespace as ECMAScript's `\s` defines it.
    var isJSWhitespace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }
}

extension String {
    /// Whether `other` occurs in the string scalar for scalar (no grapheme or canonical matching).
    func containsScalars(_ other: String) -> Bool {
        let needle = Array(other.utf8)
        guard !needle.isEmpty else { return true }
        let haystack = Array(utf8)
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
