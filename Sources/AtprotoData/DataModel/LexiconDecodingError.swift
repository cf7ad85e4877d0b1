/// A JSON value that does not have the shape its lexicon type needs.
///
/// `path` names where, from the outermost value decoded: `["feed", "3", "post", "embed"]`.
public struct LexiconDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Object keys and array indices from the outermost value to the faulty one.
    public var path: [String]
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates an error at the given path.
    public init(path: [String] = [], message: String) {
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
        LexiconDecodingError(message: "expected \(expected), found \(found.kindName)")
    }

    /// The same error, one level further out.
    package func nested(in key: String) -> LexiconDecodingError {
        var copy = self
        copy.path.insert(key, at: 0)
        return copy
    }
}

/// Runs `body`, adding `key` to the path of any decoding error it throws.
package func decoding<T>(at key: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as LexiconDecodingError {
        throw error.nested(in: key)
    }
}
