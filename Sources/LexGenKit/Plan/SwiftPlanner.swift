import LexGenSchema

/// Turns the resolved schema graph into ``FileModel`` values: one per lexicon document.
struct SwiftPlanner {
    let graph: SchemaGraph
    let names: TypeNameTable

    init(graph: SchemaGraph) {
        self.graph = graph
        self.names = TypeNameTable(graph: graph)
    }

    /// Warnings for lexicons whose Swift type name had to differ from the NSID rule.
    func namingWarnings() -> [Diagnostic] {
        names.renamed.map { entry in
            let path = graph.documents[entry.id]?.path ?? entry.id
            return Diagnostic(
                .warning,
                "the Swift name of \(entry.id) clashes with another lexicon's; it is generated as \(entry.name)",
                at: SourceLocation(file: path, jsonPath: "id")
            )
        }
    }

    /// Plans one document.
    func planFile(_ document: LexiconDocument) -> FileModel {
        guard let documentNames = names.documents[document.id] else {
            return FileModel(
                sourcePath: document.path, nsid: document.id, declarations: [], namespacePath: [], methods: [])
        }
        let typeName = documentNames.typeName
        var scope = documentNames.scope
        var nested: [TypeModel] = []
        for def in document.canonicalDefs where def.name != "main" {
            guard let name = documentNames.defNames[def.name] else { continue }
            nested += planNamedDef(
                def,
                name: name,
                qualifiedName: typeName + "." + name,
                nsid: document.id,
                containerName: typeName,
                scope: &scope
            )
        }
        var methods: [ClientMethodModel] = []
        let documentation = Self.documentation(document.defs.first { $0.name == "main" }?.schema.description)
        var declaration: TypeModel
        if let main = document.def(named: "main") {
            switch documentNames.mainShape {
            case .topLevelAlias:
                // A lone alias: its inline types (if any) need a home, so only plain aliases stay top-level.
                let planned = planNamedDef(
                    main,
                    name: typeName,
                    qualifiedName: typeName,
                    nsid: document.id,
                    containerName: typeName,
                    scope: &scope
                )
                declaration =
                    planned.count == 1
                    ? planned[0]
                    : .namespace(
                        NamespaceModel(
                            name: typeName,
                            role: .plain,
                            nsid: document.id,
                            documentation: documentation,
                            nested: planned,
                            errors: nil
                        )
                    )
            case .nestedAlias:
                let planned = planNamedDef(
                    main,
                    name: "Main",
                    qualifiedName: typeName + ".Main",
                    nsid: document.id,
                    containerName: typeName,
                    scope: &scope
                )
                nested.insert(contentsOf: planned, at: 0)
                declaration = .namespace(
                    NamespaceModel(
                        name: typeName,
                        role: .plain,
                        nsid: document.id,
                        documentation: documentation,
                        nested: nested,
                        errors: nil
                    )
                )
            case .container:
                let planned = planMain(main, typeName: typeName, document: document, scope: &scope, defs: nested)
                declaration = planned.declaration
                if let method = planned.method { methods.append(method) }
            }
        } else {
            declaration = .namespace(
                NamespaceModel(
                    name: typeName,
                    role: .plain,
                    nsid: document.id,
                    documentation: Self.documentation(document.description),
                    nested: nested,
                    errors: nil
                )
            )
        }
        let segments = document.id.split(separator: ".").map(String.init)
        return FileModel(
            sourcePath: document.path,
            nsid: document.id,
            declarations: [declaration],
            namespacePath: segments.dropLast().map(SwiftNaming.namespaceTypeName),
            methods: methods,
            schemaText: document.schemaText,
            typeName: typeName
        )
    }

