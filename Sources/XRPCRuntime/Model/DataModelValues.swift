import Foundation

/// A lexicon `bytes` value: raw bytes, written in JSON as `{"$bytes": "<base64>"}`.
public struct Bytes: LexiconValue {
    /// The bytes.
    public var data: Data

    /// Wraps bytes.
    public init(_ data: Data) {
        self.data = data
    }

    /// Reads `{"$bytes": "..."}`; base64 padding is optional.
    public init(lexiconJSON json: JSONValue) throws {
        guard case .object(let fields) = json, fields.count == 1, case .string(let text)? = fields["$bytes"]
        else {
            throw LexiconDecodingError(message: "expected {\"$bytes\": <base64>}, found \(json.kindName)")
        }
        var padded = text
        let remainder = padded.utf8.count % 4
        if remainder != 0 { padded += String(repeating: "=", count: 4 - remainder) }
        guard let data = Data(base64Encoded: padded) else {
            throw LexiconDecodingError(message: "$bytes is not valid base64")
        }
        self.data = data
    }

    /// Writes `{"$bytes": "..."}` without padding, as the data model prefers.
    public var lexiconJSON: JSONValue {
        var text = data.base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return .object(["$bytes": .string(text)])
    }
}

/// A lexicon `cid-link` value: a link to content by CID, written as `{"$link": "<cid>"}`.
public struct CIDLink: LexiconValue {
    /// The CID in its string form (`bafy...`).
    public var cid: String

    /// Wraps a CID string.
    public init(_ cid: String) {
        self.cid = cid
    }

    /// Reads `{"$link": "..."}`.
    public init(lexiconJSON json: JSONValue) throws {
        guard case .object(let fields) = json, fields.count == 1, case .string(let cid)? = fields["$link"] else {
            throw LexiconDecodingError(message: "expected {\"$link\": <cid>}, found \(json.kindName)")
        }
        self.cid = cid
    }

    public var lexiconJSON: JSONValue { .object(["$link": .string(cid)]) }
}

/// A lexicon `blob` value: a reference to uploaded content with its MIME type and size.
///
/// Reads the current form `{"$type": "blob", "ref": {"$link"}, "mimeType", "size"}` and the legacy
/// form `{"cid", "mimeType"}`; always writes the current form.
public struct Blob: LexiconValue {
    /// The content's CID.
    public var ref: CIDLink
    /// The content's MIME type.
    public var mimeType: String
    /// The content's size in bytes; `nil` only when read from the legacy form.
    public var size: Int?

    /// Describes uploaded content.
    public init(ref: CIDLink, mimeType: String, size: Int) {
        self.ref = ref
        self.mimeType = mimeType
        self.size = size
    }

    public init(lexiconJSON json: JSONValue) throws {
        guard case .object(let fields) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "blob object", found: json)
        }
        var reader = LexiconObjectReader(fields: fields)
        if fields["$type"] == nil, fields["cid"] != nil {
            ref = CIDLink(try reader.required("cid") as String)
            mimeType = try reader.required("mimeType")
            size = nil
            return
        }
        ref = try reader.required("ref")
        mimeType = try reader.required("mimeType")
        size = try reader.required("size") as Int
    }

    public var lexiconJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "$type": .string("blob"), "ref": ref.lexiconJSON, "mimeType": .string(mimeType),
        ]
        if let size { fields["size"] = .integer(size) }
        return .object(fields)
    }
}

/// A lexicon `unknown` value: any data-model object, kept as JSON and decodable later into a
/// generated type with ``decode(as:)``.
public struct UnknownValue: LexiconValue {
    /// The value as read.
    public var json: JSONValue

    /// Wraps a JSON value.
    public init(_ json: JSONValue) {
        self.json = json
    }

    /// Wraps a typed value, e.g. a record to put in an `unknown` field.
    public init(encoding value: some LexiconValue) {
        self.json = value.lexiconJSON
    }

    public init(lexiconJSON json: JSONValue) throws {
        self.json = json
    }

    public var lexiconJSON: JSONValue { json }

    /// The `$type` of the value, when it is an object that has one.
    public var type: String? {
        json.objectValue?["$type"]?.stringValue
    }

    /// Decodes the value as a lexicon type.
    public func decode<T: LexiconValue>(as type: T.Type) throws -> T {
        try T(lexiconJSON: json)
    }
}
