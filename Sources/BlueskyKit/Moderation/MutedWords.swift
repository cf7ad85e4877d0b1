// Muted words and tags against a piece of text: whole words, phrases, words with punctuation inside
// or around them, and plain substring matching for single characters and languages written without
// spaces. Lengths, case and character classes follow the reference client (UTF-16 lengths, Unicode
// punctuation, ECMAScript whitespace), so the same words mute the same posts.

import AppBskyLexicons
import ComAtprotoLexicons
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
        let prepared = PreparedText(text.lowercased())
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
            if let predicate = prepared.match(muted, unspaced: unspaced) {
                matches.append(MutedWordMatch(word: word, predicate: predicate ?? word.value))
            }
        }
        return matches
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