    /// A def other than an endpoint: object, record, string type, token or alias. Inline types of an
    /// alias (the union of an array def) are declared beside it, in `containerName`'s `scope`.
    func planNamedDef(
        _ def: LexiconDef,
        name: String,
        qualifiedName: String,
        nsid: String,
        containerName: String,
        scope: inout NameScope
    ) -> [TypeModel] {
        let node = def.schema
        let documentation = Self.documentation(node.description)
        let typeID = def.name == "main" ? nsid : "\(nsid)#\(def.name)"
        switch node.kind {
        case .object(let object):
            return [.structure(planStruct(object, name: name, qualifiedName: qualifiedName, role: .object, node: node))]
        case .record(let key, let objectNode):
            guard case .object(let object) = objectNode.kind else { return [] }
            var model = planStruct(
                object,
                name: name,
                qualifiedName: qualifiedName,
                role: .record(collection: nsid, key: key ?? "any"),
                node: objectNode
            )
            model.documentation = Self.documentation(node.description ?? objectNode.description)
            model.schemaPath = node.location.jsonPath  // The record def, so validation checks `$type` too.
            return [.structure(model)]
        case .token:
            return [.token(TokenModel(name: name, documentation: documentation, value: typeID, nested: []))]
        case .string(let string) where !string.knownValues.isEmpty || string.enumValues != nil:
            let docs = documentation + Self.constraintDocs(node)
            return [.stringValues(planStringValues(string, name: name, documentation: docs, node: node))]
        default:
            var inline: [TypeModel] = []
            let target = fieldType(
                node,
                inlineName: name,
                scopeName: containerName,
                scope: &scope,
                nested: &inline
            )
            return inline + [
                .alias(name: name, target: target, documentation: documentation + Self.constraintDocs(node))
            ]
        }
    }

    /// Plans a struct for an object, record body or parameter list.
    func planStruct(
        _ object: ObjectSchema,
        name: String,
        qualifiedName: String,
        role: StructRole,
        node: SchemaNode
    ) -> StructModel {
        var typeScope = NameScope(reserved: SwiftNaming.reservedTypeNames)
        var memberScope = NameScope(reserved: SwiftNaming.reservedMemberNames)
        var nested: [TypeModel] = []
        var fields: [FieldModel] = []
        for property in object.canonicalProperties {
            let bare = memberScope.claim(SwiftNaming.bareIdentifier(property.name))
            let type = fieldType(
                property.schema,
                inlineName: SwiftNaming.typeName(property.name),
                scopeName: qualifiedName,
                scope: &typeScope,
                nested: &nested
            )
            var field = FieldModel(
                swiftName: SwiftNaming.escaped(bare),
                jsonKey: property.name,
                type: type,
                isRequired: object.required.contains(property.name),
                isNullable: object.nullable.contains(property.name),
                documentation: Self.fieldDocs(
                    property, isRequired: object.required.contains(property.name),
                    isNullable: object.nullable.contains(property.name))
            )
            field.defaultLiteral = Self.defaultLiteral(property.schema)
            // Parameters stay optional (`nil` leaves a parameter out); their initializer sends the default.
            field.isDefaulted =
                field.defaultLiteral != nil && !field.isRequired && !field.isNullable && role != .parameters
            if field.isDefaulted {
                field.documentation.append(
                    "Absent in the data, it reads as the default (and is left out again when written back unchanged).")
            }
            fields.append(field)
        }
        return StructModel(
            name: name,
            qualifiedName: qualifiedName,
            role: role,
            documentation: Self.documentation(node.description),
            fields: fields,
            nested: nested,
            schemaPath: node.location.jsonPath
        )
    }

    /// The Swift type of a property or array item, declaring inline types (unions, objects, string
    /// types) as nested types of `scopeName`.
    func fieldType(
        _ node: SchemaNode,
        inlineName: String,
        scopeName: String,
        scope: inout NameScope,
        nested: inout [TypeModel]
    ) -> TypeReference {
        switch node.kind {
        case .boolean: return .builtin("Swift.Bool")
        case .integer: return .builtin("Swift.Int")
        case .string(let string):
            if !string.knownValues.isEmpty || string.enumValues != nil {
                let name = scope.claim(inlineName)
                nested.append(.stringValues(planStringValues(string, name: name, documentation: [], node: node)))
                return .declared(scopeName + "." + name)
            }
            return .builtin(Self.formatType(string.format))
        case .bytes: return .builtin("XRPCCore.LexiconBytes")
        case .cidLink: return .builtin("XRPCCore.CIDLink")
        case .blob: return .builtin("XRPCCore.LexiconBlob")
        case .unknown: return .builtin("XRPCCore.LexiconUnknownValue")
        case .token, .permission, .permissionSet, .query, .procedure, .subscription:
            return .builtin("XRPCCore.LexiconUnknownValue")
        case .array(let items, _, _):
            return .array(
                fieldType(items, inlineName: inlineName + "Item", scopeName: scopeName, scope: &scope, nested: &nested))
        case .object(let object), .params(let object):
            let name = scope.claim(inlineName)
            nested.append(
                .structure(
                    planStruct(object, name: name, qualifiedName: scopeName + "." + name, role: .object, node: node)))
            return .declared(scopeName + "." + name)
        case .record(_, let objectNode):
            return fieldType(objectNode, inlineName: inlineName, scopeName: scopeName, scope: &scope, nested: &nested)
        case .ref(let reference):
            return referenceType(reference)
        case .union(let refs, let closed):
            let name = scope.claim(inlineName)
            nested.append(
                .union(planUnion(refs, closed: closed, name: name, qualifiedName: scopeName + "." + name, node: node)))
            return .declared(scopeName + "." + name)
        }
    }

