import LexGenSchema

/// `lexgen lint`: every check of generation (JSON, def kinds where they stand, refs, union members,
/// records without a key) plus rules that do not stop generation but point at mistakes: `knownValues`
/// that name a def that does not exist, and names that differ only in case.
public enum LexiconLinter {
    /// Lints `sources`; refs may name the lexicons of `imports`. Returns every diagnostic found.
    public static func lint(_ sources: [LexiconSource], imports: [LexiconImport] = []) -> DiagnosticLog {
        var log = DiagnosticLog()
        var documents: [LexiconDocument] = []
        for source in sources {
            if let document = LexiconLoader.load(path: source.displayPath, bytes: source.bytes, log: &log) {
                documents.append(document)
            }
        }
        let imported = LexiconGenerator.loadImports(imports)
        let graph = SchemaGraph.build(documents, imported: imported, log: &log)
        checkCaseClashes(documents, log: &log)
        for document in documents {
            for def in document.defs {
                SchemaWalk.visit(def.schema) { node in
                    checkKnownValues(node, in: document, graph: graph, log: &log)
                    if case .object(let object) = node.kind { checkPropertyCase(object, at: node.location, log: &log) }
                    if case .params(let object) = node.kind { checkPropertyCase(object, at: node.location, log: &log) }
                }
            }
        }
        return log
    }

    private static func checkKnownValues(
        _ node: SchemaNode, in document: LexiconDocument, graph: SchemaGraph, log: inout DiagnosticLog
    ) {
        guard case .string(let string) = node.kind else { return }
        for value in string.knownValues + (string.enumValues ?? []) {
            // Full `nsid#name` values are checked when refs resolve; a local `#name` is checked here.
            guard value.hasPrefix("#") else { continue }
            let reference = DefReference(nsid: document.id, name: String(value.dropFirst()))
            if graph.def(reference) == nil {
                log.warning("\"\(value)\" looks like a ref to \(reference), which does not exist", at: node.location)
            }
        }
    }

    private static func checkPropertyCase(_ object: ObjectSchema, at location: SourceLocation, log: inout DiagnosticLog)
    {
        for (first, second) in clashes(object.properties.map(\.name)) {
            log.warning("properties \"\(first)\" and \"\(second)\" differ only in case", at: location)
        }
    }

    private static func checkCaseClashes(_ documents: [LexiconDocument], log: inout DiagnosticLog) {
        let byID = Dictionary(documents.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (first, second) in clashes(documents.map(\.id)) {
            let path = byID[second]?.path ?? second
            log.warning(
                "lexicons \(first) and \(second) differ only in case", at: SourceLocation(file: path, jsonPath: "id"))
        }
        for document in documents {
            for (first, second) in clashes(document.defs.map(\.name)) {
                log.warning(
                    "defs \"\(first)\" and \"\(second)\" differ only in case",
                    at: SourceLocation(file: document.path, jsonPath: "\(document.id)#\(second)"))
            }
        }
    }

    /// Pairs of names equal but for case, each pair once, in order of appearance.
    private static func clashes(_ names: [String]) -> [(String, String)] {
        var firstByFolded: [String: String] = [:]
        var pairs: [(String, String)] = []
        for name in names {
            let folded = name.lowercased()
            if let first = firstByFolded[folded], first != name {
                pairs.append((first, name))
            } else if firstByFolded[folded] == nil {
                firstByFolded[folded] = name
            }
        }
        return pairs
    }
}

/// Visits every schema node under a node, depth first.
enum SchemaWalk {
    static func visit(_ node: SchemaNode, _ body: (SchemaNode) -> Void) {
        body(node)
        for child in children(of: node) { visit(child, body) }
    }

    static func children(of node: SchemaNode) -> [SchemaNode] {
        switch node.kind {
        case .array(let items, _, _): return [items]
        case .object(let object), .params(let object): return object.properties.map(\.schema)
        case .record(_, let object): return [object]
        case .query(let endpoint), .procedure(let endpoint), .subscription(let endpoint):
            return [endpoint.parameters, endpoint.input?.schema, endpoint.output?.schema, endpoint.message].compactMap {
                $0
            }
        default: return []
        }
    }
}
