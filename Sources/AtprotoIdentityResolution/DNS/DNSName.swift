/// A domain name as a list of lower-cased labels: checked when it comes from the caller, compared
/// case-insensitively when it comes from an answer.
struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// The labels, ASCII letters lower-cased, without the empty root label.
    var labels: [[UInt8]]

    /// The longest name in text form, without a trailing dot (RFC 1035 allows 255 bytes on the wire).
    static let maximumTextLength = 253
    /// The longest label.
    static let maximumLabelLength = 63

    /// Labels taken from a message, lower-cased so that names compare case-insensitively.
    init(labels: [[UInt8]]) {
        self.labels = labels.map { $0.map(Self.lowercased) }
    }

    /// Checks and lower-cases a name given by the caller: `_atproto.Alice.example.com` or the same with
    /// one trailing dot. Labels are 1 to 63 bytes of letters, digits, `-` and `_`; the whole name is at
    /// most 253 bytes. Throws ``DNSError/Code/invalidName`` otherwise.
    init(validating text: String) throws(DNSError) {
        func invalid(_ reason: String) -> DNSError {
            DNSError(.invalidName, message: "invalid DNS name \"\(text)\": \(reason)")
        }
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw invalid("the name is empty") }
        guard bytes.count <= Self.maximumTextLength else {
            throw invalid("longer than \(Self.maximumTextLength) bytes")
        }
        var labels: [[UInt8]] = []
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw invalid("empty label") }
            guard label.count <= Self.maximumLabelLength else {
                throw invalid("a label is longer than \(Self.maximumLabelLength) bytes")
            }
            guard label.allSatisfy(Self.isAllowed) else {
                throw invalid("only letters, digits, '-' and '_' may appear in a label")
            }
            labels.append(label.map(Self.lowercased))
        }
        self.labels = labels
    }

    /// The name in text form, without a trailing dot; bytes other than printable ASCII as `\DDD`.
    var description: String {
        labels.map { label in
            label.map { byte in
                (0x21...0x7E).contains(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "\\")
                    ? String(UnicodeScalar(byte)) : "\\" + String(byte)
            }.joined()
        }.joined(separator: ".")
    }

    /// The name in wire form (RFC 1035 §3.1): each label behind its length, then the root's 0.
    var wireFormat: [UInt8] {
        var bytes: [UInt8] = []
        for label in labels {
            bytes.append(UInt8(label.count))
            bytes.append(contentsOf: label)
        }
        bytes.append(0)
        return bytes
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
