import AtprotoSyntax

/// Reads lexicon files into ``LexiconDocument`` values, reporting every problem it finds.
///
/// A file with broken JSON or an invalid top level yields no document; an invalid def is reported
/// and left out, so one bad def does not hide the problems of the others.
public enum LexiconLoader {
    /// Parses one file. Returns `nil` when the file cannot be used at all.
    public static func load(path: String, bytes: [UInt8], log: inout DiagnosticLog) -> LexiconDocument? {
        let lines = LineTable(bytes)
        guard let root = parseJSON(bytes, path: path, lines: lines, log: &log) else { return nil }
        var parser = SchemaParser(path: path, lines: lines)
        var document = parser.parseDocument(root)
        document?.schemaText = SchemaText.minified(root)
        for diagnostic in parser.diagnostics { log.report(diagnostic) }
        return document
    }
}

/// Parses a JSON file with positions; a syntax error goes to `log` with its line and column.
package func parseJSON(_ bytes: [UInt8], path: String, lines: LineTable, log: inout DiagnosticLog) -> JSONNode? {
    do {
        return try LocatedJSONParser.parse(bytes)
    } catch {
        let position = lines.position(of: error.offset)
        log.error(
            "invalid JSON: \(error.message)",
            at: SourceLocation(file: path, line: position.line, column: position.column))
        return nil
    }
}

/// Where a schema node stands, which decides the kinds it may have.
enum SchemaPosition {
    case mainDef, otherDef, property, arrayItem, paramsProperty, body, message, recordObject, parameters

    var allowedKinds: Set<String> {
        let data: Set<String> = [
            "boolean", "integer", "string", "bytes", "cid-link", "blob", "unknown", "array", "ref", "union", "object",
        ]
        switch self {
        case .mainDef:
            return [
                "record", "query", "procedure", "subscription", "permission-set", "object", "token", "string",
                "integer", "boolean", "array", "blob", "bytes", "cid-link",
            ]
        case .otherDef:
            return ["object", "token", "string", "integer", "boolean", "array", "blob", "bytes", "cid-link"]
        case .property, .arrayItem: return data
        case .paramsProperty: return ["boolean", "integer", "string", "unknown", "array", "ref"]
        case .body, .message: return ["object", "ref", "union"]
        case .recordObject: return ["object"]
        case .parameters: return ["params"]
        }
    }

    var label: String {
        switch self {
        case .mainDef: return "as the main def"
        case .otherDef: return "as a named def other than main"
        case .property: return "as an object property"
        case .arrayItem: return "as array items"
        case .paramsProperty: return "as a query parameter"
        case .body: return "as a body schema"
        case .message: return "as a subscription message"
        case .recordObject: return "as a record's body"
        case .parameters: return "as parameters"
        }
    }
}

/// Turns the JSON of one lexicon file into schema nodes, collecting diagnostics.
struct SchemaParser {
    let path: String
    let lines: LineTable
    var diagnostics: [Diagnostic] = []
    var documentID = ""

    package init(path: String, lines: LineTable) {
        self.path = path
        self.lines = lines
    }

    func location(_ node: JSONNode, _ jsonPath: String) -> SourceLocation {
        let position = lines.position(of: node.offset)
        return SourceLocation(file: path, line: position.line, column: position.column, jsonPath: jsonPath)
    }

    mutating func error(_ message: String, _ node: JSONNode, _ jsonPath: String) {
        diagnostics.append(Diagnostic(.error, message, at: location(node, jsonPath)))
    }

    mutating func warning(_ message: String, _ node: JSONNode, _ jsonPath: String) {
        diagnostics.append(Diagnostic(.warning, message, at: location(node, jsonPath)))
    }

    mutating func parseDocument(_ root: JSONNode) -> LexiconDocument? {
        guard root.objectFields != nil else {
            error("a lexicon file must be a JSON object, found \(root.kindName)", root, "")
            return nil
        }
        if let version = root["lexicon"] {
            if case .number(_, let integer) = version.value, integer == 1 {
            } else {
                error("\"lexicon\" must be the integer 1", version, "lexicon")
            }
        } else {
            error("missing \"lexicon\": 1", root, "")
        }
        guard let idNode = root["id"] else {
            error("missing \"id\" (the lexicon's NSID)", root, "")
            return nil
        }
        guard let id = idNode.stringValue else {
            error("\"id\" must be a string NSID, found \(idNode.kindName)", idNode, "id")
            return nil
        }
        guard NSID(rawValue: id).isValid else {
            error("\"id\" is not a valid NSID: \"\(id)\"", idNode, "id")
            return nil
        }
        documentID = id
        var document = LexiconDocument(id: id, path: path, description: nil, defs: [])
        if let description = root["description"] {
            document.description = description.stringValue
        }
        guard let defsNode = root["defs"], let defs = defsNode.objectFields else {
            error("missing \"defs\" object", root["defs"] ?? root, "defs")
            return nil
        }
        if defs.isEmpty {
            error("\"defs\" must not be empty", defsNode, "defs")
        }
        for (name, json) in defs {
            let defPath = "\(id)#\(name)"
            guard Self.isValidDefName(name) else {
                error("def name \"\(name)\" is not valid (ASCII letters, digits, '_', '-' and '$' only)", json, defPath)
                continue
            }
            let position: SchemaPosition = name == "main" ? .mainDef : .otherDef
            if let schema = parseNode(json, path: defPath, position: position) {
                document.defs.append(LexiconDef(name: name, schema: schema))
            }
        }
        return document
    }

    /// Whether `name` can name a def: ASCII letters, digits, `_`, `-` and `$`, in any order, as the
    /// TypeScript generator accepts (`com.example.4-2.unsafeDefs` has defs `9` and `ob-je-c$t`).
    /// Swift names are derived from them (``SwiftNaming``: `_9`, `ObJeCT`).
    static func isValidDefName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "$")
            }
    }
}
