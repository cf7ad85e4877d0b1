import AtprotoData

/// A generated value that can check itself against the lexicon it was generated from.
///
/// Decoding never checks constraints or formats (a response must not fail because a server is
/// lenient); ``validate()`` checks them all, explicitly: before writing a record, before sending a
/// procedure's input (``XRPCClient`` does that unless told not to), or whenever an app wants to know.
public protocol LexiconValidatable: LexiconValue {
    /// The lexicon node the type was generated from: `nsid#def`, then keys inside the def for inline
    /// types (`app.bsky.feed.post#main/record/properties/embed`).
    static var lexiconDefinition: String { get }
    /// The lexicon documents the definition and its refs are looked up in.
    static var lexiconCatalog: LexiconSchemaCatalog { get }
}

extension LexiconValidatable {
    /// Checks every constraint of the lexicon: required and nullable fields, lengths (UTF-8 bytes and
    /// graphemes), ranges, `enum`, `const`, formats, array and bytes lengths, blob size and MIME type,
    /// closed unions, and the `$type` of a record.
    ///
    /// - Throws: `LexiconValidationError` listing every violation with its path and rule.
    public func validate() throws(LexiconValidationError) {
        try LexiconValidator(catalog: Self.lexiconCatalog).validate(lexiconJSON, against: Self.lexiconDefinition)
    }

    /// The violations ``validate()`` would report; empty when the value is valid.
    public var lexiconViolations: [LexiconViolation] {
        LexiconValidator(catalog: Self.lexiconCatalog).violations(of: lexiconJSON, against: Self.lexiconDefinition)
    }
}

extension LexiconValidatable {
    /// Checks JSON against this type's lexicon without decoding it: what ``validate()`` checks, for
    /// data that may not even decode (a string where an integer belongs is a violation here, with
    /// its path and rule, rather than a decoding error).
    ///
    /// - Throws: `LexiconValidationError` listing every violation with its path and rule.
    public static func validate(json: JSONValue) throws(LexiconValidationError) {
        try LexiconValidator(catalog: lexiconCatalog).validate(json, against: lexiconDefinition)
    }
}
