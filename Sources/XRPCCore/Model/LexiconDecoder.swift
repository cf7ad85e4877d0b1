import AtprotoData
import Foundation

/// Reads and writes lexicon values as JSON bytes the fast way: this runtime's parser and the
/// generated readers, never `Codable`.
///
/// Use it where you would reach for `JSONDecoder` and `JSONEncoder`: decoding a timeline page with
/// `JSONDecoder` goes through `Codable` and a generic container per value, and costs several times
/// as much. The shorthands on each type do the same:
///
/// ```swift
/// let page = try LexiconDecoder().decode(AppBskyFeedGetTimeline.Output.self, from: data)
/// let post = try AppBskyFeedPost(jsonData: bytes)          // the same path
/// let written = LexiconEncoder().encode(post)              // or post.jsonData()
/// ```
///
/// Decoding keeps what `Codable` would lose: fields the schema does not know (written back as they
/// came) and the difference between `1` and `1.0`. It fails only on JSON that is not valid
/// (`JSONParseError`, with line and column) or a value of the wrong shape
/// (`LexiconDecodingError`, with its path), never on a lexicon constraint.
public struct LexiconDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes a value of `type` from JSON bytes.
    public func decode<T: LexiconValue>(_ type: T.Type, from data: Data) throws -> T {
        try LexiconJSONTokens.decode(T.self, from: data)
    }

    /// Decodes a value of `type` from the JSON value that starts at `position` in `bytes`, which may
    /// go on after it (a value inside a larger text, read in place), and moves `position` to the byte
    /// after the value. On an error `position` is left as it was, and the error is the first problem
    /// met, not necessarily the one ``decode(_:from:)-(_,Data)`` reports.
    ///
    /// The position comes back through `inout` and the value as a plain `T`, not as a tuple: callers
    /// reach this unspecialized (the type opened from a lookup at run time), where a generic tuple
    /// return would look its metadata up at run time on every call.
    package func decodeValue<T: LexiconValue>(
        _ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>, at position: inout Int
    ) throws -> T {
        var reader = JSONTokenReader(bytes: bytes)
        reader.position = position
        let keepsUnknownFields = Self.keepsUnknownFields
        return try withUnsafeMutablePointer(to: &reader) { pointer in
            let tokens = LexiconJSONTokens(source: .text(pointer), keepsUnknownFields: keepsUnknownFields)
            let value = try T(lexiconTokens: tokens)
            position = pointer.pointee.position
            return value
        }
    }

    /// Decodes a value of `type` from JSON text.
    public func decode<T: LexiconValue>(_ type: T.Type, from text: String) throws -> T {
        var text = text
        return try text.withUTF8 { try LexiconJSONTokens.decode(T.self, from: $0) }
    }

    /// Decodes a value of `type` from a parsed `JSONValue`.
    public func decode<T: LexiconValue>(_ type: T.Type, from json: JSONValue) throws -> T {
        try T(lexiconJSON: json)
    }

    /// Decodes a value of `type` from a decoded DAG-CBOR value (`DAGCBOR.decode(_:)`), such as a
    /// repository record or an event-stream message, without writing it as JSON first: bytes and
    /// links are taken as decoded. The value, its unknown fields and any error are those of
    /// decoding `value.json`.
    public func decode<T: LexiconValue>(_ type: T.Type, fromDataModel value: AtprotoDataModelValue) throws -> T {
        try LexiconJSONTokens.decode(T.self, fromDataModel: value)
    }
}

/// Writes lexicon values as JSON bytes with this runtime's serializer; the counterpart of
/// ``LexiconDecoder``.
public struct LexiconEncoder: Sendable {
    /// Whether object keys are sorted (the default, so the same value always gives the same bytes).
    public var sortsKeys: Bool

    /// Creates an encoder.
    public init(sortsKeys: Bool = true) {
        self.sortsKeys = sortsKeys
    }

    /// The value's JSON form, with its unknown fields, as UTF-8 bytes, written straight from the value.
    /// With ``sortsKeys`` off, each object's keys come in the order its type writes them.
    public func encode(_ value: some LexiconValue) -> Data {
        Data(value.lexiconJSONText(sortsKeys: sortsKeys))
    }
}

extension LexiconValue {
    /// Decodes the value from a decoded DAG-CBOR value without its JSON form
    /// (``LexiconDecoder/decode(_:fromDataModel:)``).
    public init(dataModel value: AtprotoDataModelValue) throws {
        self = try LexiconJSONTokens.decode(Self.self, fromDataModel: value)
    }

    /// Decodes the value from JSON bytes, the fast way (``LexiconDecoder``, not `JSONDecoder`).
    ///
    /// ```swift
    /// let page = try AppBskyFeedGetTimeline.Output(jsonData: data)
    /// ```
    public init(jsonData: Data) throws {
        self = try LexiconJSONTokens.decode(Self.self, from: jsonData)
    }

    /// The value's JSON form as UTF-8 bytes, keys sorted (``LexiconEncoder``).
    public func jsonData() -> Data {
        Data(lexiconJSONText())
    }

    /// The value as canonical DAG-CBOR, the form a repository stores a record in, written straight
    /// from it: the bytes `DAGCBOR.encode(json: lexiconJSON)` gives, unknown fields included.
    ///
    /// - Throws: `LexiconDecodingError` naming the field when the value is not in the data model (a
    ///   float among its unknown fields, a link that is not a CID, malformed `$bytes`).
    public func dagCBORData() throws(LexiconDecodingError) -> Data {
        Data(try lexiconDAGCBOR())
    }

    /// The CID of the value's DAG-CBOR (SHA-256, codec `dag-cbor`): for a record, the CID its
    /// repository gives it, known before it is written.
    ///
    /// ```swift
    /// let cid = try post.dagCBORCID()   // what createRecord will answer with
    /// ```
    ///
    /// - Throws: `LexiconDecodingError` as ``dagCBORData()``.
    public func dagCBORCID() throws(LexiconDecodingError) -> CID {
        CID(sha256Of: try lexiconDAGCBOR(), codec: .dagCBOR)
    }
}
