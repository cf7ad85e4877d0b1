import AppBskyLexicons
import ComAtprotoLexicons

/// A run of a post's text for display: plain, or covered by a facet (a link, a mention, a tag).
public struct RichTextSegment: Sendable, Hashable {
    /// The run's text; never empty.
    public var text: String
    /// The run's UTF-8 byte range in the whole text.
    public var bytes: Range<Int>
    /// The facet that covers the run, or `nil` for plain text.
    public var facet: AppBskyRichtextFacet?

    /// A segment.
    public init(text: String, bytes: Range<Int>, facet: AppBskyRichtextFacet? = nil) {
        self.text = text
        self.bytes = bytes
        self.facet = facet
    }

    /// What the run is: the first feature of its facet that this module knows, or `nil` (plain text,
    /// or a facet of a kind only a newer lexicon has).
    public var feature: RichTextFeature? { facet?.feature }

    /// The run's link, when it is one.
    public var link: URIString? { if case .link(let uri) = feature { uri } else { nil } }
    /// The DID the run mentions, when it is a mention.
    public var mention: DID? { if case .mention(let did) = feature { did } else { nil } }
    /// The run's hashtag (without `#`), when it is one.
    public var tag: String? { if case .tag(let tag) = feature { tag } else { nil } }
}

extension RichText {
    /// The text cut into runs for display, each plain or with its facet.
    ///
    /// Works for any facets a post may carry, including wrong ones from other clients, and never
    /// loses or repeats text: the segments' texts joined are always ``text``.
    /// - Ranges past the end are cut at the end; a range that starts before the text (a negative
    ///   `byteStart`), whose start is after its end, or that is empty, is ignored.
    /// - A range that splits a UTF-8 sequence or a grapheme (an emoji sequence, a letter with its
    ///   combining marks) is widened to the whole graphemes it touches.
    /// - Facets are taken in order of their start; one that starts inside an earlier one is
    ///   ignored (as the official client does).
    /// - A facet over whitespace only shows as plain text.
    /// Plain runs next to each other are one segment. The work is linear in the text's length
    /// plus `n log n` in the number of facets.
    public func segments() -> [RichTextSegment] {
        let total = text.utf8.count
        guard !facets.isEmpty else {
            return total == 0 ? [] : [RichTextSegment(text: text, bytes: 0..<total)]
        }
        let bytes = Array(text.utf8)
        // Most facets start and end between two ASCII characters, always a grapheme boundary
        // (except inside CR LF); the text's graphemes are found only for the others.
        var boundaries: GraphemeBoundaries?
        func isPlainBoundary(_ offset: Int) -> Bool {
            offset == 0 || offset == total
                || (bytes[offset - 1] < 0x80 && bytes[offset] < 0x80
                    && !(bytes[offset - 1] == 0x0D && bytes[offset] == 0x0A))
        }
        var ranges: [(range: Range<Int>, order: Int)] = []
        ranges.reserveCapacity(facets.count)
        // A range that starts before the text is not the text's: skipped, as the official client
        // does, rather than moved to the text's start.
        for (order, facet) in facets.enumerated() where facet.index.byteStart >= 0 {
            var start = min(facet.index.byteStart, total)
            var end = max(0, min(facet.index.byteEnd, total))
            guard start < end else { continue }
            if !isPlainBoundary(start) || !isPlainBoundary(end) {
                let found = boundaries ?? GraphemeBoundaries(text)
                boundaries = found
                start = found.floor(start)
                end = found.ceiling(end)
            }
            ranges.append((start..<end, order))
        }
        ranges.sort { ($0.range.lowerBound, $0.order) < ($1.range.lowerBound, $1.order) }

        var builder = SegmentBuilder(text: text)
        for (range, order) in ranges where range.lowerBound >= builder.cursor {
            builder.append(upTo: range.lowerBound, facet: nil)
            builder.append(upTo: range.upperBound, facet: facets[order])
        }
        builder.append(upTo: total, facet: nil)
        return builder.finish()
    }
}

/// Cuts a text in order, walking its UTF-8 view once; plain runs next to each other join.
struct SegmentBuilder {
    let text: String
    private(set) var segments: [RichTextSegment] = []
    private(set) var cursor = 0
    private var index: String.Index
    /// Where the plain run not yet appended starts, if there is one.
    private var plainStart: (offset: Int, index: String.Index)?

    init(text: String) {
        self.text = text
        index = text.startIndex
    }

    /// Takes the text from the cursor to `end` (a grapheme boundary), plain or with `facet`.
    mutating func append(upTo end: Int, facet: AppBskyRichtextFacet?) {
        guard end > cursor else { return }
        let endIndex = text.utf8.index(index, offsetBy: end - cursor)
        if let facet, !text.unicodeScalars[index..<endIndex].allSatisfy(CharacterClass.isWhitespace) {
            flushPlain()
            segments.append(RichTextSegment(text: String(text[index..<endIndex]), bytes: cursor..<end, facet: facet))
        } else if plainStart == nil {
            plainStart = (cursor, index)
        }
        cursor = end
        index = endIndex
    }

    /// The segments, with the last plain run.
    mutating func finish() -> [RichTextSegment] {
        flushPlain()
        return segments
    }

    private mutating func flushPlain() {
        guard let start = plainStart else { return }
        segments.append(RichTextSegment(text: String(text[start.index..<index]), bytes: start.offset..<cursor))
        plainStart = nil
    }
}

/// The UTF-8 offsets where a text's graphemes start, and its end.
struct GraphemeBoundaries {
    /// `isBoundary[i]` for each offset `0...count`.
    private var isBoundary: [Bool]

    init(_ text: String) {
        let utf8 = text.utf8
        isBoundary = [Bool](repeating: false, count: utf8.count + 1)
        isBoundary[0] = true
        // ASCII: every offset is a boundary except inside CR LF (one grapheme).
        if utf8.allSatisfy({ $0 < 0x80 }) {
            var previous: UInt8 = 0
            for (offset, byte) in utf8.enumerated() {
                isBoundary[offset] = !(previous == 0x0D && byte == 0x0A)
                previous = byte
            }
        } else {
            var offset = 0
            for character in text {
                offset += character.utf8.count
                isBoundary[offset] = true
            }
        }
        isBoundary[utf8.count] = true
    }

    /// The last boundary at or before `offset` (in `0...count`).
    func floor(_ offset: Int) -> Int {
        var offset = offset
        while !isBoundary[offset] { offset -= 1 }
        return offset
    }

    /// The first boundary at or after `offset` (in `0...count`).
    func ceiling(_ offset: Int) -> Int {
        var offset = offset
        while !isBoundary[offset] { offset += 1 }
        return offset
    }
}
