import AtprotoData
import Foundation

// @unchecked Sendable: `state` and `resolved` are read and written only under `lock`; `imports` is a `let`.
/// The lexicon documents a validator looks definitions up in.
///
/// A generated module carries the documents it was generated from (descriptions left out) and makes
/// them a catalog; a module whose lexicons ref another module's imports that module's catalog. Texts
/// are parsed once, on the first lookup.
public final class LexiconSchemaCatalog: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State
    /// Catalogs searched, in order, for NSIDs this one does not hold.
    public let imports: [LexiconSchemaCatalog]
    /// Definition paths already resolved (`nsid#def/key/key`), under `lock`: a server checks the same
    /// few on every request. At most ``resolvedLimit``, so that paths from input cannot grow it.
    private var resolved: [String: (node: JSONValue, owner: LexiconReference)] = [:]
    private static let resolvedLimit = 4096

    private enum State {
        case unparsed([String])
        case parsed(documents: [String: [String: JSONValue]], problems: [String])
    }

    /// Creates a catalog from lexicon documents as JSON texts; they are parsed on first use.
    ///
    /// - Parameters:
    ///   - documentTexts: Each a lexicon document (`{"lexicon": 1, "id": ..., "defs": ...}`).
    ///   - imports: Catalogs to search for NSIDs these documents do not define.
    public init(documentTexts: [String], imports: [LexiconSchemaCatalog] = []) {
        self.state = .unparsed(documentTexts)
        self.imports = imports
    }

    /// Creates a catalog from parsed lexicon documents.
    public init(documents: [JSONValue], imports: [LexiconSchemaCatalog] = []) {
        self.state = Self.index(documents, problems: [])
        self.imports = imports
    }

    /// Creates a catalog from every `*.json` lexicon document under `folder`, at any depth.
    ///
    /// - Throws: A file that cannot be read or is not JSON, with its path.
    public convenience init(contentsOf folder: URL, imports: [LexiconSchemaCatalog] = []) throws {
        var documents: [JSONValue] = []
        let root = folder.standardizedFileURL
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "json" else { continue }
            let data = try Data(contentsOf: url)
            do {
                documents.append(try JSONValue.parse(data))
            } catch {
                throw LexiconDecodingError(message: "\(url.path): not JSON: \(error)")
            }
        }
        self.init(documents: documents, imports: imports)
    }

    /// The NSIDs of the documents this catalog holds itself (not those of its imports), sorted.
    public var nsids: [String] {
        parsed().documents.keys.sorted()
    }

    /// Documents that could not be read (not JSON, no `id`, no `defs`), one line each.
    public var problems: [String] {
        parsed().problems
    }

    /// The definition `name` of lexicon `nsid`, from this catalog or the first import that has it.
    public func definition(nsid: String, name: String) -> JSONValue? {
        if let defs = parsed().documents[nsid] { return defs[name] }
        for catalog in imports {
            if let found = catalog.definition(nsid: nsid, name: name) { return found }
        }
        return nil
    }

    /// The node a definition path resolved to before, with the definition it belongs to.
    func resolvedNode(_ path: String) -> (node: JSONValue, owner: LexiconReference)? {
        lock.lock()
        defer { lock.unlock() }
        return resolved[path]
    }

    /// Keeps what a definition path resolved to (while there is room).
    func keepResolvedNode(_ path: String, _ node: JSONValue, owner: LexiconReference) {
        lock.lock()
        defer { lock.unlock() }
        if resolved.count < Self.resolvedLimit { resolved[path] = (node, owner) }
    }

    private func parsed() -> (documents: [String: [String: JSONValue]], problems: [String]) {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .parsed(let documents, let problems):
            return (documents, problems)
        case .unparsed(let texts):
            var documents: [JSONValue] = []
            var problems: [String] = []
            for (index, text) in texts.enumerated() {
                do {
                    documents.append(try JSONValue.parse(Array(text.utf8)))
                } catch {
                    problems.append("document \(index): not JSON: \(error)")
                }
            }
            state = Self.index(documents, problems: problems)
            if case .parsed(let documents, let problems) = state { return (documents, problems) }
            return ([:], problems)
        }
    }

    private static func index(_ documents: [JSONValue], problems: [String]) -> State {
        var problems = problems
        var byNSID: [String: [String: JSONValue]] = [:]
        for document in documents {
            guard let fields = document.objectValue, let id = fields["id"]?.stringValue,
                let defs = fields["defs"]?.objectValue
            else {
                problems.append("a document has no string \"id\" or no \"defs\" object")
                continue
            }
            byNSID[id] = defs
        }
        return .parsed(documents: byNSID, problems: problems)
    }
}
