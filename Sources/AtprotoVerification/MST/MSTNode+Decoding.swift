import AtprotoData
import Foundation

extension MSTNode {
    /// The node read straight from its bytes when they are exactly the canonical form that
    /// ``encoded(childCID:)`` writes (shortest heads, keys `e`, `l` and `k`, `p`, `t`, `v` in order,
    /// links as tag 42 over `0x00` and a CIDv1, nothing after): the node the data-model path would
    /// read, without building a data-model value. `nil` for anything else, which the data-model path
    /// then reads, or refuses with its error.
    static func readCanonical(_ bytes: Data) -> MSTNode? {
        bytes.withUnsafeBytes { buffer -> MSTNode? in
            var layout = CanonicalNodeLayout()
            guard layout.read(buffer, 0..<buffer.count), let base = buffer.baseAddress else { return nil }
            var entries: [MSTNode.Entry] = []
            entries.reserveCapacity(layout.entries.count)
            var previous: [UInt8] = []
            for entry in layout.entries {
                var key = [UInt8]()
                key.reserveCapacity(entry.prefix + entry.suffix.count)
                key.append(contentsOf: previous[..<entry.prefix])
                // Typed, so that the append is one copy rather than a loop over a raw slice.
                key.append(
                    contentsOf: UnsafeBufferPointer(
                        start: base.assumingMemoryBound(to: UInt8.self) + entry.suffix.lowerBound,
                        count: entry.suffix.count))
                guard let value = Self.cid(buffer, entry.value) else { return nil }
                var right: MSTPointer?
                if let range = entry.right {
                    guard let cid = Self.cid(buffer, range) else { return nil }
                    right = .stored(cid)
                }
                entries.append(MSTNode.Entry(key: key, value: value, right: right))
                previous = key
            }
            var left: MSTPointer?
            if let range = layout.left {
                guard let cid = Self.cid(buffer, range) else { return nil }
                left = .stored(cid)
            }
            return MSTNode(left: left, entries: entries)
        }
    }

    /// The CIDv1 whose bytes are `range` of `buffer`, or nil.
    private static func cid(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> CID? {
        guard let cid = try? CID(bytes: UnsafeRawBufferPointer(rebasing: buffer[range])), cid.version == 1 else {
            return nil
        }
        return cid
    }
}

/// Where the parts of one node block in the canonical form lie in its bytes, read without building
/// keys or CIDs: each entry's key prefix length and the ranges of its key suffix and CIDs (the bytes
/// after a link's `0x00`). Reading again reuses the storage of the entries.
struct CanonicalNodeLayout {
    struct Entry {
        var prefix: Int
        var suffix: Range<Int>
        var right: Range<Int>?
        var value: Range<Int>
        /// Where the entry's map starts, where its `t` field starts, and where the entry ends.
        var start = 0
        var fieldT = 0
        var end = 0
    }

    var entries: [Entry] = []
    var left: Range<Int>?
    /// Where the first entry starts (just after the array's head), and where the `l` field starts.
    var entriesStart = 0
    var fieldL = 0

    /// Reads the node in `range` of `buffer`; false at the first byte off the canonical form (and
    /// for a key prefix longer than the previous key, a prefix on the first entry, a key over
    /// ``MSTKey/maximumLength``, or a null value).
    mutating func read(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        entries.removeAll(keepingCapacity: true)
        left = nil
        var reader = CanonicalReader(buffer: buffer, offset: range.lowerBound, end: range.upperBound)
        guard reader.byte() == 0xA2, reader.key(UInt8(ascii: "e")), let count = reader.head(major: 4),
            count <= range.count
        else { return false }
        entriesStart = reader.offset
        // Each entry takes more than 40 bytes, so `count` is bounded by the input.
        entries.reserveCapacity(min(count, range.count / 40))
        var previousLength = 0
        for index in 0..<count {
            let start = reader.offset
            guard reader.byte() == 0xA4, reader.key(UInt8(ascii: "k")), let suffixLength = reader.head(major: 2),
                suffixLength <= reader.end - reader.offset
            else { return false }
            let suffix = reader.offset..<reader.offset + suffixLength
            reader.offset += suffixLength
            guard reader.key(UInt8(ascii: "p")), let prefix = reader.head(major: 0), prefix <= previousLength,
                index > 0 || prefix == 0, prefix + suffixLength <= MSTKey.maximumLength
            else { return false }
            let fieldT = reader.offset
            guard reader.key(UInt8(ascii: "t")), case .some(let right) = reader.link(),
                reader.key(UInt8(ascii: "v")), case .some(let value?) = reader.link()
            else { return false }
            entries.append(
                Entry(
                    prefix: prefix, suffix: suffix, right: right, value: value, start: start, fieldT: fieldT,
                    end: reader.offset))
            previousLength = prefix + suffixLength
        }
        fieldL = reader.offset
        guard reader.key(UInt8(ascii: "l")), case .some(let left) = reader.link(), reader.offset == reader.end else {
            return false
        }
        self.left = left
        return true
    }
}

/// A cursor over one node block that gives up (returns nil) at the first byte off the canonical form.
private struct CanonicalReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int
    let end: Int

    /// The next byte, or 0xFF (never a valid start here) at the end.
    mutating func byte() -> UInt8 {
        guard offset < end else { return 0xFF }
        defer { offset += 1 }
        return buffer[offset]
    }

    /// Whether a one-letter text key `letter` comes next.
    mutating func key(_ letter: UInt8) -> Bool {
        byte() == 0x61 && byte() == letter
    }

    /// The argument of a head of `major` type in its shortest form, or nil.
    mutating func head(major: UInt8) -> Int? {
        let initial = byte()
        guard initial >> 5 == major else { return nil }
        let info = initial & 0x1F
        switch info {
        case 0..<24: return Int(info)
        case 24:
            guard offset < end else { return nil }
            let value = buffer[offset]
            offset += 1
            return value >= 24 ? Int(value) : nil
        case 25:
            guard offset + 2 <= end else { return nil }
            let value = Int(buffer[offset]) << 8 | Int(buffer[offset + 1])
            offset += 2
            return value > 0xFF ? value : nil
        default: return nil  // longer than any node field can be
        }
    }

    /// A link: `.some(range)` of its CID bytes, `.some(nil)` for null, nil when neither.
    mutating func link() -> Range<Int>?? {
        if offset < end, buffer[offset] == 0xF6 {
            offset += 1
            return .some(nil)
        }
        guard byte() == 0xD8, byte() == 0x2A, let length = head(major: 2), length > 1,
            length <= end - offset, buffer[offset] == 0
        else { return nil }
        defer { offset += length }
        return .some(offset + 1..<offset + length)
    }
}
