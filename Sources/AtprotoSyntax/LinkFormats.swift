// Link formats: `cid` (checked at the string level: a multibase string) and `uri` (RFC 3986 shape).

extension CIDString {
    /// `cid`.
    public static var formatName: String { "cid" }

    /// Checks a CID string at the syntax level, without decoding it: 8-256 characters, a multibase prefix
    /// the protocol can meet (`b`, `B`, `c`, `C`, `v`, `V`, `t`, `T`, `h`, `f`, `F`, `k`, `K`, `z`, `Z`, `m`,
    /// `M`, `u`, `U`, `0`, `7`, `9`), then only characters of that base (padding `=` only at the end of the
    /// padded bases). CIDv0 (`Qm...`, base58 without prefix) is not supported.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { bytes in
            guard bytes.count >= 8 else { return "shorter than 8 characters" }
            guard bytes.count <= 256 else { return "longer than 256 characters" }
            if bytes.hasPrefix("Qm") { return "CIDv0 (\"Qm...\") is not supported" }
            guard let base = Multibase(prefix: bytes[0]) else {
                return "\(FormatByte.describe(bytes[0])) is not a known multibase prefix"
            }
            var index = 1
            while index < bytes.count, base.contains(bytes[index]) { index += 1 }
            if base.isPadded {
                while index < bytes.count, bytes[index] == FormatByte.equals { index += 1 }
            }
            guard index == bytes.count else {
                return "\(FormatByte.describe(bytes[index])) is not a character of the \(base) multibase encoding"
            }
            return nil
        }
    }
}

/// The multibase encodings a CID string may use, named by their prefix character.
private enum Multibase: CustomStringConvertible {
    case base2, base8, base10
    case base16(upper: Bool)
    case base32(upper: Bool, padded: Bool)
    case base32hex(upper: Bool, padded: Bool)
    case base32z
    case base36(upper: Bool)
    case base58
    case base64(url: Bool, padded: Bool)

    init?(prefix: UInt8) {
        switch Character(Unicode.Scalar(prefix)) {
        case "0": self = .base2
        case "7": self = .base8
        case "9": self = .base10
        case "f", "F": self = .base16(upper: prefix == UInt8(ascii: "F"))
        case "b", "B", "c", "C":
            self = .base32(
                upper: FormatByte.isUpper(prefix), padded: FormatByte.lowercased(prefix) == UInt8(ascii: "c"))
        case "v", "V", "t", "T":
            self = .base32hex(
                upper: FormatByte.isUpper(prefix), padded: FormatByte.lowercased(prefix) == UInt8(ascii: "t"))
        case "h": self = .base32z
        case "k", "K": self = .base36(upper: prefix == UInt8(ascii: "K"))
        case "z", "Z": self = .base58
        case "m", "M", "u", "U":
            self = .base64(url: FormatByte.lowercased(prefix) == UInt8(ascii: "u"), padded: FormatByte.isUpper(prefix))
        default: return nil
        }
    }

    var isPadded: Bool {
        switch self {
        case .base32(_, let padded), .base32hex(_, let padded), .base64(_, let padded): return padded
        default: return false
        }
    }

    /// Whether `byte` is a digit of this encoding.
    func contains(_ byte: UInt8) -> Bool {
        switch self {
        case .base2: return byte &- 0x30 < 2
        case .base8: return byte &- 0x30 < 8
        case .base10: return FormatByte.isDigit(byte)
        case .base16(let upper): return FormatByte.isDigit(byte) || byte &- (upper ? 0x41 : 0x61) < 6
        case .base32(let upper, _): return byte &- 0x32 < 6 || byte &- (upper ? 0x41 : 0x61) < 26
        case .base32hex(let upper, _): return FormatByte.isDigit(byte) || byte &- (upper ? 0x41 : 0x61) < 22
        case .base32z: return "ybndrfg8ejkmcpqxot1uwisza345h769".utf8.contains(byte)
        case .base36(let upper): return FormatByte.isDigit(byte) || byte &- (upper ? 0x41 : 0x61) < 26
        case .base58:
            return FormatByte.isAlphanumeric(byte) && byte != UInt8(ascii: "0") && byte != UInt8(ascii: "O")
                && byte != UInt8(ascii: "I") && byte != UInt8(ascii: "l")
        case .base64(let url, _):
            let extra = url ? (FormatByte.hyphen, FormatByte.underscore) : (FormatByte.plus, FormatByte.slash)
            return FormatByte.isAlphanumeric(byte) || byte == extra.0 || byte == extra.1
        }
    }

    var description: String {
        switch self {
        case .base2: return "base2"
        case .base8: return "base8"
        case .base10: return "base10"
        case .base16: return "base16"
        case .base32: return "base32"
        case .base32hex: return "base32hex"
        case .base32z: return "base32z"
        case .base36: return "base36"
        case .base58: return "base58"
        case .base64(let url, _): return url ? "base64url" : "base64"
        }
    }
}

extension URIString {
    /// `uri`.
    public static var formatName: String { "uri" }

    /// The longest URI accepted, in bytes.
    public static let maximumLength = 8192

    /// Checks the generic URI shape: a scheme (a letter, then letters, digits, `+`, `-`, `.`), `:`, then at
    /// least one character, with no whitespace or control characters anywhere; 8192 bytes at most.
    /// Non-ASCII characters are accepted (as the reference implementation does for IRIs in records).
    public static func syntaxError(in value: String) -> String? {
        let reason: String? = withBytes(of: value) { bytes in
            guard bytes.count <= maximumLength else { return "longer than \(maximumLength) bytes" }
            let colon = bytes.firstIndex(of: FormatByte.colon)
            guard colon < bytes.count else { return "has no scheme (no \":\")" }
            guard colon > 0, FormatByte.isLetter(bytes[0]) else { return "the scheme must start with a letter" }
            for index in 1..<colon {
                let byte = bytes[index]
                guard
                    FormatByte.isAlphanumeric(byte) || byte == FormatByte.plus || byte == FormatByte.hyphen
                        || byte == FormatByte.dot
                else { return "\(FormatByte.describe(byte)) is not allowed in the scheme" }
            }
            guard colon + 1 < bytes.count else { return "nothing follows the scheme" }
            for index in (colon + 1)..<bytes.count where bytes[index] <= 0x20 || bytes[index] == 0x7F {
                return "\(FormatByte.describe(bytes[index])) is not allowed in a URI"
            }
            return nil
        }
        if reason != nil || value.utf8.allSatisfy({ $0 < 0x80 }) { return reason }
        for scalar in value.unicodeScalars
        where scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
            return "the whitespace or control character U+\(String(scalar.value, radix: 16, uppercase: true)) "
                + "is not allowed in a URI"
        }
        return nil
    }
}
