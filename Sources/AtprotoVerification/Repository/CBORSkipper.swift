/// Walks DAG-CBOR that has been decoded once already, reading only headers and lengths: where each
/// value ends, never what it holds. Every read is bounds-checked (nil or `false` past the end), but
/// nothing else is: the strict decoder has checked the rest.
struct CBORSkipper {
    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var remaining: UInt64 { UInt64(bytes.count - offset) }

    /// The major type and argument of the header at `offset`, moving past it; nil when the bytes end
    /// or the header is not a definite one.
    mutating func header() -> (major: UInt8, argument: UInt64)? {
        guard offset < bytes.count else { return nil }
        let initial = bytes[offset]
        offset += 1
        let info = initial & 0x1F
        let size: Int
        switch info {
        case 0..<24: return (initial >> 5, UInt64(info))
        case 24: size = 1
        case 25: size = 2
        case 26: size = 4
        case 27: size = 8
        default: return nil
        }
        guard bytes.count - offset >= size else { return nil }
        var argument: UInt64 = 0
        for index in 0..<size { argument = argument << 8 | UInt64(bytes[offset + index]) }
        offset += size
        return (initial >> 5, argument)
    }

    /// Moves past the value at `offset`, whatever it nests; `false` when the bytes end first.
    mutating func skipValue() -> Bool {
        var pending: UInt64 = 1
        while pending > 0 {
            pending -= 1
            guard let (major, argument) = header() else { return false }
            switch major {
            case 2, 3:
                guard argument <= remaining else { return false }
                offset += Int(argument)
            case 4:
                guard argument <= remaining else { return false }
                pending += argument
            case 5:
                guard argument <= remaining / 2 else { return false }
                pending += 2 * argument
            case 6: pending += 1
            default: break  // integers and simple values: the header is all
            }
        }
        return true
    }

    /// Appends the shortest header of major type `major` and argument `argument`.
    static func appendHeader(major: UInt8, _ argument: UInt64, to bytes: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: bytes.append(type | UInt8(argument))
        case 24...0xFF: bytes.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF:
            bytes.append(contentsOf: [type | 25, UInt8(argument >> 8), UInt8(truncatingIfNeeded: argument)])
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: argument >> shift))
            }
        default:
            bytes.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: argument >> shift))
            }
        }
    }
}
