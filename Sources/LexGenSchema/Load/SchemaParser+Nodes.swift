extension SchemaParser {
    /// Parses one schema node standing at `position`; `nil` (with an error) when it cannot be used.
    mutating func parseNode(_ json: JSONNode, path: String, position: SchemaPosition) -> SchemaNode? {
        guard json.objectFields != nil else {
            error("a schema must be an object, found \(json.kindName)", json, path)
            return nil
        }
        guard let typeNode = json["type"] else {
            error("missing \"type\"", json, path)
            return nil
        }
        guard let type = typeNode.stringValue else {
            error("\"type\" must be a string, found \(typeNode.kindName)", typeNode, path + "/type")
            return nil
        }
        guard position.allowedKinds.contains(type) else {
            if Self.knownKinds.contains(type) {
                error("type \"\(type)\" is not allowed \(position.label)", typeNode, path + "/type")
            } else {
                error("unknown type \"\(type)\"", typeNode, path + "/type")
            }
            return nil
        }
        guard let kind = parseKind(type, json, path: path) else { return nil }
        return SchemaNode(kind: kind, description: json["description"]?.stringValue, location: location(json, path))
    }

    static let knownKinds: Set<String> = [
        "boolean", "integer", "string", "bytes", "cid-link", "blob", "unknown", "array", "object", "params", "token",
        "ref", "union", "record", "query", "procedure", "subscription", "permission-set", "permission",
    ]

    private mutating func parseKind(_ type: String, _ json: JSONNode, path: String) -> SchemaKind? {
        switch type {
        case "boolean":
            return .boolean(defaultValue: bool(json, "default", path), constValue: bool(json, "const", path))
        case "integer":
            return .integer(
                IntegerSchema(
                    minimum: int(json, "minimum", path),
                    maximum: int(json, "maximum", path),
                    enumValues: intArray(json, "enum", path),
                    constValue: int(json, "const", path),
                    defaultValue: int(json, "default", path)
                )
            )
        case "string":
            return .string(parseString(json, path: path))
        case "bytes":
            return .bytes(minLength: int(json, "minLength", path), maxLength: int(json, "maxLength", path))
        case "cid-link":
            return .cidLink
        case "blob":
            return .blob(accept: stringArray(json, "accept", path), maxSize: int(json, "maxSize", path))
        case "unknown":
            return .unknown
        case "token":
            return .token
        case "permission-set", "permission":
            return type == "permission" ? .permission : .permissionSet
        case "array":
            guard let itemsNode = json["items"] else {
                error("array needs \"items\"", json, path)
                return nil
            }
            guard let items = parseNode(itemsNode, path: path + "/items", position: .arrayItem) else { return nil }
            return .array(
                items: items, minLength: int(json, "minLength", path), maxLength: int(json, "maxLength", path))
        case "object":
            return parseObject(json, path: path, propertyPosition: .property).map(SchemaKind.object)
        case "params":
            return parseObject(json, path: path, propertyPosition: .paramsProperty).map(SchemaKind.params)
        case "ref":
            guard let refNode = json["ref"], let text = refNode.stringValue else {
                error("ref needs a string \"ref\"", json["ref"] ?? json, path)
                return nil
            }
            guard let reference = reference(text, refNode, path + "/ref") else { return nil }
            return .ref(reference)
        case "union":
            guard let refsNode = json["refs"], let items = refsNode.arrayItems else {
                error("union needs a \"refs\" array", json["refs"] ?? json, path)
                return nil
            }
            var refs: [DefReference] = []
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue else {
                    error("union refs must be strings", item, "\(path)/refs/\(index)")
                    continue
                }
                if let reference = reference(text, item, "\(path)/refs/\(index)") { refs.append(reference) }
            }
            return .union(refs: refs, closed: bool(json, "closed", path) ?? false)
        case "record":
            let key = json["key"]?.stringValue
            if key == nil { warning("record has no \"key\"; assuming \"any\"", json, path) }
            guard let objectNode = json["record"] else {
                error("record needs a \"record\" object schema", json, path)
                return nil
            }
            guard let object = parseNode(objectNode, path: path + "/record", position: .recordObject) else {
                return nil
            }
            return .record(key: key, object: object)
        case "query", "procedure", "subscription":
            guard let endpoint = parseEndpoint(json, path: path, type: type) else { return nil }
            switch type {
            case "query": return .query(endpoint)
            case "procedure": return .procedure(endpoint)
            default: return .subscription(endpoint)
            }
        default:
            error("unknown type \"\(type)\"", json, path)
            return nil
        }
    }

    private mutating func parseString(_ json: JSONNode, path: String) -> StringSchema {
        var schema = StringSchema()
        schema.format = string(json, "format", path)
        schema.knownValues = stringArray(json, "knownValues", path) ?? []
        schema.enumValues = stringArray(json, "enum", path)
        schema.constValue = string(json, "const", path)
        schema.defaultValue = string(json, "default", path)
        schema.minLength = int(json, "minLength", path)
        schema.maxLength = int(json, "maxLength", path)
        schema.minGraphemes = int(json, "minGraphemes", path)
        schema.maxGraphemes = int(json, "maxGraphemes", path)
        if let format = schema.format, !Self.knownFormats.contains(format), let node = json["format"] {
            warning("unknown string format \"\(format)\"; treated as a plain string", node, path + "/format")
        }
        return schema
    }

    static let knownFormats: Set<String> = [
        "at-identifier", "at-uri", "cid", "datetime", "did", "handle", "nsid", "tid", "record-key", "uri", "language",
    ]

    private mutating func parseObject(
        _ json: JSONNode,
        path: String,
        propertyPosition: SchemaPosition
    ) -> ObjectSchema? {
        var object = ObjectSchema(properties: [], required: [], nullable: [])
        if let propertiesNode = json["properties"] {
            guard let fields = propertiesNode.objectFields else {
                error("\"properties\" must be an object", propertiesNode, path + "/properties")
                return nil
            }
            for (name, node) in fields {
                let propertyPath = "\(path)/properties/\(name)"
                if let schema = parseNode(node, path: propertyPath, position: propertyPosition) {
                    object.properties.append((name, schema))
                }
            }
        }
        let names = Set(object.properties.map(\.name))
        var requiredOrder: [String] = []
        for (key, label) in [("required", "required"), ("nullable", "nullable")] {
            guard let list = stringArray(json, key, path) else { continue }
            for name in list where !names.contains(name) {
                if let node = json[key] {
                    warning("\(label) names \"\(name)\", which is not a property", node, "\(path)/\(key)")
                }
            }
            if key == "required" {
                object.required = Set(list)
                requiredOrder = list
            } else {
                object.nullable = Set(list)
            }
        }
        object.requiredOrder = requiredOrder
        return object
    }

    private mutating func parseEndpoint(_ json: JSONNode, path: String, type: String) -> EndpointSchema? {
        var endpoint = EndpointSchema()
        if let parametersNode = json["parameters"] {
            endpoint.parameters = parseNode(parametersNode, path: path + "/parameters", position: .parameters)
        }
        if type == "subscription" {
            if let messageNode = json["message"] {
                if let schemaNode = messageNode["schema"] {
                    endpoint.message = parseNode(schemaNode, path: path + "/message/schema", position: .message)
                } else {
                    error("subscription message needs a \"schema\"", messageNode, path + "/message")
                }
            }
            if let subprotocolNode = json["subprotocol"] {
                if let subprotocol = subprotocolNode.stringValue, subprotocol == "xrpc.v1.json" {
                    endpoint.subprotocol = subprotocol
                } else {
                    error(
                        "unsupported subscription \"subprotocol\": only \"xrpc.v1.json\" (JSON frames) is known",
                        subprotocolNode, path + "/subprotocol")
                }
            }
        } else {
            if let inputNode = json["input"], type == "procedure" {
                endpoint.input = parseBody(inputNode, path: path + "/input")
            } else if let inputNode = json["input"] {
                error("a query cannot have an input", inputNode, path + "/input")
            }
            if let outputNode = json["output"] {
                endpoint.output = parseBody(outputNode, path: path + "/output")
            }
        }
        if let errorsNode = json["errors"] {
            for (index, item) in (errorsNode.arrayItems ?? []).enumerated() {
                guard let name = item["name"]?.stringValue, !name.isEmpty else {
                    error("each error needs a string \"name\"", item, "\(path)/errors/\(index)")
                    continue
                }
                endpoint.errors.append(ErrorSchema(name: name, description: item["description"]?.stringValue))
            }
        }
        return endpoint
    }

    private mutating func parseBody(_ json: JSONNode, path: String) -> BodySchema? {
        guard let encoding = json["encoding"]?.stringValue else {
            error("a body needs a string \"encoding\"", json, path)
            return nil
        }
        var body = BodySchema(encoding: encoding, schema: nil)
        if let schemaNode = json["schema"] {
            body.schema = parseNode(schemaNode, path: path + "/schema", position: .body)
        }
        return body
    }

    private mutating func reference(_ text: String, _ node: JSONNode, _ path: String) -> DefReference? {
        guard let reference = DefReference(parsing: text, in: documentID) else {
            error("\"\(text)\" is not a valid ref (expected #def, nsid or nsid#def)", node, path)
            return nil
        }
        return reference
    }
}
