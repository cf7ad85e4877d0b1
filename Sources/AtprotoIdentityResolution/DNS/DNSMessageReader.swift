/// Why a message could not be read; becomes ``DNSError/Code/malformedResponse``.
struct DNSMalformedMessage: Error, Sendable {
    /// What was wrong, for the error message.
    var reason: String
}

/// Reads a DNS message front to back with a bounds check on every read, and decodes names with their
/// compression pointers (RFC 1035 §4.1.4) so that no hostile message can loop or read out of bounds.
struct DNSMessageReader {
    /// The whole message: compression pointers are offsets into it.
    let bytes: [UInt8]
    /// Where the next read starts.
    var offset: Int

    /// A reader at `offset` of `bytes`.
    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The bytes left after `offset`.
    var remaining: Int { max(0, bytes.count - offset) }

    /// The byte at `position`, or a failure naming `what` when the message ends before it.
    func byte(at position: Int, _ what: String) throws(DNSMalformedMessage) -> UInt8 {
        guard position >= 0, position < bytes.count else {
            throw DNSMalformedMessage(reason: "the message ends inside \(what) (\(bytes.count) bytes)")
        }
        return bytes[position]
    }

    /// Reads one byte.
    mutating func readUInt8(_ what: String) throws(DNSMalformedMessage) -> UInt8 {
        let value = try byte(at: offset, what)
        offset += 1
        return value
    }

    /// Reads a big-endian 16-bit value.
    mutating func readUInt16(_ what: String) throws(DNSMalformedMessage) -> UInt16 {
        let high = try byte(at: offset, what)
        let low = try byte(at: offset + 1, what)
        offset += 2
        return UInt16(high) << 8 | UInt16(low)
    }

    /// Reads a big-endian 32-bit value.
    mutating func readUInt32(_ what: String) throws(DNSMalformedMessage) -> UInt32 {
        let high = try readUInt16(what)
        let low = try readUInt16(what)
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Reads `count` bytes.
    mutating func readBytes(_ count: Int, _ what: String) throws(DNSMalformedMessage) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw DNSMalformedMessage(
                reason: "\(what) claims \(count) bytes but only \(remaining) remain of \(bytes.count)")
        }
        let slice = bytes[offset..<offset + count]
        offset += count
        return slice
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int, _ what: String) throws(DNSMalformedMessage) {
        _ = try readBytes(count, what)
    }

    /// Reads a name, following compression pointers.
    ///
    /// Every pointer must point before the start of the labels that led to it, so each jump goes
    /// strictly backwards and the walk ends; the decoded name may not exceed 255 bytes in wire form.
    /// Labels of the reserved types (`01`, `10` in the top bits) are refused.
    mutating func readName(_ what: String) throws(DNSMalformedMessage) -> DNSName {
        var labels: [[UInt8]] = []
        var position = offset
        var segmentStart = offset
        var resumeAt: Int?
        var wireLength = 1  // the root label
        while true {
            let length = try byte(at: position, what)
            switch length & 0xC0 {
            case 0x00:
                if length == 0 {
                    offset = resumeAt ?? position + 1
                    return DNSName(labels: labels)
                }
                let start = position + 1
                let end = start + Int(length)
                guard end <= bytes.count else {
                    throw DNSMalformedMessage(reason: "a label of \(what) runs past the end of the message")
                }
                wireLength += Int(length) + 1
                guard wireLength <= 255 else {
                    throw DNSMalformedMessage(reason: "\(what) is longer than 255 bytes")
                }
                labels.append(Array(bytes[start..<end]))
                position = end
            case 0xC0:
                let low = try byte(at: position + 1, what)
                let target = Int(length & 0x3F) << 8 | Int(low)
                guard target < segmentStart else {
                    throw DNSMalformedMessage(
                        reason: "a compression pointer in \(what) points forward or loops (to \(target))")
                }
                if resumeAt == nil { resumeAt = position + 2 }
                position = target
                segmentStart = target
            default:
                let bits = String(length >> 6, radix: 2)
                throw DNSMalformedMessage(reason: "\(what) has a label of the reserved type \(bits)")
            }
        }
    }
}
