/// A lexicon string `format` as a type. The value keeps the exact string it was made from.
///
/// Decoding never rejects a value for its format (a response must not fail on it); checking the
/// syntax is the job of validation.
public protocol LexiconStringFormat: LexiconStringValue, CustomStringConvertible {}

extension LexiconStringFormat {
    public var description: String { rawValue }
}

/// A decentralized identifier (`format: did`), e.g. `did:plc:z72i7hdynmk6r22z27h6tvur`.
public struct DID: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A handle (`format: handle`), e.g. `alice.bsky.social`.
public struct Handle: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A namespaced identifier (`format: nsid`), e.g. `app.bsky.feed.post`.
public struct NSID: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// An `at://` URI (`format: at-uri`).
public struct ATURI: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A DID or a handle (`format: at-identifier`).
public struct ATIdentifier: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A timestamp identifier (`format: tid`), e.g. `3jzfcijpj2z2a`.
public struct TID: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A record key (`format: record-key`).
public struct RecordKey: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A date and time (`format: datetime`), e.g. `2024-01-01T00:00:00.000Z`, kept as written.
public struct Datetime: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A content identifier in string form (`format: cid`).
public struct CID: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A BCP 47 language tag (`format: language`), e.g. `en` or `pt-BR`.
public struct LanguageTag: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A URI (`format: uri`).
public struct URI: LexiconStringFormat {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