    /// The Swift type a ref stands for.
    func referenceType(_ reference: DefReference) -> TypeReference {
        guard let def = graph.def(reference), let qualified = names.qualifiedName(of: reference) else {
            return .builtin("XRPCCore.LexiconUnknownValue")
        }
        switch def.schema.kind {
        case .token: return .builtin("Swift.String")
        case .query, .procedure, .subscription, .permissionSet, .permission:
            return .builtin("XRPCCore.LexiconUnknownValue")
        default: return .declared(qualified)
        }
    }

    func planUnion(_ refs: [DefReference], closed: Bool, name: String, qualifiedName: String, node: SchemaNode)
        -> UnionModel
    {
        var members: [UnionMemberModel] = []
        var seen: Set<DefReference> = []
        for reference in refs where seen.insert(reference).inserted {
            let isToken: Bool
            if case .token? = graph.def(reference)?.schema.kind { isToken = true } else { isToken = false }
            let type: TypeReference = isToken ? .builtin("XRPCCore.LexiconUnknownValue") : referenceType(reference)
            members.append(
                UnionMemberModel(
                    caseName: SwiftNaming.unionCaseName(reference),
                    type: type,
                    typeID: reference.description,
                    alternativeTypeIDs: reference.name == "main" ? [reference.nsid + "#main"] : []
                )
            )
        }
        return UnionModel(
            name: name,
            qualifiedName: qualifiedName,
            documentation: Self.documentation(node.description),
            members: members,
            isClosed: closed,
            schemaPath: node.location.jsonPath
        )
    }

    func planStringValues(_ string: StringSchema, name: String, documentation: [String], node: SchemaNode)
        -> StringValuesModel
    {
        var scope = NameScope(reserved: SwiftNaming.reservedMemberNames.union(["rawValue", "allowedValues"]))
        let isClosed = string.enumValues != nil
        // A value written as a local ref (`#happy`) names a token of this document: its value is the
        // token's full name, as data carries it.
        let nsid = String(node.location.jsonPath.prefix { $0 != "#" })
        let values = (isClosed ? (string.enumValues ?? []) : string.knownValues).map { value in
            guard value.hasPrefix("#"),
                case .token? = graph.documents[nsid]?.def(named: String(value.dropFirst()))?.schema.kind
            else { return value }
            return nsid + value
        }
        var constants: [(name: String, value: String)] = []
        var seen: Set<String> = []
        for value in values where seen.insert(value).inserted {
            constants.append((SwiftNaming.escaped(scope.claim(SwiftNaming.valueConstantName(value))), value))
        }
        return StringValuesModel(
            name: name, documentation: documentation, values: constants, isClosed: isClosed,
            schemaPath: node.location.jsonPath)
    }

    /// A schema's `default` as a Swift literal, for integer, boolean and string schemas.
    static func defaultLiteral(_ node: SchemaNode) -> String? {
        switch node.kind {
        case .integer(let integer): return integer.defaultValue.map(String.init)
        case .boolean(let defaultValue, _): return defaultValue.map { $0 ? "true" : "false" }
        case .string(let string): return string.defaultValue?.swiftLiteral
        default: return nil
        }
    }

