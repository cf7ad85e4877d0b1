extension UInt8 {
    /// Whether this byte is an unreserved URI character (RFC 3986, section 2.3): an ASCII letter or
    /// digit, `-`, `.`, `_` or `~`. Query values keep these as they are, and a PKCE verifier is made
    /// of them alone.
    package var isUnreservedURICharacter: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
