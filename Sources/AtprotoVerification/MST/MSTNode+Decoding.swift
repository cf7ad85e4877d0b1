import AtprotoData
import Foundation

extension MSTNode {
    /// The node read straight from its bytes when they are exactly the canonical form that
    /// ``encoded(childCID:)`` writes (shortest heads, keys `e`, `l` and `k`, `p`, `t`, `v` in order,
    /// links as tag 42 over `0x00` and a CIDv1, nothing after): the node the data-model path would
    /// read, without building a data-model value. `nil` for anything else, which the data-model path
    /// then reads, or refuses with its error.
    static func readCanonical(_ bytes: Data) -> MSTNode? {
        bytes.withUnsafeBytes { buffer in
            var reader = CanonicalReader(buffer: buffer)
            return reader.node()
        }
    }
}

/// A cursor over one node block that gives up (returns nil) at the first byte off the canonical form.
private struct CanonicalReader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    init(buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    mutating func node() -> MSTNode? {
        guard byte() == 0xA2, key(UInt8(ascii: "e")), let count = head(major: 4), count <= buffer.count else {
            return nil
        }
        var entries: [MSTNode.Entry] = []
        entries.reserveCapacity(count)
        var previous: [UInt8] = []
        for index in 0..<count {
            guard byte() == 0xA4, key(UInt8(ascii: "k")), let suffixLength = head(major: 2),
                suffixLength <= buffer.count - offset
            else { return nil }
            let suffixStart = offset
            offset += suffixLength
            guard key(UInt8(ascii: "p")), let prefix = head(major: 0), prefix <= previous.count,
                index > 0 || prefix == 0,
                prefix + suffixLength <= MSTKey.maximumLength
            else { return nil }
            var entryKey = [UInt8]()
            entryKey.reserveCapacity(prefix + suffixLength)
            entryKey.append(contentsOf: previous[..<prefix])
            entryKey.append(contentsOf: buffer[suffixStart..<suffixStart + suffixLength])
            guard key(UInt8(ascii: "t")), let right = link(), key(UInt8(ascii: "v")), case .some(let value?) = link()
            else { return nil }
            entries.append(MSTNode.Entry(key: entryKey, value: value, right: right.map { .stored($0) }))
            previous = entryKey
        }
        guard key(UInt8(ascii: "l")), let left = link(), offset == buffer.count else { return nil }
        return MSTNode(left: left.map { .stored($0) }, entries: entries)
    }

    /// The next byte, or 0xFF (never a valid start here) at the end.
    private mutating func byte() -> UInt8 {
        guard offset < buffer.count else { return 0xFF }
        defer { offset += 1 }
        return buffer[offset]
    }

    /// Whether a one-letter text key `letter` comes next.
    private mutating func key(_ letter: UInt8) -> Bool {
        byte() == 0x61 && byte() == letter
    }

    /// The argument of a head of `major` type in its shortest form, or nil.
    private mutating func head(major: UInt8) -> Int? {
        let initial = byte()
        guard initial >> 5 == major else { return nil }
        let info = initial & 0x1F
        switch info {
        case 0..<24: return Int(info)
        case 24:
            guard offset < buffer.count else { return nil }
            let value = buffer[offset]
            offset += 1
            return value >= 24 ? Int(value) : nil
        case 25:
            guard offset + 2 <= buffer.count else { return nil }
            let value = Int(buffer[offset]) << 8 | Int(buffer[offset + 1])
            offset += 2
            return value > 0xFF ? value : nil
        default: return nil  // longer than any node field can be
        }
    }

    /// A link: `.some(cid)`, `.some(nil)` for null, nil when neither.
    private mutating func link() -> ContentID?? {
        if offset < buffer.count, buffer[offset] == 0xF6 {
            offset += 1
            return .some(nil)
        }
        guard byte() == 0xD8, byte() == 0x2A, let length = head(major: 2), length > 1,
            length <= buffer.count - offset, buffer[offset] == 0
        else { return nil }
        let content = UnsafeRawBufferPointer(rebasing: buffer[offset + 1..<offset + length])
        offset += length
        guard let cid = try? ContentID(bytes: content), cid.version == 1 else { return nil }
        return .some(cid)
    }
}
