/// A lexicon string `format` as a type. The value keeps the exact string it was made from.
///
/// Decoding never rejects a value for its format (a response must not fail on it); checking the
/// syntax is the job of validation: ``isValid``, ``init(validating:)`` and ``syntaxError(in:)``.
/// `Codable` reads and writes the string itself.
public protocol LexiconStringFormat: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String {
    /// The lexicon name of the format, as written in a schema's `format` field (`did`, `at-uri`).
    static var formatName: String { get }
    /// Why `value` is not valid syntax for this format, or `nil` when it is.
    static func syntaxError(in value: String) -> String?
    /// Wraps `rawValue` without checking its syntax.
    init(rawValue: String)
}

extension LexiconStringFormat {
    /// The string exactly as given.
    public var description: String { rawValue }

    /// Whether the value is valid syntax for its format.
    public var isValid: Bool { Self.syntaxError(in: rawValue) == nil }

    /// Creates the value from `string`, throwing ``LexiconStringFormatError`` when it is not valid syntax for
    /// the format. The value keeps `string` exactly.
    public init(validating string: String) throws(LexiconStringFormatError) {
        if let reason = Self.syntaxError(in: string) {
            throw LexiconStringFormatError(format: Self.formatName, value: string, message: reason)
        }
        self.init(rawValue: string)
    }

    /// Wraps the literal without checking its syntax.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// Reads the string.
    public init(from decoder: any Decoder) throws {
        try self.init(rawValue: decoder.singleValueContainer().decode(String.self))
    }

    /// Writes the string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A string that is not valid syntax for a lexicon string format.
///
/// Its ``code`` is ``Code/invalidSyntax``; ``format`` says which grammar the value broke and
/// ``message`` where (the formats' checks, ``LexiconStringFormat/syntaxError(in:)``, say it in words).
public struct LexiconStringFormatError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The value breaks the format's grammar (or its length limit).
        public static let invalidSyntax: Code = "invalidSyntax"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// The lexicon name of the format (`did`, `at-uri`, ...).
    public var format: String
    /// The string that was checked.
    public var value: String
    /// What is wrong with it, for a person to read.
    public var message: String

    /// Creates the error for `value`, which is not a valid `format`, as `message` says.
    public init(_ code: Code = .invalidSyntax, format: String, value: String, message: String) {
        self.code = code
        self.format = format
        self.value = value
        self.message = message
    }

    /// The format, the value (shortened when very long) and the reason.
    public var description: String {
        let shown = value.utf8.count > 200 ? String(value.prefix(200)) + "..." : value
        return "invalid \(format) \"\(shown)\": \(message)"
    }
}

/// A decentralized identifier (`format: did`), e.g. `did:plc:z72i7hdynmk6r22z27h6tvur`.
public struct DID: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A handle (`format: handle`), e.g. `alice.bsky.social`.
public struct ATHandle: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A namespaced identifier (`format: nsid`), e.g. `app.bsky.feed.post`.
public struct NSID: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// An `at://` URI (`format: at-uri`).
public struct ATURI: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A DID or a handle (`format: at-identifier`).
public struct ATIdentifier: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A timestamp identifier (`format: tid`), e.g. `3jzfcijpj2z2a`.
public struct TID: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A record key (`format: record-key`).
public struct RecordKey: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A date and time (`format: datetime`), e.g. `2024-01-01T00:00:00.000Z`, kept as written.
public struct LexiconDatetime: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A content identifier in string form (`format: cid`).
public struct CIDString: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A BCP 47 language tag (`format: language`), e.g. `en` or `pt-BR`.
public struct LexiconLanguageTag: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A URI (`format: uri`).
public struct URIString: LexiconStringFormat {
    /// The string exactly as given.
    public let rawValue: String
    /// Wraps `rawValue` without checking its syntax.
    public init(rawValue: String) { self.rawValue = rawValue }
}
