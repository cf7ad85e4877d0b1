import AppBskyLexicons
import ComAtprotoLexicons

/// A mention, link or tag found in text, before mentions are resolved to DIDs.
public struct DetectedFacet: Sendable, Hashable {
    /// What was found.
    public enum Kind: Sendable, Hashable {
        /// `@handle`: the handle as written (not yet resolved, not lower-cased).
        case mention(handle: String)
        /// A link: the URI to link to (`https://` added to a bare domain, trailing punctuation left out).
        case link(uri: String)
        /// `#tag` (without `#`), or a cashtag `$TICKER` (upper-cased, with its `$`).
        case tag(String)
    }

    /// The UTF-8 byte range of the text the facet covers (with `@`, `#` or `$`).
    public var bytes: Range<Int>
    /// What was found.
    public var kind: Kind

    /// A detected facet.
    public init(bytes: Range<Int>, kind: Kind) {
        self.bytes = bytes
        self.kind = kind
    }
}

/// Finds mentions, links, hashtags and cashtags in text with the rules of the official client
/// (`@atproto/api`'s rich-text detection):
///
/// - **Mentions**: `@` at the start, after whitespace or `(`, then letters, digits, `.` and `-` up to
///   a word boundary; kept only when it ends in a known top-level domain (or `.test`).
/// - **Links**: at the start, after whitespace or `(`: `http://` or `https://` and everything up to
///   whitespace, or a bare domain (a letter, then letters and digits, then one or more `.label`s
///   ending in a known top-level domain) and what follows it up to whitespace, linked as `https://`.
///   One trailing `.` `,` `;` `:` `!` `?` is left out, and then a `)` when the link has no `(`.
/// - **Hashtags**: `#` or `＃` at the start or after whitespace, then characters up to whitespace
///   or an invisible separator (soft hyphen, zero-width space and joiners, word joiner, U+20E2); a
///   tag must hold a character that is not a digit or punctuation, may not start with U+FE0F (the
///   keycap `#️⃣`), loses its trailing punctuation and is at most 64 graphemes.
/// - **Cashtags**: `$` at the start, after whitespace or `(`, then a letter and up to four letters
///   or digits, followed by whitespace, the end or one of `.,;:!?)"'’`; upper-cased, kept with `$`.
///
/// The result is sorted by start (mentions before links before tags at one start). Ranges fall on
/// Unicode scalar boundaries; like the official client's, a tag may end inside a grapheme (before a
/// zero-width joiner), which ``RichText/segments()`` widens for display. Work is linear in the
/// text's length.
public enum FacetDetector {
    /// The facets found in `text`, sorted by their start.
    public static func detect(in text: String) -> [DetectedFacet] {
        let scanner = Scanner(text)
        var found = scanner.mentions()
        found += scanner.links()
        found += scanner.tags()
        found += scanner.cashtags()
        // A stable sort keeps mentions, links, tags in that order at one start, as the official client does.
        return found.enumerated().sorted {
            ($0.element.bytes.lowerBound, $0.offset) < ($1.element.bytes.lowerBound, $1.offset)
        }.map(\.element)
    }
}

/// The text as Unicode scalars with the UTF-8 offset of each, so that the rules read like the
/// official client's regular expressions (which see UTF-16 or scalars) and answer in bytes.
struct Scanner {
    let scalars: [Unicode.Scalar]
    /// `offsets[i]` is the UTF-8 offset of `scalars[i]`; `offsets[scalars.count]` is the byte count.
    let offsets: [Int]
    /// The text's UTF-8 bytes, for cutting strings out of it.
    let utf8: [UInt8]

    init(_ text: String) {
        utf8 = Array(text.utf8)
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        scalars.reserveCapacity(text.utf8.count)
        offsets.reserveCapacity(text.utf8.count + 1)
        var offset = 0
        for scalar in text.unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.offsets = offsets
    }

    var count: Int { scalars.count }

    func bytes(_ range: Range<Int>) -> Range<Int> { offsets[range.lowerBound]..<offsets[range.upperBound] }

    func string(_ range: Range<Int>) -> String {
        String(decoding: utf8[offsets[range.lowerBound]..<offsets[range.upperBound]], as: UTF8.self)
    }

    /// The end of the run of scalars from `start` that satisfy `predicate`.
    func runEnd(from start: Int, while predicate: (Unicode.Scalar) -> Bool) -> Int {
        var end = start
        while end < count, predicate(scalars[end]) { end += 1 }
        return end
    }

