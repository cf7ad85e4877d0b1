import AtprotoSyntax

/// A JSON value that does not have the shape its lexicon type needs.
///
/// `path` names where, from the outermost value decoded: `["feed", "3", "post", "embed"]`.
public struct LexiconDecodingError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A value of the wrong JSON kind (a string where an object belongs, a `null` where the field
        /// is not nullable).
        public static let typeMismatch: Code = "typeMismatch"
        /// A required field is absent.
        public static let missingField: Code = "missingField"
        /// A value of the right kind that breaks a rule: a string format, base64, a CID, a blob's
        /// size, a union member without `$type`.
        public static let invalidValue: Code = "invalidValue"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// Object keys and array indices from the outermost value to the faulty one.
    public var path: [String]
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates an error at the given path.
    public init(_ code: Code = .invalidValue, path: [String] = [], message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The path written as a JSON pointer-like string, `"$"` for the root.
    public var pathDescription: String {
        path.isEmpty ? "$" : "$." + path.joined(separator: ".")
    }

    public var description: String { "\(pathDescription): \(message)" }

    /// An error for a value of the wrong JSON kind.
    public static func typeMismatch(expected: String, found: JSONValue) -> LexiconDecodingError {
        LexiconDecodingError(.typeMismatch, message: "expected \(expected), found \(found.kindName)")
    }

    /// The same error, one level further out.
    @usableFromInline package func nested(in key: String) -> LexiconDecodingError {
        var copy = self
        copy.path.insert(key, at: 0)
        return copy
    }
}

/// Runs `body`, adding `key` to the path of any decoding error it throws.
@inlinable package func decoding<T>(at key: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as LexiconDecodingError {
        throw error.nested(in: key)
    }
}
