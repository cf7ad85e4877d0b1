import AtprotoData
import Foundation

/// A value that has a lexicon type: it reads itself from a `JSONValue` and writes itself back.
///
/// Generated objects, records, unions and string types conform, as do the scalar types, the data-model
/// types (``LexiconBytes``, ``CIDLink``, ``LexiconBlob``, ``LexiconUnknownValue``), the string formats and arrays of them.
public protocol LexiconValue: XRPCBody, Hashable, Codable {
    /// Reads the value from JSON. Throws `LexiconDecodingError` when the shape is wrong; never
    /// because of a lexicon constraint (length, range, format), which `validate()` checks.
    init(lexiconJSON json: JSONValue) throws
    /// Reads the value from JSON text as it is read, without a tree: the same value as
    /// ``init(lexiconJSON:)`` gives for the same JSON. Any error only says that the value is not
    /// there as expected (the caller then reads the tree to report the error). Types without a reading
    /// of their own read the value as a tree and then from that.
    @_spi(Generated) init(lexiconTokens tokens: LexiconJSONTokens) throws
    /// The value as JSON, including any fields it carried that its schema does not know.
    var lexiconJSON: JSONValue { get }
    /// Writes the value as JSON text, the bytes its ``lexiconJSON`` would serialize to, without
    /// building it: objects write their fields through ``LexiconObjectWriter``, other values their
    /// JSON form.
    @_spi(Generated) func writeJSON(to output: inout LexiconJSONOutput)
}

/// A lexicon value whose `Codable` and `Hashable` conformances go through its JSON form.
///
/// Generated types use it so the compiler does not synthesize those conformances for each of them:
/// equality is equality of the JSON written, and `Codable` reads and writes the lexicon JSON form.
public protocol LexiconJSONBacked: LexiconValue {}

extension LexiconJSONBacked {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.lexiconJSON == rhs.lexiconJSON
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(lexiconJSON)
    }

    public init(from decoder: any Decoder) throws {
        try self.init(lexiconJSON: JSONValue(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try lexiconJSON.encode(to: encoder)
    }
}

/// A lexicon `object` (or `params`, or a record's body): a struct with named fields.
///
/// Generated structs implement the two requirements field by field; everything else (JSON form,
/// equality, `Codable`) comes from this protocol. Fields the schema does not know are kept in each
/// struct's `unknownFields` and written back. (That property is not a requirement: every requirement
/// costs a witness in each of the SDK's ~1,000 structs, and nothing reads it generically.)
public protocol LexiconObject: LexiconJSONBacked {
    /// Reads the known fields from `reader`; what the reader has left are the unknown fields.
    @_spi(Generated) init(reading reader: inout LexiconObjectReader) throws
    /// Writes the known fields, then the unknown ones, to `writer`.
    @_spi(Generated) func write(to writer: inout LexiconObjectWriter)
}

extension LexiconObject {
    public init(lexiconJSON json: JSONValue) throws {
        guard case .object(let fields) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "object", found: json)
        }
        var reader = LexiconObjectReader(fields: fields)
        try self.init(reading: &reader)
    }

    public var lexiconJSON: JSONValue {
        var writer = LexiconObjectWriter()
        write(to: &writer)
        return .object(writer.fields)
    }
}

/// The kind of key a record collection uses (`tid`, `nsid`, `any`, `literal:self`).
public enum RecordKeyType: Sendable, Hashable {
    /// A timestamp identifier.
    case tid
    /// An NSID.
    case nsid
    /// Any valid record key.
    case any
    /// Exactly this string (`literal:self` gives `.literal("self")`).
    case literal(String)

    /// Parses a lexicon `key` value; unknown forms read as `.any`.
    public init(lexiconKey: String) {
        switch lexiconKey {
        case "tid": self = .tid
        case "nsid": self = .nsid
        default:
            if lexiconKey.hasPrefix("literal:") {
                self = .literal(String(lexiconKey.dropFirst("literal:".count)))
            } else {
                self = .any
            }
        }
    }
}

/// A lexicon record type: an object stored in a repository collection.
///
/// Its JSON form always carries `"$type"`, the collection NSID.
public protocol LexiconRecord: LexiconObject {
    /// The collection NSID, which is also the record's `$type`.
    static var collection: NSID { get }
    /// The kind of record key the collection uses.
    static var recordKey: RecordKeyType { get }
}

extension LexiconRecord {
    public var lexiconJSON: JSONValue {
        var writer = LexiconObjectWriter()
        writer.fields["$type"] = .string(Self.collection.rawValue)
        write(to: &writer)
        return .object(writer.fields)
    }
}

/// A lexicon union: an enum with a case per member, told apart by `$type`.
///
/// Open unions have an `unknown` case that keeps a member of a type they do not know, whole.
public protocol LexiconUnion: LexiconJSONBacked {}

/// A string type with a known set of values: `knownValues` (open) or `enum` (closed).
///
/// Any string decodes, so a new value sent by a newer server never fails a response; `validate()`
/// rejects values outside a closed set.
public protocol LexiconStringValue: LexiconValue, RawRepresentable, ExpressibleByStringLiteral
where RawValue == String {
    /// Creates the value from its string.
    init(rawValue: String)
}

extension LexiconStringValue {
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public init(lexiconJSON json: JSONValue) throws {
        guard case .string(let string) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "string", found: json)
        }
        self.init(rawValue: string)
    }

    public var lexiconJSON: JSONValue { .string(rawValue) }

    public init(from decoder: any Decoder) throws {
        try self.init(rawValue: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A value of a `union` member, written with its `$type`.
///
/// Generated unions call this when writing a known member.
@_spi(Generated) public func lexiconUnionMemberJSON(_ value: some LexiconValue, type: String) -> JSONValue {
    guard case .object(var fields) = value.lexiconJSON else { return value.lexiconJSON }
    if fields["$type"] == nil {
        fields["$type"] = .string(type)
    }
    return .object(fields)
}

/// The `$type` of a union member: generated unions switch on it.
@_spi(Generated) public func lexiconUnionType(of json: JSONValue) throws -> String {
    guard case .object(let fields) = json else {
        throw LexiconDecodingError.typeMismatch(expected: "object with $type", found: json)
    }
    guard case .string(let type)? = fields["$type"] else {
        throw LexiconDecodingError(message: "union member has no string $type")
    }
    return type
}

/// The error for a `$type` that a closed union does not list.
@_spi(Generated) public func lexiconClosedUnionError(type: String, allowed: [String]) -> LexiconDecodingError {
    LexiconDecodingError(
        message: "closed union does not allow $type \"\(type)\"; allowed: \(allowed.joined(separator: ", "))"
    )
}

/// A lexicon `token`: a name with no data form, used as a value of `knownValues` strings.
public protocol LexiconToken {
    /// The token's full name, `nsid#name`, as it appears in string values.
    static var value: String { get }
}

/// A union member whose `$type` the union lists but whose content does not decode as that type.
///
/// Unions keep such a member as read, with the reason, instead of failing the whole response: one
/// malformed feed item never loses the page. It is written back unchanged.
public struct LexiconInvalidUnionMember: Sendable, Hashable {
    /// The member as read.
    public var json: JSONValue
    /// Why it did not decode.
    public var error: LexiconDecodingError

    /// Keeps a member that failed to decode with `error`.
    public init(json: JSONValue, error: any Error) {
        self.json = json
        self.error = error as? LexiconDecodingError ?? LexiconDecodingError(message: "\(error)")
    }
}
