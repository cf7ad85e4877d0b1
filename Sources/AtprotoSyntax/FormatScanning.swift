/// Byte classes and helpers shared by the string format scanners. All work on UTF-8 bytes; every format
/// but `uri` is ASCII-only, so any byte of a multi-byte character simply fails the class checks.
enum FormatByte {
    static let hyphen = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let slash = UInt8(ascii: "/")
    static let percent = UInt8(ascii: "%")
    static let underscore = UInt8(ascii: "_")
    static let tilde = UInt8(ascii: "~")
    static let plus = UInt8(ascii: "+")
    static let equals = UInt8(ascii: "=")
    static let hash = UInt8(ascii: "#")
    static let question = UInt8(ascii: "?")

    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    static func isLower(_ byte: UInt8) -> Bool { byte &- 0x61 < 26 }
    static func isUpper(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }
    static func isLetter(_ byte: UInt8) -> Bool { isLower(byte | 0x20) }
    static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- 0x61 < 6 }

    /// The byte with `A`-`Z` mapped to `a`-`z`.
    static func lowercased(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }

    /// The byte as a person reads it in an error message.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x21...0x7E: return "\"\(Character(Unicode.Scalar(byte)))\""
        case 0x20: return "space"
        case 0x80...: return "non-ASCII character"
        default: return "control character 0x\(String(byte, radix: 16))"
        }
    }

    /// `string` with ASCII letters lowercased and everything else kept.
    static func lowercased(_ string: String) -> String {
        guard string.utf8.contains(where: isUpper) else { return string }
        return String(decoding: string.utf8.map(lowercased), as: UTF8.self)
    }
}

/// A view of some UTF-8 bytes with the checks the scanners share. It does not own the bytes: it lives only
/// inside ``withBytes(of:_:)``.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }

    subscript(index: Int) -> UInt8 { bytes[index] }

    /// The byte at `index`, or `nil` past the end.
    func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The bytes in `range` as their own scanner.
    func slice(_ range: Range<Int>) -> ByteScanner {
        ByteScanner(bytes: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Whether the bytes start with the ASCII `prefix`.
    func hasPrefix(_ prefix: StaticString) -> Bool {
        guard prefix.utf8CodeUnitCount <= bytes.count else { return false }
        let start = prefix.utf8Start
        for index in 0..<prefix.utf8CodeUnitCount where bytes[index] != start[index] { return false }
        return true
    }

    /// Whether the bytes are exactly the ASCII `text`.
    func equals(_ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && hasPrefix(text)
    }

    /// The index of the first `byte` at or after `start`, or `count`.
    func firstIndex(of byte: UInt8, from start: Int = 0) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != byte { index += 1 }
        return index
    }

    /// The first byte (with its index) that fails `allowed`, if any.
    func firstByte(failing allowed: (UInt8) -> Bool) -> (index: Int, byte: UInt8)? {
        for index in 0..<bytes.count where !allowed(bytes[index]) { return (index, bytes[index]) }
        return nil
    }

    /// The number made of the `length` ASCII digits at `start`, or `nil` when any is not a digit.
    func decimal(at start: Int, length: Int) -> Int? {
        guard start + length <= bytes.count else { return nil }
        var value = 0
        for index in start..<(start + length) {
            let byte = bytes[index]
            guard FormatByte.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return value
    }

    /// The bytes as a string (for parts of a value).
    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// Runs `body` over the UTF-8 bytes of `string`; a native string is not copied.
func withBytes<Result>(of string: String, _ body: (ByteScanner) -> Result) -> Result {
    var copy = string
    return copy.withUTF8 { body(ByteScanner(bytes: $0)) }
}
