// Identity formats: `did`, `handle` and `at-identifier` (atproto.com/specs/did, /handle, /lexicon).

extension DID {
    /// `did`.
    public static var formatName: String { "did" }

    /// The longest DID accepted, in bytes (the atproto DID spec limits DIDs to 2 KB).
    public static let maximumLength = 2048

    /// Checks the atproto DID syntax: `did:`, a method of lowercase letters, `:`, then an identifier of
    /// letters, digits, `.`, `_`, `-`, `:` and `%XX` escapes that does not end with `:`; 2048 bytes at most.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { syntaxError(in: $0) }
    }

    static func syntaxError(in bytes: ByteScanner) -> String? {
        guard bytes.count <= maximumLength else { return "longer than \(maximumLength) bytes" }
        guard bytes.hasPrefix("did:") else { return "does not start with \"did:\"" }
        var index = 4
        while index < bytes.count, FormatByte.isLower(bytes[index]) { index += 1 }
        guard index > 4, bytes.byte(at: index) == FormatByte.colon else {
            return "the method must be lowercase letters followed by \":\""
        }
        index += 1
        guard index < bytes.count else { return "the method-specific identifier is empty" }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == FormatByte.percent {
                guard let first = bytes.byte(at: index + 1), let second = bytes.byte(at: index + 2),
                    FormatByte.isHexDigit(first), FormatByte.isHexDigit(second)
                else { return "\"%\" must be followed by two hexadecimal digits" }
                index += 3
                continue
            }
            guard isIdentifierByte(byte) else {
                return "\(FormatByte.describe(byte)) is not allowed in the method-specific identifier"
            }
            index += 1
        }
        guard bytes[bytes.count - 1] != FormatByte.colon else { return "ends with \":\"" }
        return nil
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        FormatByte.isAlphanumeric(byte) || byte == FormatByte.dot || byte == FormatByte.underscore
            || byte == FormatByte.hyphen
            || byte == FormatByte.colon
    }

    /// The DID method (`plc` in `did:plc:abc`), or `nil` when the value does not start with
    /// `did:<method>:`.
    public var method: String? {
        guard rawValue.hasPrefix("did:") else { return nil }
        let rest = rawValue.utf8.dropFirst(4)
        guard let colon = rest.firstIndex(of: FormatByte.colon), colon != rest.startIndex else { return nil }
        return String(decoding: rest[..<colon], as: UTF8.self)
    }

    /// Everything after `did:<method>:` (`abc` in `did:plc:abc`), or `nil` when there is no method.
    public var methodSpecificIdentifier: String? {
        guard let method else { return nil }
        return String(decoding: rawValue.utf8.dropFirst(5 + method.utf8.count), as: UTF8.self)
    }
}

extension ATHandle {
    /// `handle`.
    public static var formatName: String { "handle" }

    /// The longest handle accepted, in bytes.
    public static let maximumLength = 253

    /// The handle servers show for an account whose handle does not resolve.
    public static let invalid = ATHandle(rawValue: "handle.invalid")

    /// Checks the atproto handle syntax: two or more dot-separated labels of 1-63 ASCII letters, digits and
    /// inner hyphens, the last starting with a letter; 253 bytes at most.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { syntaxError(in: $0) }
    }

    static func syntaxError(in bytes: ByteScanner) -> String? {
        guard !bytes.bytes.isEmpty else { return "is empty" }
        guard bytes.count <= maximumLength else { return "longer than \(maximumLength) bytes" }
        var labelStart = 0
        var labels = 0
        while true {
            var end = labelStart
            while end < bytes.count, bytes[end] != FormatByte.dot {
                let byte = bytes[end]
                guard FormatByte.isAlphanumeric(byte) || byte == FormatByte.hyphen else {
                    return "\(FormatByte.describe(byte)) is not allowed in a handle"
                }
                end += 1
            }
            guard end > labelStart else { return "has an empty label" }
            guard end - labelStart <= 63 else { return "has a label longer than 63 characters" }
            guard bytes[labelStart] != FormatByte.hyphen, bytes[end - 1] != FormatByte.hyphen else {
                return "has a label that starts or ends with \"-\""
            }
            labels += 1
            if end == bytes.count {
                guard labels >= 2 else { return "needs at least two labels (a domain name)" }
                guard FormatByte.isLetter(bytes[labelStart]) else { return "the last label must start with a letter" }
                return nil
            }
            labelStart = end + 1
        }
    }

    /// The handle with ASCII letters lowercased: handles compare case-insensitively.
    public var normalized: ATHandle { ATHandle(rawValue: FormatByte.lowercased(rawValue)) }

    /// Whether both handles name the same account: equal when compared without regard to ASCII case.
    public func isEquivalent(to other: ATHandle) -> Bool {
        let lhs = rawValue.utf8
        let rhs = other.rawValue.utf8
        return lhs.count == rhs.count
            && zip(lhs, rhs).allSatisfy { FormatByte.lowercased($0) == FormatByte.lowercased($1) }
    }
}

extension ATIdentifier {
    /// `at-identifier`.
    public static var formatName: String { "at-identifier" }

    /// Checks that the value is a valid DID (when it starts with `did:`) or a valid handle.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { syntaxError(in: $0) }
    }

    static func syntaxError(in bytes: ByteScanner) -> String? {
        if bytes.hasPrefix("did:") {
            return DID.syntaxError(in: bytes).map { "not a valid DID: \($0)" }
        }
        return ATHandle.syntaxError(in: bytes).map { "not a DID, nor a valid handle: \($0)" }
    }

    /// An identifier holding `did`.
    public init(_ did: DID) { self.init(rawValue: did.rawValue) }

    /// An identifier holding `handle`.
    public init(_ handle: ATHandle) { self.init(rawValue: handle.rawValue) }

    /// Whether the value is a DID (starts with `did:`) rather than a handle.
    public var isDID: Bool { rawValue.hasPrefix("did:") }

    /// The value as a DID when it starts with `did:`.
    public var did: DID? { isDID ? DID(rawValue: rawValue) : nil }

    /// The value as a handle when it does not start with `did:`.
    public var handle: ATHandle? { isDID ? nil : ATHandle(rawValue: rawValue) }
}
