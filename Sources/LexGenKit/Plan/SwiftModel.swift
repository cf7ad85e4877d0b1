/// The Swift the generator writes, as data: what the planner produces and the renderer prints.
///
/// The model is specific to lexicon code (structs of fields, unions of members, endpoints), not a
/// general Swift syntax tree; the renderer owns every piece of syntax.

/// A Swift type used in a declaration.
indirect enum TypeReference: Sendable, Hashable {
    /// A type the generator declares, fully qualified (`AppBskyFeedDefs.PostView`).
    case declared(String)
    /// A standard or runtime type, written as is (`Swift.String`, `XRPCCore.LexiconBlob`).
    case builtin(String)
    /// An array.
    case array(TypeReference)

    var swiftText: String {
        switch self {
        case .declared(let name), .builtin(let name): return name
        case .array(let element): return "[\(element.swiftText)]"
        }
    }
}

/// A stored property of a generated struct.
struct FieldModel: Sendable {
    /// The Swift name, escaped when it is a keyword.
    var swiftName: String
    /// The JSON key.
    var jsonKey: String
    var type: TypeReference
    var isRequired: Bool
    var isNullable: Bool
    /// Stored out of line because it holds another generated struct (see ``OutOfLineStorage``).
    var isBoxed = false
    var documentation: [String]
    /// The lexicon `default` as a Swift literal (`50`, `true`, `"all"`): the initializer's default.
    var defaultLiteral: String? = nil
    /// An optional field with a default: stored non-optional, absent data reads as the default, and a
    /// default read from absence is left out again when written.
    var isDefaulted = false

    /// The literal an initializer argument defaults to: the lexicon default, `nil` for other optional
    /// fields, none for required ones.
    var argumentDefault: String? {
        if let defaultLiteral, !isNullable { return defaultLiteral }
        return isRequired ? nil : "nil"
    }
}

/// What kind of object a struct is.
enum StructRole: Sendable, Hashable {
    case object
    case record(collection: String, key: String)
    case parameters
}

/// A generated struct: an object, a record or a parameter list.
struct StructModel: Sendable {
    var name: String
    var qualifiedName: String
    var role: StructRole
    var documentation: [String]
    var fields: [FieldModel]
    var nested: [TypeModel]
    /// The schema node the struct checks against: `nsid#def`, then keys inside it (`/output/schema`).
    var schemaPath = ""
}

/// A member of a union.
struct UnionMemberModel: Sendable {
    var caseName: String
    var type: TypeReference
    /// The `$type` written for the member.
    var typeID: String
    /// Other `$type` spellings read as this member (`nsid#main` for `nsid`).
    var alternativeTypeIDs: [String]
}

/// A generated union enum.
struct UnionModel: Sendable {
    var name: String
    var qualifiedName: String
    var documentation: [String]
    var members: [UnionMemberModel]
    var isClosed: Bool
    /// Marked `indirect` (see ``OutOfLineStorage``).
    var isIndirect = false
    /// The schema node of the union (see ``StructModel/schemaPath``).
    var schemaPath = ""
}

/// A string type with known values (`knownValues`) or allowed values (`enum`).
struct StringValuesModel: Sendable {
    var name: String
    var documentation: [String]
    /// Constant name (escaped) and value, in lexicon order.
    var values: [(name: String, value: String)]
    var isClosed: Bool
    /// Other defs of the document, when this is its main def.
    var nested: [TypeModel] = []
    /// The schema node of the string (see ``StructModel/schemaPath``).
    var schemaPath = ""
}

/// A lexicon token: a name with no data form.
struct TokenModel: Sendable {
    var name: String
    var documentation: [String]
    var value: String
    /// Other defs of the document, when this is its main def.
    var nested: [TypeModel]
}

/// A declared error of an endpoint.
struct ErrorCaseModel: Sendable {
    var caseName: String
    var wireName: String
    var documentation: [String]
}

/// An endpoint's or a defs file's namespace: a caseless enum holding nested declarations.
struct NamespaceModel: Sendable {
    enum Role: Sendable {
        case plain
        case query
        case procedure
        case subscription
        case permissionSet
    }

    var name: String
    var role: Role
    var nsid: String
    var documentation: [String]
    var nested: [TypeModel]
    /// Declared errors of an endpoint (`nil`: not an endpoint).
    var errors: [ErrorCaseModel]?
    /// A subscription framed as JSON (the lexicon's `"subprotocol": "xrpc.v1.json"`).
    var jsonFraming = false
}

/// One generated declaration.
indirect enum TypeModel: Sendable {
    case structure(StructModel)
    case union(UnionModel)
    case stringValues(StringValuesModel)
    case token(TokenModel)
    case alias(name: String, target: TypeReference, documentation: [String])
    case namespace(NamespaceModel)
}

/// A labelled argument of a client method.
struct ArgumentModel: Sendable {
    /// The label, which is also the field name of the `Parameters` or `Input` struct.
    var label: String
    /// The Swift type, as the struct's property has it.
    var typeText: String
    /// What the argument defaults to (`nil`, or the lexicon default), if anything.
    var defaultText: String?
}

/// A typed method on the client's NSID namespace (`client.app.bsky.feed.getTimeline(...)`).
struct ClientMethodModel: Sendable {
    enum Kind: Sendable {
        case query
        case procedure
        /// An event stream: the method returns `XRPCEventStream` without connecting.
        case subscription
    }

    var kind: Kind
    var name: String
    var endpointType: String
    var documentation: [String]
    /// Parameter fields, as arguments.
    var parameterArguments: [ArgumentModel]
    /// Input fields when the input is an object, as arguments; `nil` when it is not.
    var inputArguments: [ArgumentModel]?
    /// Whether the procedure takes an input at all.
    var hasInput: Bool
    var inputType: String
    var outputType: String
    var parametersRequireArguments: Bool
}

/// Everything generated for one lexicon file.
struct FileModel: Sendable {
    var sourcePath: String
    var nsid: String
    var declarations: [TypeModel]
    /// Client namespace types, outermost first (`["App", "Bsky", "Feed"]`).
    var namespacePath: [String]
    var methods: [ClientMethodModel]
    /// The document as compact JSON, embedded for runtime validation.
    var schemaText = ""
    /// The Swift type of the document (after any renaming of clashing names).
    var typeName = ""

    /// The record types the file declares (its `main` def, when that is a record).
    var recordTypeNames: [String] {
        declarations.compactMap { declaration in
            guard case .structure(let model) = declaration, case .record = model.role else { return nil }
            return model.qualifiedName
        }
    }
}
