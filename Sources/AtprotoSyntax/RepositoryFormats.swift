// Repository path formats: `nsid`, `record-key` and `at-uri` (atproto.com/specs/nsid, /record-key, /at-uri).

extension NSID {
    /// `nsid`.
    public static var formatName: String { "nsid" }

    /// The longest NSID accepted, in bytes: a 253-byte domain authority, a dot and a 63-byte name. Only the
    /// total is checked, as the reference implementations and interop cases do.
    public static let maximumLength = 317

    /// Checks the atproto NSID syntax: three or more dot-separated segments; the domain segments (all but
    /// the last) are 1-63 ASCII letters, digits and inner hyphens, the first starting with a letter; the
    /// name (the last) is 1-63 letters and digits starting with a letter. 317 bytes at most.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { syntaxError(in: $0) }
    }

    static func syntaxError(in bytes: ByteScanner) -> String? {
        guard bytes.count <= maximumLength else { return "longer than \(maximumLength) bytes" }
        var segmentStart = 0
        var segment = 0
        while true {
            let end = bytes.firstIndex(of: FormatByte.dot, from: segmentStart)
            let isName = end == bytes.count
            guard end > segmentStart else { return "has an empty segment" }
            guard end - segmentStart <= 63 else { return "has a segment longer than 63 characters" }
            for index in segmentStart..<end {
                let byte = bytes[index]
                guard FormatByte.isAlphanumeric(byte) || (!isName && byte == FormatByte.hyphen) else {
                    let part = isName ? "the name segment" : "a domain segment"
                    return "\(FormatByte.describe(byte)) is not allowed in \(part)"
                }
            }
            if segment == 0 || isName, !FormatByte.isLetter(bytes[segmentStart]) {
                return isName
                    ? "the name segment must start with a letter" : "the first segment must start with a letter"
            }
            guard bytes[segmentStart] != FormatByte.hyphen, bytes[end - 1] != FormatByte.hyphen else {
                return "has a segment that starts or ends with \"-\""
            }
            if isName {
                guard segment >= 2 else { return "needs at least three segments" }
                return nil
            }
            segment += 1
            segmentStart = end + 1
        }
    }

    /// The domain authority: every segment but the last, in domain order (`feed.bsky.app` for
    /// `app.bsky.feed.post`). Empty when the value has no dot.
    public var authority: String {
        let segments = rawValue.utf8.split(separator: FormatByte.dot, omittingEmptySubsequences: false)
        return segments.dropLast().reversed().map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
    }

    /// The name: the last segment (`post` in `app.bsky.feed.post`), or the whole value when it has no dot.
    public var name: String {
        guard let dot = rawValue.utf8.lastIndex(of: FormatByte.dot) else { return rawValue }
        return String(decoding: rawValue.utf8[rawValue.utf8.index(after: dot)...], as: UTF8.self)
    }
}

extension RecordKey {
    /// `record-key`.
    public static var formatName: String { "record-key" }

    /// The longest record key accepted, in bytes.
    public static let maximumLength = 512

    /// Checks the atproto record key syntax: 1-512 ASCII letters, digits and `.`, `-`, `_`, `:`, `~`,
    /// other than `.` and `..`.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { syntaxError(in: $0) }
    }

    static func syntaxError(in bytes: ByteScanner) -> String? {
        guard bytes.count > 0 else { return "is empty" }
        guard bytes.count <= maximumLength else { return "longer than \(maximumLength) bytes" }
        if let (_, byte) = bytes.firstByte(failing: isKeyByte) {
            return "\(FormatByte.describe(byte)) is not allowed in a record key"
        }
        guard !bytes.equals("."), !bytes.equals("..") else { return "\".\" and \"..\" are not record keys" }
        return nil
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        FormatByte.isAlphanumeric(byte) || byte == FormatByte.dot || byte == FormatByte.hyphen
            || byte == FormatByte.underscore
            || byte == FormatByte.colon || byte == FormatByte.tilde
    }
}

extension ATURI {
    /// `at-uri`.
    public static var formatName: String { "at-uri" }

    /// The longest AT URI accepted, in bytes.
    public static let maximumLength = 8192

    /// Checks the restricted AT URI syntax lexicons use: `at://` and an authority (a DID or a handle),
    /// optionally `/` and a collection NSID, optionally `/` and a record key; no query, fragment or
    /// trailing slash; 8192 bytes at most.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { syntaxError(in: $0) }
    }

    static func syntaxError(in bytes: ByteScanner) -> String? {
        guard bytes.count <= maximumLength else { return "longer than \(maximumLength) bytes" }
        guard bytes.hasPrefix("at://") else { return "does not start with \"at://\"" }
        if bytes.firstByte(failing: { $0 != FormatByte.question && $0 != FormatByte.hash }) != nil {
            return "a query or fragment is not allowed"
        }
        let authorityEnd = bytes.firstIndex(of: FormatByte.slash, from: 5)
        if let reason = ATIdentifier.syntaxError(in: bytes.slice(5..<authorityEnd)) {
            return "the authority is \(reason)"
        }
        guard authorityEnd < bytes.count else { return nil }
        let collectionEnd = bytes.firstIndex(of: FormatByte.slash, from: authorityEnd + 1)
        if let reason = NSID.syntaxError(in: bytes.slice((authorityEnd + 1)..<collectionEnd)) {
            return "the collection is not a valid NSID: \(reason)"
        }
        guard collectionEnd < bytes.count else { return nil }
        let keyEnd = bytes.firstIndex(of: FormatByte.slash, from: collectionEnd + 1)
        if let reason = RecordKey.syntaxError(in: bytes.slice((collectionEnd + 1)..<keyEnd)) {
            return "the record key is not valid: \(reason)"
        }
        guard keyEnd == bytes.count else { return "has more than two path segments" }
        return nil
    }

    /// The URI `at://<authority>[/<collection>[/<rkey>]]`.
    public init(authority: ATIdentifier, collection: NSID? = nil) {
        var text = "at://" + authority.rawValue
        if let collection { text += "/" + collection.rawValue }
        self.init(rawValue: text)
    }

    /// The URI of a record: `at://<authority>/<collection>/<rkey>`.
    public init(authority: ATIdentifier, collection: NSID, rkey: RecordKey) {
        self.init(rawValue: "at://\(authority.rawValue)/\(collection.rawValue)/\(rkey.rawValue)")
    }

    /// The path segments after `at://`, up to any query or fragment (read leniently: any string has them).
    private var segments: [String] {
        var rest = rawValue.utf8[...]
        if rawValue.hasPrefix("at://") { rest = rest.dropFirst(5) }
        if let end = rest.firstIndex(where: { $0 == FormatByte.question || $0 == FormatByte.hash }) {
            rest = rest[..<end]
        }
        return rest.split(separator: FormatByte.slash, maxSplits: 3, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The repository: the DID or handle after `at://` (the text before the first `/`, `?` or `#`).
    public var authority: ATIdentifier { ATIdentifier(rawValue: segments.first ?? "") }

    /// The collection, the first path segment, when there is a non-empty one.
    public var collection: NSID? {
        let segments = segments
        guard segments.count > 1, !segments[1].isEmpty else { return nil }
        return NSID(rawValue: segments[1])
    }

    /// The record key, the second path segment, when there is a non-empty one.
    public var rkey: RecordKey? {
        let segments = segments
        guard segments.count > 2, !segments[2].isEmpty else { return nil }
        return RecordKey(rawValue: segments[2])
    }
}
