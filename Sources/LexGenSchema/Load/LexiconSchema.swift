import AtprotoSyntax

/// A reference to a def in some lexicon: `nsid#name`, with `main` for a bare NSID.
public struct DefReference: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The lexicon's NSID.
    public var nsid: String
    /// The def's name within the lexicon.
    public var name: String

    /// Creates a reference.
    public init(nsid: String, name: String) {
        self.nsid = nsid
        self.name = name
    }

    /// Reads a ref string as written in a lexicon (`#local`, `nsid`, `nsid#def`), relative to `documentID`.
    /// Returns `nil` when the string is not a ref.
    public init?(parsing text: String, in documentID: String) {
        if text.hasPrefix("#") {
            let name = String(text.dropFirst())
            guard !name.isEmpty else { return nil }
            self.init(nsid: documentID, name: name)
            return
        }
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let nsid = String(parts[0])
        guard NSID(rawValue: nsid).isValid else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty else { return nil }
            self.init(nsid: nsid, name: String(parts[1]))
        } else {
            self.init(nsid: nsid, name: "main")
        }
    }

    /// The canonical string: `nsid` for `main`, `nsid#name` otherwise. This is also the `$type` of
    /// an object of this def.
    public var description: String { name == "main" ? nsid : "\(nsid)#\(name)" }

    /// Orders by NSID, then def name.
    public static func < (lhs: DefReference, rhs: DefReference) -> Bool {
        (lhs.nsid, lhs.name) < (rhs.nsid, rhs.name)
    }
}

/// One node of a lexicon schema, with its description and where it came from.
public struct SchemaNode: Sendable {
    /// What the node is.
    public var kind: SchemaKind
    /// The lexicon's `description`, if any.
    public var description: String?
    /// Where the node is in its file.
    public var location: SourceLocation
}

/// Constraints of a lexicon `string`.
public struct StringSchema: Sendable {
    /// `format`, e.g. `did` or `datetime`.
    public var format: String?
    /// `knownValues`: the set is open.
    public var knownValues: [String] = []
    /// `enum`: the set is closed.
    public var enumValues: [String]?
    /// `const`.
    public var constValue: String?
    /// `default`.
    public var defaultValue: String?
    /// Minimum length in UTF-8 bytes.
    public var minLength: Int?
    /// Maximum length in UTF-8 bytes.
    public var maxLength: Int?
    /// Minimum length in grapheme clusters.
    public var minGraphemes: Int?
    /// Maximum length in grapheme clusters.
    public var maxGraphemes: Int?
}

/// Constraints of a lexicon `integer`.
public struct IntegerSchema: Sendable {
    /// `minimum`.
    public var minimum: Int?
    /// `maximum`.
    public var maximum: Int?
    /// `enum`: the allowed values.
    public var enumValues: [Int]?
    /// `const`.
    public var constValue: Int?
    /// `default`.
    public var defaultValue: Int?
}

/// A lexicon `object` or `params`: ordered properties with required and nullable names.
public struct ObjectSchema: Sendable {
    /// Properties in file order.
    public var properties: [(name: String, schema: SchemaNode)]
    /// Names that must be present.
    public var required: Set<String>
    /// Names that may be `null`.
    public var nullable: Set<String>
    /// The lexicon's `required` array as written (an array keeps its order in a record too).
    public var requiredOrder: [String] = []

    /// Properties in the order generated code declares them (stored properties, initializer and method
    /// parameters): the required ones in the order of the lexicon's `required` array, then the others
    /// sorted by name (UTF-8 bytes). A lexicon installed over atproto comes from a record, which keeps
    /// the order of an array but not of an object's keys, so this order is the same whether the lexicon
    /// came from a file or from a record; the file order of ``properties`` is not.
    public var canonicalProperties: [(name: String, schema: SchemaNode)] {
        var byName: [String: SchemaNode] = [:]
        for property in properties where byName[property.name] == nil { byName[property.name] = property.schema }
        var ordered: [(name: String, schema: SchemaNode)] = []
        for name in requiredOrder {
            if let schema = byName.removeValue(forKey: name) { ordered.append((name, schema)) }
        }
        var optional: [(name: String, schema: SchemaNode)] = []
        for property in properties {
            if let schema = byName.removeValue(forKey: property.name) { optional.append((property.name, schema)) }
        }
        optional.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return ordered + optional
    }
}