    /// The runtime type of a string format.
    static func formatType(_ format: String?) -> String {
        switch format {
        case "did": return "XRPCCore.DID"
        case "handle": return "XRPCCore.ATHandle"
        case "nsid": return "XRPCCore.NSID"
        case "at-uri": return "XRPCCore.ATURI"
        case "at-identifier": return "XRPCCore.ATIdentifier"
        case "tid": return "XRPCCore.TID"
        case "record-key": return "XRPCCore.RecordKey"
        case "datetime": return "XRPCCore.LexiconDatetime"
        case "cid": return "XRPCCore.CIDString"
        case "language": return "XRPCCore.LexiconLanguageTag"
        case "uri": return "XRPCCore.URIString"
        default: return "Swift.String"
        }
    }

    /// Doc comment lines from a lexicon description.
    static func documentation(_ description: String?) -> [String] {
        guard let description, !description.isEmpty else { return [] }
        return description.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    }

    /// Doc comment lines that state a node's facts: its constraints, default, format, known values,
    /// accepted blob types. Generated doc comments are made from these where a lexicon gives no
    /// description (the SDK's lexicons are committed without them).
    static func constraintDocs(_ node: SchemaNode) -> [String] {
        var parts: [String] = []
        func list<T>(_ values: [T], _ quoted: Bool = true) -> String {
            let shown = values.prefix(12).map { quoted ? "`\"\($0)\"`" : "`\($0)`" }
            return shown.joined(separator: ", ") + (values.count > 12 ? ", and \(values.count - 12) more" : "")
        }
        switch node.kind {
        case .string(let string):
            if let value = string.format { parts.append("Format: `\(value)`.") }
            if let value = string.defaultValue { parts.append("Default: `\"\(value)\"`.") }
            if let value = string.constValue { parts.append("Always `\"\(value)\"`.") }
            if let values = string.enumValues, !values.isEmpty { parts.append("One of \(list(values)).") }
            if !string.knownValues.isEmpty { parts.append("Known values: \(list(string.knownValues)).") }
            if let value = string.minLength { parts.append("At least \(value) UTF-8 bytes.") }
            if let value = string.maxLength { parts.append("At most \(value) UTF-8 bytes.") }
            if let value = string.minGraphemes { parts.append("At least \(value) graphemes.") }
            if let value = string.maxGraphemes { parts.append("At most \(value) graphemes.") }
        case .integer(let integer):
            if let value = integer.defaultValue { parts.append("Default: `\(value)`.") }
            if let value = integer.constValue { parts.append("Always `\(value)`.") }
            if let values = integer.enumValues, !values.isEmpty { parts.append("One of \(list(values, false)).") }
            switch (integer.minimum, integer.maximum) {
            case (let low?, let high?): parts.append("From \(low) to \(high).")
            case (let low?, nil): parts.append("At least \(low).")
            case (nil, let high?): parts.append("At most \(high).")
            case (nil, nil): break
            }
        case .boolean(let defaultValue, let constValue):
            if let defaultValue { parts.append("Default: `\(defaultValue)`.") }
            if let constValue { parts.append("Always `\(constValue)`.") }
        case .bytes(let minLength, let maxLength):
            if let minLength { parts.append("At least \(minLength) bytes.") }
            if let maxLength { parts.append("At most \(maxLength) bytes.") }
        case .blob(let accept, let maxSize):
            if let accept, !accept.isEmpty { parts.append("Accepts \(list(accept, false)).") }
            if let maxSize { parts.append("At most \(maxSize) bytes.") }
        case .array(_, let minLength, let maxLength):
            if let minLength { parts.append("At least \(minLength) items.") }
            if let maxLength { parts.append("At most \(maxLength) items.") }
        case .union(let refs, let closed):
            let members = list(refs.map(\.description), false)
            parts.append(
                closed ? "Closed union of \(members)." : "Open union of \(members); other types are kept as read.")
        default:
            break
        }
        guard !parts.isEmpty else { return [] }
        return [parts.joined(separator: " ")]
    }

    /// A field's doc comment lines: its description, or a sentence naming the field and its presence,
    /// then its facts.
    static func fieldDocs(
        _ property: (name: String, schema: SchemaNode), isRequired: Bool, isNullable: Bool
    ) -> [String] {
        var lines = documentation(property.schema.description)
        if lines.isEmpty {
            let presence =
                isRequired
                ? (isNullable ? "required, may be null" : "required")
                : (isNullable ? "optional, may be null" : "optional")
            lines = ["The `\(property.name)` field (\(presence))."]
        }
        return lines + constraintDocs(property.schema)
    }
}
