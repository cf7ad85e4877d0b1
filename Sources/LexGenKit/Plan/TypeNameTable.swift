import LexGenSchema

/// The Swift name of every def of every lexicon, settled before any file is planned so that refs
/// across files agree.
struct TypeNameTable: Sendable {
    /// How a document's main def is represented.
    enum MainShape: Sendable {
        /// The document type is the main def itself (struct, namespace enum, string type or token).
        case container
        /// The main def is a plain alias and the document has no other defs: a top-level typealias.
        case topLevelAlias
        /// The main def is a plain alias beside other defs: a namespace enum with `Main` inside.
        case nestedAlias
    }

    struct DocumentNames: Sendable {
        var typeName: String
        var mainShape: MainShape
        /// Nested type names of the non-main defs.
        var defNames: [String: String]
        /// Names taken in the document type's scope.
        var scope: NameScope
    }

    private(set) var documents: [String: DocumentNames] = [:]
    /// Documents whose natural type name was taken by an earlier one (in NSID order), with the name
    /// they got instead: `com.ex-ample.thing` and `com.exAmple.thing` would both be `ComExAmpleThing`.
    private(set) var renamed: [(id: String, name: String)] = []

    init(graph: SchemaGraph) {
        renamed = Self.name(graph.ids, in: graph, qualifier: nil, into: &documents)
        // Imported documents are named as their own module names them (each module apart), and
        // written with the module's name in front.
        var byModule: [String: [String]] = [:]
        for (id, module) in graph.importedModules { byModule[module, default: []].append(id) }
        for (module, ids) in byModule.sorted(by: { $0.key < $1.key }) {
            _ = Self.name(ids.sorted(), in: graph, qualifier: module, into: &documents)
        }
    }

    /// Names the documents `ids` (one module's, sorted) into `table`; returns those renamed.
    private static func name(
        _ ids: [String],
        in graph: SchemaGraph,
        qualifier: String?,
        into table: inout [String: DocumentNames]
    ) -> [(id: String, name: String)] {
        var renamed: [(id: String, name: String)] = []
        var topLevel = NameScope()
        for id in ids {
            guard let document = graph.documents[id] else { continue }
            var scope = NameScope(reserved: SwiftNaming.reservedTypeNames)
            let main = document.def(named: "main")
            if let main {
                switch main.schema.kind {
                case .query, .procedure, .subscription:
                    for name in ["Parameters", "Input", "Output", "Error", "Message"] { _ = scope.claim(name) }
                default:
                    break
                }
            }
            var shape = MainShape.container
            if let main, isAlias(main.schema.kind) {
                var isArray = false
                if case .array = main.schema.kind { isArray = true }
                shape = document.defs.count == 1 && !isArray ? .topLevelAlias : .nestedAlias
                if shape == .nestedAlias { _ = scope.claim("Main") }
            }
            var defNames: [String: String] = [:]
            for def in document.canonicalDefs where def.name != "main" {
                defNames[def.name] = scope.claim(SwiftNaming.typeName(def.name))
            }
            let natural = SwiftNaming.documentTypeName(id)
            let typeName = topLevel.claim(natural)
            if typeName != natural { renamed.append((id, typeName)) }
            table[id] = DocumentNames(
                typeName: qualifier.map { $0 + "." + typeName } ?? typeName,
                mainShape: shape,
                defNames: defNames,
                scope: scope
            )
        }
        return renamed
    }

    /// Whether a def of this kind is written as a typealias rather than a type of its own.
    static func isAlias(_ kind: SchemaKind) -> Bool {
        switch kind {
        case .string(let string): return string.knownValues.isEmpty && string.enumValues == nil
        case .integer, .boolean, .array, .bytes, .blob, .cidLink, .unknown: return true
        default: return false
        }
    }

    /// The qualified Swift name of a def.
    func qualifiedName(of reference: DefReference) -> String? {
        guard let names = documents[reference.nsid] else { return nil }
        if reference.name == "main" {
            return names.mainShape == .nestedAlias ? names.typeName + ".Main" : names.typeName
        }
        guard let nested = names.defNames[reference.name] else { return nil }
        return names.typeName + "." + nested
    }
}
