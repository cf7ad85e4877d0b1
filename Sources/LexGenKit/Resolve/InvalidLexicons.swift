import LexGenSchema

/// Which lexicons a lenient run leaves out: the files with errors, then every file that refs a
/// left-out one, directly or through others, so that nothing generated names a type that is not.
enum InvalidLexicons {
    /// Why a document is left out.
    enum Reason: Equatable {
        /// The file itself has errors.
        case errors
        /// It refs this lexicon, which is left out.
        case refs(String)
    }

    /// The documents to leave out, by path, with the reason; `nil` when an error belongs to no file
    /// (then nothing can be skipped safely and the run stops).
    static func skipped(_ documents: [LexiconDocument], log: DiagnosticLog, failedPaths: Set<String>)
        -> [String: Reason]?
    {
        var errorPaths = failedPaths
        for diagnostic in log.all where diagnostic.severity == .error {
            guard let file = diagnostic.location?.file else { return nil }
            errorPaths.insert(file)
        }
        var skipped: [String: Reason] = [:]
        var skippedIDs: Set<String> = []
        for document in documents where errorPaths.contains(document.path) {
            skipped[document.path] = .errors
            skippedIDs.insert(document.id)
        }
        let references = Dictionary(
            documents.map { ($0.path, referencedNSIDs(of: $0)) }, uniquingKeysWith: { first, _ in first })
        var changed = true
        while changed {
            changed = false
            for document in documents where skipped[document.path] == nil {
                guard let target = references[document.path]?.sorted().first(where: skippedIDs.contains) else {
                    continue
                }
                skipped[document.path] = .refs(target)
                skippedIDs.insert(document.id)
                changed = true
            }
        }
        return skipped
    }

    /// The NSIDs of the other lexicons a document's refs and union members name.
    static func referencedNSIDs(of document: LexiconDocument) -> Set<String> {
        var found: Set<String> = []
        for def in document.defs { collect(def.schema, into: &found) }
        found.remove(document.id)
        return found
    }

    private static func collect(_ node: SchemaNode, into found: inout Set<String>) {
        switch node.kind {
        case .ref(let reference):
            found.insert(reference.nsid)
        case .union(let refs, _):
            for reference in refs { found.insert(reference.nsid) }
        case .array(let items, _, _):
            collect(items, into: &found)
        case .object(let object), .params(let object):
            for property in object.properties { collect(property.schema, into: &found) }
        case .record(_, let object):
            collect(object, into: &found)
        case .query(let endpoint), .procedure(let endpoint), .subscription(let endpoint):
            for child in [endpoint.parameters, endpoint.input?.schema, endpoint.output?.schema, endpoint.message] {
                if let child { collect(child, into: &found) }
            }
        default:
            break
        }
    }
}
