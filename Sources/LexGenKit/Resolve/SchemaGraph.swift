import LexGenSchema

/// Every loaded lexicon, keyed by NSID, with every ref checked: the input of planning.
public struct SchemaGraph: Sendable {
    /// Documents by NSID.
    public private(set) var documents: [String: LexiconDocument] = [:]
    /// NSIDs of the documents being generated, in sorted order, for deterministic iteration.
    public private(set) var ids: [String] = []
    /// The module of each imported document: documents another module generates, which refs may
    /// name but which are not generated here.
    public private(set) var importedModules: [String: String] = [:]

    /// Looks up the def a reference names.
    public func def(_ reference: DefReference) -> LexiconDef? {
        documents[reference.nsid]?.def(named: reference.name)
    }

    /// Builds the graph, reporting duplicate NSIDs and refs that resolve to nothing or to the wrong kind.
    ///
    /// - Parameters:
    ///   - documents: The documents to generate.
    ///   - imported: Documents of other modules, by module name, that refs may name.
    public static func build(
        _ documents: [LexiconDocument],
        imported: [(module: String, documents: [LexiconDocument])] = [],
        log: inout DiagnosticLog
    ) -> SchemaGraph {
        var graph = SchemaGraph()
        for (module, importedDocuments) in imported {
            for document in importedDocuments where graph.documents[document.id] == nil {
                graph.documents[document.id] = document
                graph.importedModules[document.id] = module
            }
        }
        var local: Set<String> = []
        for document in documents {
            if let module = graph.importedModules[document.id] {
                log.error(
                    "lexicon \(document.id) is also defined in module \(module); remove one, or exclude it here",
                    at: SourceLocation(file: document.path, jsonPath: "id")
                )
                continue
            }
            if let existing = graph.documents[document.id] {
                log.error(
                    "lexicon \(document.id) is defined twice (also in \(existing.path)); files are keyed by id",
                    at: SourceLocation(file: document.path, jsonPath: "id")
                )
                continue
            }
            graph.documents[document.id] = document
            local.insert(document.id)
        }
        graph.ids = local.sorted()
        for id in graph.ids {
            guard let document = graph.documents[id] else { continue }
            for def in document.defs {
                graph.checkReferences(in: def.schema, log: &log)
            }
        }
        return graph
    }

    private func checkReferences(in node: SchemaNode, log: inout DiagnosticLog) {
        switch node.kind {
        case .ref(let reference):
            guard let target = def(reference) else {
                log.error(unresolvedMessage(reference), at: node.location)
                return
            }
            switch target.schema.kind {
            case .query, .procedure, .subscription, .permissionSet:
                log.error(
                    "ref \"\(reference)\" points to a \(target.schema.kind.typeName), which has no data form",
                    at: node.location
                )
            case .token:
                log.warning("ref \"\(reference)\" points to a token; read as a string", at: node.location)
            default:
                break
            }
        case .union(let refs, _):
            for reference in refs {
                guard let target = def(reference) else {
                    log.error(unresolvedMessage(reference), at: node.location)
                    continue
                }
                switch target.schema.kind {
                case .object, .record:
                    break
                case .token:
                    log.warning(
                        "union member \"\(reference)\" is a token, not an object; kept as an unknown value",
                        at: node.location
                    )
                default:
                    log.error(
                        "union member \"\(reference)\" is a \(target.schema.kind.typeName); members must be objects",
                        at: node.location
                    )
                }
            }
        case .array(let items, _, _):
            checkReferences(in: items, log: &log)
        case .object(let object), .params(let object):
            for property in object.properties { checkReferences(in: property.schema, log: &log) }
        case .record(_, let object):
            checkReferences(in: object, log: &log)
        case .query(let endpoint), .procedure(let endpoint), .subscription(let endpoint):
            for child in [endpoint.parameters, endpoint.input?.schema, endpoint.output?.schema, endpoint.message] {
                if let child { checkReferences(in: child, log: &log) }
            }
        case .string(let string):
            for value in string.knownValues where value.contains("#") {
                if let reference = DefReference(parsing: value, in: ""), documents[reference.nsid] != nil,
                    def(reference) == nil
                {
                    log.warning("knownValues entry \"\(value)\" names a def that does not exist", at: node.location)
                }
            }
        default:
            break
        }
    }

    private func unresolvedMessage(_ reference: DefReference) -> String {
        if documents[reference.nsid] == nil {
            return "unresolved ref \"\(reference)\": no lexicon with id \(reference.nsid) was loaded"
        }
        return "unresolved ref \"\(reference)\": lexicon \(reference.nsid) has no def \"\(reference.name)\""
    }
}
