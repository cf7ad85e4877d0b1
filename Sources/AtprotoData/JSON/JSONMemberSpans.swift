/// Where one member of an object being read lies in the text.
struct JSONMemberSpan {
    /// The key's first eight bytes as read (the rest zero for a shorter key), the first in the low
    /// byte: most keys compare as one word.
    var keyPrefix: UInt64
    /// The first byte of the key, after its opening quote.
    var keyStart: Int
    /// The first byte of the value.
    var valueStart: Int
    /// Where the value ends, once it has been skipped (or read and left unread), else -1.
    var valueEnd: Int
    /// The key's length in bytes as read.
    var keyLength: Int32
    /// Whether the key holds escapes: then ``keyPrefix`` and ``keyLength`` are the decoded key's, and
    /// the key itself is in ``JSONTokenReader/escapedKeys``.
    var keyIsEscaped: Bool
    /// Whether a typed reader has taken the member; the others are the object's unknown fields.
    var isRead: Bool
}

/// A key a typed reader asks for, with its first bytes as one word.
struct JSONMemberKey {
    let string: String
    let length: Int
    let prefix: UInt64

    @inline(__always) init(_ string: String) {
        self.string = string
        // No memcpy: for keys this short the call costs more than the copy (it was 5 % of a decode).
        let computed = string.utf8.withContiguousStorageIfAvailable { bytes -> (Int, UInt64) in
            let count = bytes.count
            guard let base = bytes.baseAddress else { return (0, 0) }
            if count >= 8 {
                return (count, UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)))
            }
            var prefix: UInt64 = 0
            var offset = 0
            while offset < count {
                prefix |= UInt64(base[offset]) &<< (8 &* UInt64(offset))
                offset &+= 1
            }
            return (count, prefix)
        }
        if let (length, prefix) = computed {
            self.length = length
            self.prefix = prefix
            return
        }
        var length = 0
        var prefix: UInt64 = 0
        for byte in string.utf8 {
            if length < 8 { prefix |= UInt64(byte) << (8 * UInt64(length)) }
            length += 1
        }
        self.length = length
        self.prefix = prefix
    }

    /// The key's bit in ``JSONObjectFrame/unreadKeys``.
    var bit: UInt64 { JSONMemberKey.bit(prefix: prefix, length: length) }

    @inline(__always) static func bit(prefix: UInt64, length: Int) -> UInt64 {
        1 &<< ((prefix ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15 &>> 58)
    }
}

/// An object a typed reader has open.
struct JSONObjectFrame {
    /// Where its members start in ``JSONTokenReader/spans``.
    var memberBase: Int
    /// Members seen (and skipped) but not read.
    var unreadCount = 0
    /// A bit for each key among them: a key whose bit is clear is not among them, and is looked for in
    /// the text without going through them.
    var unreadKeys: UInt64 = 0
    /// Whether its closing brace has been read.
    var isEnded = false
    /// Whether its unknown members have been collected (or checked and dropped).
    var isFinished = false
    /// Where the text resumes after a member read out of order, or -1.
    var resume = -1
    /// The member being read out of order.
    var resumeSlot = 0
}
