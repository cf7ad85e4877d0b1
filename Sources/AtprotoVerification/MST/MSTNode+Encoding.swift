import AtprotoData

extension MSTNode {
    /// The node's canonical DAG-CBOR form, given the CIDs of its subtrees, written straight to bytes:
    /// `{"e": [{"k": bytes, "p": int, "t": link | null, "v": link}], "l": link | null}`, keys in
    /// DAG-CBOR's order (by length, then bytewise), each key after the first compressed against the
    /// one before it. The same bytes as DAGCBOR.encode of the data-model value (MSTInteropTests).
    func encoded(childCID: (MSTPointer) -> CID) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + entries.count * 80)
        out.append(0xA2)  // a map of two entries
        Self.fieldName(UInt8(ascii: "e"), into: &out)
        Self.head(4, UInt64(entries.count), into: &out)
        var previous: [UInt8] = []
        for entry in entries {
            let prefix = MSTKey.commonPrefixLength(previous, entry.key)
            out.append(0xA4)  // k, p, t, v
            Self.fieldName(UInt8(ascii: "k"), into: &out)
            Self.head(2, UInt64(entry.key.count - prefix), into: &out)
            entry.key.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[prefix...])) }
            Self.fieldName(UInt8(ascii: "p"), into: &out)
            Self.head(0, UInt64(prefix), into: &out)
            Self.fieldName(UInt8(ascii: "t"), into: &out)
            Self.link(entry.right.map(childCID), into: &out)
            Self.fieldName(UInt8(ascii: "v"), into: &out)
            Self.link(entry.value, into: &out)
            previous = entry.key
        }
        Self.fieldName(UInt8(ascii: "l"), into: &out)
        Self.link(left.map(childCID), into: &out)
        return out
    }

    /// A one-letter text key (a text string of length 1), written byte by byte: an array literal here
    /// would be allocated for every field of every entry.
    static func fieldName(_ letter: UInt8, into out: inout [UInt8]) {
        out.append(0x61)
        out.append(letter)
    }

    /// A CBOR head: major type `major` with `value` in its shortest form.
    static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24...0xFF:
            out.append(type | 24)
            out.append(UInt8(value))
        case 0x100...0xFFFF:
            out.append(type | 25)
            out.append(UInt8(value >> 8))
            out.append(UInt8(value & 0xFF))
        case 0x1_0000...0xFFFF_FFFF:
            out.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
        default:
            out.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
        }
    }

    /// A link (tag 42 over a byte string of 0x00 and the CID's bytes), or null.
    static func link(_ cid: CID?, into out: inout [UInt8]) {
        guard let cid else {
            out.append(0xF6)
            return
        }
        out.append(0xD8)
        out.append(0x2A)
        cid.withUnsafeBytes { bytes in
            head(2, UInt64(bytes.count + 1), into: &out)
            out.append(0)
            out.append(contentsOf: bytes)
        }
    }
}
