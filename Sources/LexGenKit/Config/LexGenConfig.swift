import LexGenSchema

/// The optional `lexgen.json` beside a target's lexicons: where they are and how to generate them.
///
/// ```json
/// {
///   "lexicons": "lexicons",
///   "accessLevel": "internal",
///   "include": ["com.example.*"],
///   "exclude": ["com.example.experimental.*"],
///   "modules": {"app.bsky.*": "AtprotoLexicons", "com.atproto.*": "AtprotoLexicons"},
///   "invalidLexicons": "warn"
/// }
/// ```
///
/// Every key is optional. Paths are relative to the file. `modules` says which NSID patterns come
/// from which imported module (by default, every lexicon of every imported module).
/// `invalidLexicons` is `fail` (the default), `skip` or `warn` (``InvalidLexiconPolicy``). Unknown keys and
/// values of the wrong kind are errors that name the key and its line.
public struct LexGenConfig: Sendable, Equatable {
    /// The lexicon folder (or single file), relative to the config file.
    public var lexicons: String?
    /// The manifest the lexicons are verified against, relative to the config file.
    public var manifest: String?
    /// The access level of generated declarations.
    public var accessLevel: AccessLevel?
    /// NSID patterns to generate.
    public var include: [String] = []
    /// NSID patterns not to generate.
    public var exclude: [String] = []
    /// NSID pattern -> module that declares those lexicons, in file order.
    public var modules: [(pattern: String, module: String)] = []
    /// What a lexicon with errors does to the run.
    public var invalidLexicons: InvalidLexiconPolicy?

    /// The keys a config may have.
    public static let keys = [
        "lexicons", "manifest", "accessLevel", "include", "exclude", "modules", "invalidLexicons",
    ]

    public static func == (lhs: LexGenConfig, rhs: LexGenConfig) -> Bool {
        lhs.lexicons == rhs.lexicons && lhs.manifest == rhs.manifest && lhs.accessLevel == rhs.accessLevel
            && lhs.include == rhs.include && lhs.exclude == rhs.exclude
            && lhs.modules.map(\.pattern) == rhs.modules.map(\.pattern)
            && lhs.modules.map(\.module) == rhs.modules.map(\.module) && lhs.invalidLexicons == rhs.invalidLexicons
    }

    /// An empty config: every default.
    public init() {}

    /// Reads a config file's bytes; problems go to `log` with the file, line and key.
    ///
    /// - Returns: The config, or `nil` when the file has errors (all of them are in `log`).
    public static func parse(_ bytes: [UInt8], path: String, log: inout DiagnosticLog) -> LexGenConfig? {
        let lines = LineTable(bytes)
        guard let root = parseJSON(bytes, path: path, lines: lines, log: &log) else { return nil }
        var reader = ConfigReader(path: path, lines: lines)
        let config = reader.read(root)
        for diagnostic in reader.diagnostics { log.report(diagnostic) }
        return reader.diagnostics.contains { $0.severity == .error } ? nil : config
    }
}

/// Reads the config's JSON, collecting a diagnostic per bad key.
private struct ConfigReader {
    let path: String
    let lines: LineTable
    var diagnostics: [Diagnostic] = []

    mutating func error(_ message: String, _ node: JSONNode, _ key: String) {
        let position = lines.position(of: node.offset)
        diagnostics.append(
            Diagnostic(
                .error, message,
                at: SourceLocation(file: path, line: position.line, column: position.column, jsonPath: key)))
    }

    mutating func read(_ root: JSONNode) -> LexGenConfig {
        var config = LexGenConfig()
        guard let fields = root.objectFields else {
            error("the config must be a JSON object, found \(root.kindName)", root, "")
            return config
        }
        for (key, node) in fields {
            switch key {
            case "lexicons": config.lexicons = string(node, key)
            case "manifest": config.manifest = string(node, key)
            case "accessLevel":
                guard let text = string(node, key) else { continue }
                guard let level = AccessLevel(rawValue: text) else {
                    error("\"accessLevel\" must be \"public\", \"package\" or \"internal\", not \"\(text)\"", node, key)
                    continue
                }
                config.accessLevel = level
            case "invalidLexicons":
                guard let text = string(node, key) else { continue }
                guard let policy = InvalidLexiconPolicy(rawValue: text) else {
                    error("\"invalidLexicons\" must be \"fail\", \"skip\" or \"warn\", not \"\(text)\"", node, key)
                    continue
                }
                config.invalidLexicons = policy
            case "include": config.include = patterns(node, key)
            case "exclude": config.exclude = patterns(node, key)
            case "modules":
                guard let entries = node.objectFields else {
                    error("\"modules\" must be an object of NSID pattern to module name", node, key)
                    continue
                }
                for (pattern, moduleNode) in entries {
                    if let problem = NSIDPattern.problem(in: pattern) {
                        error(problem, moduleNode, "modules/\(pattern)")
                    }
                    guard let module = moduleNode.stringValue, !module.isEmpty else {
                        error("the module of \"\(pattern)\" must be a module name", moduleNode, "modules/\(pattern)")
                        continue
                    }
                    config.modules.append((pattern, module))
                }
            default:
                let known = LexGenConfig.keys.joined(separator: ", ")
                let near = NearestName.suggestion(for: key, among: LexGenConfig.keys)
                let hint = near.map { "did you mean \"\($0)\"? " } ?? ""
                error("unknown key \"\(key)\" (\(hint)known keys: \(known))", node, key)
            }
        }
        return config
    }

    private mutating func string(_ node: JSONNode, _ key: String) -> String? {
        guard let text = node.stringValue else {
            error("\"\(key)\" must be a string, found \(node.kindName)", node, key)
            return nil
        }
        return text
    }

    private mutating func patterns(_ node: JSONNode, _ key: String) -> [String] {
        guard let items = node.arrayItems else {
            error("\"\(key)\" must be an array of NSID patterns, found \(node.kindName)", node, key)
            return []
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                error("\"\(key)\"[\(index)] must be a string, found \(item.kindName)", item, "\(key)/\(index)")
                continue
            }
            if let problem = NSIDPattern.problem(in: text) {
                error(problem, item, "\(key)/\(index)")
                continue
            }
            result.append(text)
        }
        return result
    }
}
