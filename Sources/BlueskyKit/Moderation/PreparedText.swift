// A lowercased text prepared once for all the muted words it is checked against: its bytes, its
// words and, for words with punctuation, the forms they may match in.

/// A text split into what muted words are compared with.
final class PreparedText {
    /// One word of the text (split at every whitespace character, so runs give empty words).
    struct Word {
        /// The word as written (lowercased).
        var original: String
        /// The word without leading and trailing punctuation.
        var trimmed: String
        /// The UTF-16 length of `trimmed`.
        var trimmedLength: Int
        /// Whether `trimmed` has punctuation inside.
        var punctuated: Bool
        /// Whether `trimmed` has a `/` ("and/or"), which keeps it from matching its parts.
        var slashed: Bool
        /// For a punctuated word without `/`: punctuation runs as one space, then without spaces, then
        /// each part between punctuation.
        var variants: [String]
    }

    let text: String
    let bytes: [UInt8]
    let length: Int
    private(set) lazy var words: [Word] = MutedWords.splitWords(text).map(Self.word)
    /// The text without punctuation and whitespace: every way a muted word can match the text, what
    /// remains of the word this way is in it. Checked first, so most words never split the text.
    private(set) lazy var letters: [UInt8] = Self.letters(text)

    init(_ lowercased: String) {
        text = lowercased
        bytes = Array(lowercased.utf8)
        length = lowercased.utf16.count
    }

    /// How `muted` (lowercased) matches: `nil` for no match, `.some(nil)` for a match of the whole
    /// muted value, `.some(word)` for a match of one word of the text.
    /// `prefilter` off skips the check of ``letters`` (for tests that prove it changes no outcome).
    func match(_ muted: String, unspaced: Bool, prefilter: Bool = true) -> String?? {
        let mutedLength = muted.utf16.count
        if prefilter {
            let mutedLetters = Self.letters(muted)
            if !mutedLetters.isEmpty && !Self.contains(mutedLetters, in: letters) { return nil }
        }
        if (mutedLength == 1 || unspaced) && contains(muted) { return .some(nil) }
        if mutedLength > length { return nil }
        if muted.utf8.elementsEqual(bytes) { return .some(nil) }
        if muted.unicodeScalars.contains(where: { $0.isJSWhitespace || $0.isPunctuation }) && contains(muted) {
            return .some(nil)
        }
        for word in words {
            if word.original.utf8.elementsEqual(muted.utf8) || word.trimmed.utf8.elementsEqual(muted.utf8) {
                return .some(word.original)
            }
            if mutedLength > word.trimmedLength || !word.punctuated { continue }
            if word.slashed { return nil }
            if word.variants.contains(where: { $0.utf8.elementsEqual(muted.utf8) }) { return .some(word.original) }
        }
        return nil
    }

    /// Whether `other` occurs in the text scalar for scalar (no grapheme or canonical matching).
    func contains(_ other: String) -> Bool {
        Self.contains(Array(other.utf8), in: bytes)
    }

    static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == first && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Whether each ASCII byte is punctuation or whitespace.
    private static let asciiSkipped: [Bool] = (0..<128).map { value in
        Unicode.Scalar(UInt8(value)).isJSWhitespace || Unicode.Scalar(UInt8(value)).isPunctuation
    }

    /// The UTF-8 of `text` without its punctuation and whitespace scalars.
    static func letters(_ text: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if !asciiSkipped[Int(byte)] { result.append(byte) }
            } else if !scalar.isJSWhitespace && !scalar.isPunctuation {
                result.append(contentsOf: scalar.utf8)
            }
        }
        return result
    }

    private static func word(_ original: String) -> Word {
        let trimmed = MutedWords.trimmingPunctuation(original)
        let punctuated = trimmed.unicodeScalars.contains(where: \.isPunctuation)
        let slashed = punctuated && trimmed.unicodeScalars.contains("/")
        var variants: [String] = []
        if punctuated && !slashed {
            let spaced = MutedWords.replacingPunctuationRuns(trimmed, with: " ")
            variants.append(spaced)
            variants.append(String(String.UnicodeScalarView(spaced.unicodeScalars.filter { !$0.isJSWhitespace })))
            for part in trimmed.unicodeScalars.split(omittingEmptySubsequences: false, whereSeparator: \.isPunctuation)
            {
                variants.append(String(String.UnicodeScalarView(part)))
            }
        }
        return Word(
            original: original, trimmed: trimmed, trimmedLength: trimmed.utf16.count, punctuated: punctuated,
            slashed: slashed,
            variants: variants)
    }
}
