import AppBskyLexicons
import ComAtprotoLexicons

extension RichText {
    /// Inserts `string` at UTF-8 offset `offset` and moves the facets along, as the official client
    /// does: a facet that starts at or after the offset moves by the inserted length; one the offset
    /// falls inside grows; one that ends at or before it stays.
    ///
    /// An offset outside the text is taken as its start or end; one inside a UTF-8 sequence as the
    /// start of that character.
    public mutating func insert(_ string: String, atByte offset: Int) {
        let offset = scalarBoundary(atOrBefore: offset)
        let added = string.utf8.count
        guard added > 0 else { return }
        text.unicodeScalars.insert(contentsOf: string.unicodeScalars, at: utf8Index(offset))
        for index in facets.indices {
            let (start, end) = (facets[index].index.byteStart, facets[index].index.byteEnd)
            // Saturating: a facet from the network may hold any integer.
            if offset <= start {
                setRange(of: index, start.saturatingAdd(added), end.saturatingAdd(added))
            } else if offset < end {
                setRange(of: index, start, end.saturatingAdd(added))
            }
        }
    }

    /// Inserts `string` at `index`, an index of ``text``.
    public mutating func insert(_ string: String, at index: String.Index) {
        insert(string, atByte: text.utf8.distance(from: text.startIndex, to: index))
    }

    /// Deletes the UTF-8 bytes `range` and moves the facets along, as the official client does: a
    /// facet inside the deleted text goes; one that overlaps it shrinks to what is left; one after
    /// it moves back. A facet left empty goes.
    ///
    /// The range is cut to the text, and its ends taken to the start of the characters they fall in.
    public mutating func deleteBytes(in range: Range<Int>) {
        let start = scalarBoundary(atOrBefore: range.lowerBound)
        let end = max(start, scalarBoundary(atOrBefore: range.upperBound))
        guard end > start else { return }
        text.unicodeScalars.removeSubrange(utf8Index(start)..<utf8Index(end))
        let removed = end - start
        func moved(_ offset: Int) -> Int { offset < start ? offset : (offset >= end ? offset - removed : start) }
        for index in facets.indices {
            setRange(of: index, moved(facets[index].index.byteStart), moved(facets[index].index.byteEnd))
        }
        facets.removeAll { $0.index.byteStart >= $0.index.byteEnd }
    }

    /// Deletes `range`, a range of indices of ``text``.
    public mutating func delete(_ range: Range<String.Index>) {
        let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
        deleteBytes(in: start..<(start + text.utf8.distance(from: range.lowerBound, to: range.upperBound)))
    }

    /// Replaces the UTF-8 bytes `range` with `string`: a delete, then an insert at its start.
    public mutating func replaceBytes(in range: Range<Int>, with string: String) {
        deleteBytes(in: range)
        insert(string, atByte: range.lowerBound)
    }

    // MARK: Offsets

    /// `offset` cut to `0...utf8Count` and moved back to the start of the scalar it falls in.
    func scalarBoundary(atOrBefore offset: Int) -> Int {
        let utf8 = text.utf8
        var offset = max(0, min(offset, utf8.count))
        var index = utf8.index(utf8.startIndex, offsetBy: offset)
        while offset > 0, index < utf8.endIndex, utf8[index] & 0xC0 == 0x80 {
            offset -= 1
            index = utf8.index(before: index)
        }
        return offset
    }

    func utf8Index(_ offset: Int) -> String.Index { text.utf8.index(text.utf8.startIndex, offsetBy: offset) }

    mutating func setRange(of facet: Int, _ start: Int, _ end: Int) {
        let unknown = facets[facet].index.unknownFields
        facets[facet].index = .init(byteStart: start, byteEnd: end, unknownFields: unknown)
    }
}

extension Int {
    func saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