    /// Whether a match may begin with its prefix at `index`, in a scan whose last match ended at
    /// `lastEnd`: the start of the text, or a prefix scalar (whitespace, or `(` when allowed) that
    /// the last match did not consume.
    func prefixAllows(_ index: Int, lastEnd: Int, parenthesis: Bool) -> Bool {
        if index == 0 { return true }
        let before = scalars[index - 1]
        guard index - 1 >= lastEnd else { return false }
        return CharacterClass.isWhitespace(before) || (parenthesis && before == "(")
    }

    // MARK: Mentions

    func mentions() -> [DetectedFacet] {
        var found: [DetectedFacet] = []
        var lastEnd = 0
        var index = 0
        while index < count {
            defer { index += 1 }
            guard scalars[index] == "@", prefixAllows(index, lastEnd: lastEnd, parenthesis: true) else { continue }
            let start = index + 1
            let runEnd = runEnd(from: start, while: CharacterClass.isHandleCharacter)
            // The longest handle that ends on a word boundary (`\b`), as a backtracking regex finds it.
            var end = runEnd
            while end > start {
                let last = CharacterClass.isWordCharacter(scalars[end - 1])
                let next = end < count && CharacterClass.isWordCharacter(scalars[end])
                if last != next { break }
                end -= 1
            }
            guard end > start else { continue }
            lastEnd = end
            index = end - 1
            let handle = string(start..<end)
            guard CharacterClass.endsInTopLevelDomain(handle) || handle.hasSuffix(".test") else { continue }
            found.append(DetectedFacet(bytes: bytes((start - 1)..<end), kind: .mention(handle: handle)))
        }
        return found
    }

    // MARK: Links

    func links() -> [DetectedFacet] {
        var found: [DetectedFacet] = []
        var lastEnd = 0
        var index = 0
        while index < count {
            guard prefixAllows(index, lastEnd: lastEnd, parenthesis: true) else {
                index += 1
                continue
            }
            let end = runEnd(from: index, while: { !CharacterClass.isWhitespace($0) })
            if let schemeEnd = schemeEnd(at: index), end > schemeEnd {
                // The official client matches the scheme in any case but links only a lower-case `http`.
                if string(index..<index + 4) == "http" { found.append(link(index..<end, prefix: "")) }
            } else if let domainEnd = domainEnd(at: index) {
                if CharacterClass.endsInTopLevelDomain(string(index..<domainEnd)) {
                    found.append(link(index..<end, prefix: "https://"))
                }
            } else {
                index += 1
                continue
            }
            lastEnd = end
            index = end
        }
        return found
    }

    /// A link over `range` (the URI is `prefix` and the text there), without one trailing
    /// punctuation mark and then an unbalanced `)`.
    func link(_ range: Range<Int>, prefix: String) -> DetectedFacet {
        var end = range.upperBound
        if end > range.lowerBound, ".,;:!?".unicodeScalars.contains(scalars[end - 1]) { end -= 1 }
        if end > range.lowerBound, scalars[end - 1] == ")", !scalars[range.lowerBound..<end].contains("(") {
            end -= 1
        }
        let uri = prefix + string(range.lowerBound..<end)
        return DetectedFacet(bytes: bytes(range.lowerBound..<end), kind: .link(uri: uri))
    }

    /// The end of `http://` or `https://` (any case) at `index`, or `nil`.
    func schemeEnd(at index: Int) -> Int? {
        var position = index
        for expected in "http" {
            guard position < count, CharacterClass.lowercasedASCII(scalars[position]) == expected else { return nil }
            position += 1
        }
        if position < count, CharacterClass.lowercasedASCII(scalars[position]) == "s" { position += 1 }
        for expected in "://" {
            guard position < count, scalars[position] == expected.unicodeScalars.first else { return nil }
            position += 1
        }
        return position
    }

    /// The end of the longest domain at `index` (a letter, letters and digits, then `.label`s of
    /// letters and digits, at least one; ASCII, any case), or `nil`.
    func domainEnd(at index: Int) -> Int? {
        guard index < count, CharacterClass.isASCIILetter(scalars[index]) else { return nil }
        var end = runEnd(from: index + 1, while: CharacterClass.isASCIIAlphanumeric)
        var labels = 0
        while end < count, scalars[end] == "." {
            let labelEnd = runEnd(from: end + 1, while: CharacterClass.isASCIIAlphanumeric)
            guard labelEnd > end + 1 else { break }
            end = labelEnd
            labels += 1
        }
        return labels > 0 ? end : nil
    }
}
