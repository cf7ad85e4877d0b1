/// A value that breaks the rules of its lexicon schema: every violation found, each with where and why.
///
/// Thrown by `LexiconValidatable.validate()` (XRPCCore) and ``LexiconValidator/validate(_:against:)``.
/// Validation reports every violation it finds in one pass, not only the first.
public struct LexiconValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The lexicon definition the value was checked against, `nsid#name`.
    public var definition: String
    /// What is wrong, in the order found (depth first, fields in key order).
    public var violations: [LexiconViolation]

    /// Creates an error from the violations found checking a value against `definition`.
    public init(definition: String, violations: [LexiconViolation]) {
        self.definition = definition
        self.violations = violations
    }

    public var description: String {
        let lines = violations.prefix(20).map { "  \($0)" }
        let more = violations.count > 20 ? ["  ... and \(violations.count - 20) more"] : []
        let count = violations.count == 1 ? "1 violation" : "\(violations.count) violations"
        return (["value does not match \(definition) (\(count)):"] + lines + more).joined(separator: "\n")
    }
}

/// One broken rule: the path of the faulty value, the rule, and a message for a person.
public struct LexiconViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where, from the validated value: `$.embed.images[0].alt`.
    public var path: String
    /// The rule the value breaks.
    public var rule: LexiconRule
    /// What is wrong, with the limit and the value where that helps.
    public var message: String

    /// Creates a violation.
    public init(path: String, rule: LexiconRule, message: String) {
        self.path = path
        self.rule = rule
        self.message = message
    }

    public var description: String { "\(path): \(message) [\(rule.rawValue)]" }
}

/// The lexicon rules a value can break, named as in the lexicon language where they have a name there.
public enum LexiconRule: String, Sendable, Hashable, CaseIterable {
    /// A field listed in `required` is absent.
    case required
    /// A field is `null` but not listed in `nullable`.
    case nullable
    /// The value has the wrong kind (a string where an integer belongs, an object that is not a blob).
    case type
    /// The value differs from the schema's `const`.
    case const
    /// The value is not one of the schema's `enum` values.
    case `enum`
    /// An integer below `minimum`.
    case minimum
    /// An integer above `maximum`.
    case maximum
    /// A string (UTF-8 bytes), bytes value or array shorter than `minLength`.
    case minLength
    /// A string (UTF-8 bytes), bytes value or array longer than `maxLength`.
    case maxLength
    /// A string with fewer grapheme clusters than `minGraphemes`.
    case minGraphemes
    /// A string with more grapheme clusters than `maxGraphemes`.
    case maxGraphemes
    /// A string that is not valid syntax for its `format`.
    case format
    /// A blob larger than `maxSize`.
    case maxSize
    /// A blob whose MIME type no pattern of `accept` matches.
    case accept
    /// A union member that is not an object with a string `$type`.
    case unionType
    /// A member of a closed union whose `$type` the union does not list.
    case closedUnion
    /// A record whose `$type` is absent or is not its collection.
    case recordType
    /// A value outside the atproto data model (a float, a malformed `$link` or `$bytes`).
    case dataModel
    /// A `ref` that names no definition in the schemas at hand.
    case unresolvedReference
}
