/// The syntax of an NSID (`app.bsky.feed.post`), per the atproto NSID spec.
enum NSIDSyntax {
    /// Whether `text` is a valid NSID: at least three segments, domain segments of letters, digits and
    /// inner hyphens, a name segment of letters and digits starting with a letter, 317 characters at most.
    static func isValid(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count <= 317, utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        let segments = utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count >= 3 else { return false }
        for (index, segment) in segments.enumerated() {
            guard !segment.isEmpty, segment.count <= 63 else { return false }
            let isName = index == segments.count - 1
            for byte in segment {
                let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                let isDigit = (0x30...0x39).contains(byte)
                let allowed = isLetter || isDigit || (!isName && byte == UInt8(ascii: "-"))
                guard allowed else { return false }
            }
            if index == 0 || isName {
                guard let first = segment.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
                else { return false }
            }
            if segment.first == UInt8(ascii: "-") || segment.last == UInt8(ascii: "-") { return false }
        }
        return true
    }
}
