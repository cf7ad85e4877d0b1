import AtprotoData
import Foundation

/// A lexicon `bytes` value: raw bytes, written in JSON as `{"$bytes": "<base64>"}`.
///
/// The text is base64 with the standard alphabet (RFC 4648 section 4); padding is optional when
/// reading. A value read from JSON is written back with the exact text it was read from (padding,
/// and any non-zero trailing bits, kept) until ``data`` is changed; new values are written without
/// padding. Equality, hashing and `Codable` go through the JSON form.
public struct LexiconBytes: LexiconJSONBacked {
    /// The bytes. Setting them drops the text the value was read from.
    public var data: Data {
        didSet { textAsRead = nil }
    }
    private var textAsRead: String?

    /// Wraps bytes.
    public init(_ data: Data) {
        self.data = data
    }

    /// Reads `{"$bytes": "..."}`, an object with exactly that one field.
    ///
    /// Padding is optional, but when present it must be complete (`"YQ=="`, not `"YQ="`). Characters
    /// outside the standard alphabet (including whitespace and the URL-safe `-` and `_`) are errors,
    /// as is a length no base64 text can have.
    public init(lexiconJSON json: JSONValue) throws {
        (data, textAsRead) = try AtprotoDataModel.bytesObject(json)
    }

    /// Takes bytes decoded from DAG-CBOR as they are; reads anything else as ``init(lexiconJSON:)``.
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        guard let data = tokens.readDecodedBytes() else {
            try self.init(lexiconJSON: tokens.readJSONValue())
            return
        }
        self.init(data)
    }

    /// Writes `{"$bytes": "..."}`: the text as read, or for new bytes base64 without padding, as the
    /// data model prefers.
    public var lexiconJSON: JSONValue {
        if let textAsRead { return .object(["$bytes": .string(textAsRead)]) }
        return AtprotoDataModel.bytesObject(data)
    }
}

/// A lexicon `cid-link` value: a link to content by CID, written as `{"$link": "<cid>"}`.
///
/// Reading checks the shape only: any string is kept as the CID, and written back as read.
/// `AtprotoDataModel.validate(_:at:)` checks that it is a CID (`AtprotoDataModel.isValidLinkCID(_:)`).
/// A link decoded from DAG-CBOR keeps the binary CID, its text made only when ``cid`` is read (so
/// `CID(link)` of a firehose op costs nothing). Equality, hashing and `Codable` go through the JSON form.
public struct CIDLink: LexiconJSONBacked {
    /// The CID in its string form (`bafy...`).
    public var cid: String {
        get {
            switch form {
            case .text(let text): return text
            case .binary(let cid): return cid.string
            }
        }
        set { form = .text(newValue) }
    }
    /// The CID as read: text (JSON) or binary (DAG-CBOR, or a `CID`).
    var form: Form
    enum Form: Sendable {
        case text(String)
        case binary(CID)
    }

    /// Wraps a CID string.
    public init(_ cid: String) {
        form = .text(cid)
    }

    init(form: Form) { self.form = form }

    /// Reads `{"$link": "..."}`, an object with exactly that one field holding a string.
    public init(lexiconJSON json: JSONValue) throws {
        form = .text(try AtprotoDataModel.specialField("$link", of: json))
    }

    /// Takes a link decoded from DAG-CBOR as its CID; reads anything else as ``init(lexiconJSON:)``.
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        guard let cid = tokens.readDecodedLink() else {
            try self.init(lexiconJSON: tokens.readJSONValue())
            return
        }
        self.init(form: .binary(cid))
    }

    /// Writes `{"$link": "..."}`.
    public var lexiconJSON: JSONValue { .object(["$link": .string(cid)]) }
}

/// A lexicon `blob` value: a reference to uploaded content with its MIME type and size.
///
/// Two JSON forms exist:
/// - current: `{"$type": "blob", "ref": {"$link": cid}, "mimeType": text, "size": integer}`;
/// - legacy: `{"cid": text, "mimeType": text}`, from early records, with no size.
///
/// A blob with a ``size`` is written in the current form, whichever form it was read from. A legacy
/// blob (``isLegacy``, no size) is written back in the legacy form, unchanged: the current form
/// requires a size, and inventing one would corrupt the record. Set ``size`` to upgrade it.
///
/// Reading checks the shape; `AtprotoDataModel.validate(_:at:)` also checks that the MIME type is not
/// empty, that the size is not negative and that the CID is valid. Fields beyond those of the form
/// are ignored when reading and not written back (the data model allows none). Equality, hashing
/// and `Codable` go through the JSON form.
public struct LexiconBlob: LexiconJSONBacked {
    /// The content's CID.
    public var ref: CIDLink
    /// The content's MIME type.
    public var mimeType: String
    /// The content's size in bytes; `nil` only for a legacy blob (see ``isLegacy``).
    public var size: Int?

    /// Describes uploaded content.
    public init(ref: CIDLink, mimeType: String, size: Int) {
        self.ref = ref
        self.mimeType = mimeType
        self.size = size
    }

    /// Whether this is a legacy blob, `{"cid", "mimeType"}`: it has no ``size``, and is written in
    /// the legacy form so that writing it back loses nothing and makes nothing up.
    public var isLegacy: Bool { size == nil }

    /// Reads the current form (`"$type": "blob"` with `ref`, `mimeType`, `size`) or, when there is no
    /// `$type` but a `cid`, the legacy form.
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
        guard case .string(let type)? = fields["$type"], type == "blob" else {
            throw LexiconDecodingError(
                path: fields["$type"] == nil ? [] : ["$type"],
                message: "expected a blob: \"$type\": \"blob\" (or the legacy form with \"cid\")")
        }
        ref = try reader.required("ref")
        mimeType = try reader.required("mimeType")
        size = try reader.required("size") as Int
    }

    /// Takes a blob decoded from DAG-CBOR in the current form as it is (its `ref` as the link
    /// decoded); reads anything else as ``init(lexiconJSON:)``.
    @_spi(Generated) public init(lexiconTokens tokens: LexiconJSONTokens) throws {
        guard let blob = tokens.readDecodedBlob() else {
            try self.init(lexiconJSON: tokens.readJSONValue())
            return
        }
        self.init(ref: CIDLink(form: .binary(blob.ref)), mimeType: blob.mimeType, size: blob.size)
    }

    /// The current form when there is a ``size``; the legacy form `{"cid", "mimeType"}` otherwise.
    public var lexiconJSON: JSONValue {
        guard let size else {
            return .object(["cid": .string(ref.cid), "mimeType": .string(mimeType)])
        }
        return .object([
            "$type": .string("blob"), "ref": ref.lexiconJSON, "mimeType": .string(mimeType), "size": .integer(size),
        ])
    }
}

/// A lexicon `unknown` value: any data-model object, kept as JSON and decodable later into a
/// generated type with ``decode(as:)``.
///
/// Reading accepts any JSON, so a response never fails on it, and the value is written back exactly
/// as read. `AtprotoDataModel.validate(_:at:)` checks the data-model rules, including that an `unknown`
/// value is an object (and not a blob, `$bytes` or `$link` object). Equality, hashing and `Codable`
/// go through the JSON as it is.
public struct LexiconUnknownValue: LexiconJSONBacked {
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

    /// Keeps `json` as it is; never throws.
    public init(lexiconJSON json: JSONValue) throws {
        self.json = json
    }

    /// The value as read or wrapped.
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
