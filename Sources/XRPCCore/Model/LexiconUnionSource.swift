import AtprotoData

/// A union member to decode, from a tree or from the text: generated unions read their member
/// through it, so that one `switch` on `$type` serves both.
///
/// ```swift
/// var source = try LexiconUnionSource(json)      // or LexiconUnionSource(tokens)
/// switch source.type {
/// case "app.bsky.embed.images#view": self = .images(try source.member())
/// ...
/// ```
///
/// A listed member that does not decode is kept as ``invalidMember(_:)``, an unlisted one as
/// ``unknownMember()``, both as read. Read from the text, a member that fails is read again as a tree
/// and decoded from that, so the reason kept is the one the tree path gives.
@_spi(Generated) public struct LexiconUnionSource {
    // Only types of this module and plain JSON here: generated code holds this struct on its stack,
    // so its size must not hang on the layout of the text reader's internals.
    /// The member's `$type`.
    public let type: String
    private let tokens: LexiconJSONTokens?
    /// The member as a tree: given, or built once reading it from the text failed.
    private var json: JSONValue?

    /// A member given as a tree. Throws when it is not an object with a string `$type`.
    public init(_ json: JSONValue) throws {
        self.type = try lexiconUnionType(of: json)
        self.json = json
        self.tokens = nil
    }

    /// The member that is the next value of `tokens`. Throws when it is not an object with a string
    /// `$type`.
    public init(_ tokens: LexiconJSONTokens) throws {
        guard let type = try tokens.peekType() else { throw LexiconJSONTokens.mismatch("union member with $type") }
        self.type = type
        self.tokens = tokens
        self.json = nil
    }

    /// Decodes the member as a listed type.
    public mutating func member<T: LexiconValue>() throws -> T {
        guard let tokens else {
            guard let json else { throw LexiconJSONTokens.mismatch("union member") }
            return try T(lexiconJSON: json)
        }
        let start = tokens.mark
        do {
            return try T(lexiconTokens: tokens)
        } catch {
            tokens.rewind(to: start)
            let json = try tokens.readJSONValue()
            self.json = json
            return try T(lexiconJSON: json)
        }
    }

    /// The member kept as read, for a listed type it does not decode as (`error`). Rethrows an error
    /// of the JSON text itself, which fails the whole decoding.
    public mutating func invalidMember(_ error: any Error) throws -> LexiconInvalidUnionMember {
        if error is JSONParseError { throw error }
        return LexiconInvalidUnionMember(json: try tree(), error: error)
    }

    /// The member kept as read, for a type the union does not list.
    public mutating func unknownMember() throws -> LexiconUnknownValue {
        LexiconUnknownValue(try tree())
    }

    /// The member as a tree: as given, as built after a failed ``member()``, or read now (nothing
    /// of it has been read otherwise).
    private mutating func tree() throws -> JSONValue {
        if let json { return json }
        guard let tokens else { throw LexiconJSONTokens.mismatch("union member") }
        let json = try tokens.readJSONValue()
        self.json = json
        return json
    }
}