/// The body of a query or procedure input or output.
public struct BodySchema: Sendable {
    /// The MIME type (`application/json`, `*/*`, `application/vnd.ipld.car`...).
    public var encoding: String
    /// The schema of a JSON body: an object, a ref or a union. `nil` for none.
    public var schema: SchemaNode?
    /// Whether the body is JSON (and so typed by `schema`).
    public var isJSON: Bool {
        encoding.split(separator: ";").first?.trimmingWhitespace == "application/json"
    }
}

/// A declared XRPC error.
public struct ErrorSchema: Sendable {
    /// The error name sent in `{"error": ...}`.
    public var name: String
    /// The lexicon's description of the error.
    public var description: String?
}

/// A query, procedure or subscription.
public struct EndpointSchema: Sendable {
    /// The `params` node, if any.
    public var parameters: SchemaNode?
    /// A procedure's input body.
    public var input: BodySchema?
    /// A query's or procedure's output body.
    public var output: BodySchema?
    /// A subscription's message schema (a union).
    public var message: SchemaNode?
    /// A subscription's WebSocket subprotocol (`"xrpc.v1.json"`: JSON frames); `nil` for the
    /// event-stream spec's DAG-CBOR frames.
    public var subprotocol: String?
    /// The declared errors, in lexicon order.
    public var errors: [ErrorSchema] = []
}

/// Every kind of node in the lexicon language.
public indirect enum SchemaKind: Sendable {
    /// `boolean`.
    case boolean(defaultValue: Bool?, constValue: Bool?)
    /// `integer`.
    case integer(IntegerSchema)
    /// `string`.
    case string(StringSchema)
    /// `bytes`.
    case bytes(minLength: Int?, maxLength: Int?)
    /// `cid-link`.
    case cidLink
    /// `blob`.
    case blob(accept: [String]?, maxSize: Int?)
    /// `unknown`: any data-model object.
    case unknown
    /// `array`.
    case array(items: SchemaNode, minLength: Int?, maxLength: Int?)
    /// `object`.
    case object(ObjectSchema)
    /// `params`: query parameters.
    case params(ObjectSchema)
    /// `token`: a name with no data form.
    case token
    /// `ref`, resolved against the document's id.
    case ref(DefReference)
    /// `union`.
    case union(refs: [DefReference], closed: Bool)
    /// `record`: its key type and object schema.
    case record(key: String?, object: SchemaNode)
    /// `query`.
    case query(EndpointSchema)
    /// `procedure`.
    case procedure(EndpointSchema)
    /// `subscription`.
    case subscription(EndpointSchema)
    /// `permission-set`.
    case permissionSet
    /// `permission`.
    case permission

    /// The lexicon `type` name of the kind.
    public var typeName: String {
        switch self {
        case .boolean: return "boolean"
        case .integer: return "integer"
        case .string: return "string"
        case .bytes: return "bytes"
        case .cidLink: return "cid-link"
        case .blob: return "blob"
        case .unknown: return "unknown"
        case .array: return "array"
        case .object: return "object"
        case .params: return "params"
        case .token: return "token"
        case .ref: return "ref"
        case .union: return "union"
        case .record: return "record"
        case .query: return "query"
        case .procedure: return "procedure"
        case .subscription: return "subscription"
        case .permissionSet: return "permission-set"
        case .permission: return "permission"
        }
    }
}

/// A named def of a lexicon document.
public struct LexiconDef: Sendable {
    /// The def's name (`main`, `postView`...).
    public var name: String
    /// The def's schema.
    public var schema: SchemaNode
}

/// One lexicon file, parsed.
public struct LexiconDocument: Sendable {
    /// The document's NSID (its `id`), which is how it is found: never by its path.
    public var id: String
    /// The file path the document came from.
    public var path: String
    /// The document's `description`.
    public var description: String?
    /// The defs in file order.
    public var defs: [LexiconDef]
    /// The document as compact JSON without its descriptions: what generated code embeds for validation.
    public var schemaText = ""

    /// The defs in the order generated code declares them: sorted by name (UTF-8 bytes), since a
    /// lexicon installed over atproto comes from a record, which keeps no key order.
    public var canonicalDefs: [LexiconDef] {
        defs.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The def with a name.
    public func def(named name: String) -> LexiconDef? {
        defs.first { $0.name == name }
    }
}

extension Substring {
    var trimmingWhitespace: Substring {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
