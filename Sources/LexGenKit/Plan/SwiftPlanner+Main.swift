import LexGenSchema

extension SwiftPlanner {
    /// The document type for a main def that is a type of its own, holding the other defs.
    func planMain(
        _ main: LexiconDef,
        typeName: String,
        document: LexiconDocument,
        scope: inout NameScope,
        defs: [TypeModel]
    ) -> (declaration: TypeModel, method: ClientMethodModel?) {
        let node = main.schema
        let documentation = Self.documentation(node.description)
        switch node.kind {
        case .query(let endpoint), .procedure(let endpoint), .subscription(let endpoint):
            return planEndpoint(main, endpoint: endpoint, typeName: typeName, document: document, defs: defs)
        case .permissionSet:
            let namespace = NamespaceModel(
                name: typeName,
                role: .permissionSet,
                nsid: document.id,
                documentation: documentation,
                nested: defs,
                errors: nil
            )
            return (.namespace(namespace), nil)
        default:
            var planned = planNamedDef(
                main,
                name: typeName,
                qualifiedName: typeName,
                nsid: document.id,
                containerName: typeName,
                scope: &scope
            )
            guard var declaration = planned.popLast() else {
                return (
                    .namespace(
                        NamespaceModel(
                            name: typeName, role: .plain, nsid: document.id, documentation: [], nested: defs,
                            errors: nil)), nil
                )
            }
            switch declaration {
            case .structure(var model):
                model.nested = defs + model.nested
                declaration = .structure(model)
            case .token(var model):
                model.nested = defs
                declaration = .token(model)
            case .stringValues(var model):
                model.nested = defs
                declaration = .stringValues(model)
            default:
                break
            }
            return (declaration, nil)
        }
    }

    private func planEndpoint(
        _ main: LexiconDef,
        endpoint: EndpointSchema,
        typeName: String,
        document: LexiconDocument,
        defs: [TypeModel]
    ) -> (declaration: TypeModel, method: ClientMethodModel?) {
        var nested: [TypeModel] = []
        let role: NamespaceModel.Role
        switch main.schema.kind {
        case .query: role = .query
        case .procedure: role = .procedure
        default: role = .subscription
        }
        var parameterFields: [FieldModel] = []
        if let parameters = endpoint.parameters, case .params(let object) = parameters.kind {
            let model = planStruct(
                object, name: "Parameters", qualifiedName: typeName + ".Parameters", role: .parameters, node: parameters
            )
            parameterFields = model.fields
            nested.append(.structure(model))
        } else {
            nested.append(.alias(name: "Parameters", target: .builtin("XRPCCore.XRPCNoParameters"), documentation: []))
        }
        var inputFields: [FieldModel]?
        if role == .procedure {
            let planned = planBody(endpoint.input, name: "Input", typeName: typeName)
            nested.append(planned.declaration)
            inputFields = planned.fields
        }
        if role == .subscription {
            if let message = endpoint.message {
                var scope = NameScope()
                var inline: [TypeModel] = []
                let type = fieldType(
                    message, inlineName: "Message", scopeName: typeName, scope: &scope, nested: &inline)
                nested += inline
                if inline.isEmpty {
                    nested.append(.alias(name: "Message", target: type, documentation: []))
                }
            } else {
                nested.append(
                    .alias(name: "Message", target: .builtin("XRPCCore.LexiconUnknownValue"), documentation: []))
            }
        } else {
            nested.append(planBody(endpoint.output, name: "Output", typeName: typeName).declaration)
        }
        var errorScope = NameScope(reserved: SwiftNaming.reservedMemberNames.union(["unknown", "name"]))
        let errors = endpoint.errors.map {
            ErrorCaseModel(
                caseName: SwiftNaming.escaped(errorScope.claim(SwiftNaming.bareIdentifier($0.name))),
                wireName: $0.name,
                documentation: Self.documentation($0.description)
            )
        }
        let namespace = NamespaceModel(
            name: typeName,
            role: role,
            nsid: document.id,
            documentation: Self.documentation(main.schema.description),
            nested: nested + defs,
            errors: errors,
            jsonFraming: role == .subscription && endpoint.subprotocol == "xrpc.v1.json"
        )
        let methodName = SwiftNaming.identifier(String(document.id.split(separator: ".").last ?? ""))
        let kind: ClientMethodModel.Kind = role == .query ? .query : role == .procedure ? .procedure : .subscription
        let method = ClientMethodModel(
            kind: kind,
            name: methodName,
            endpointType: typeName,
            documentation: Self.documentation(main.schema.description),
            parameterArguments: parameterFields.map(Self.argument),
            inputArguments: inputFields?.map(Self.argument),
            hasInput: role == .procedure && endpoint.input != nil,
            inputType: typeName + ".Input",
            outputType: kind == .subscription ? "XRPCCore.XRPCEventStream<\(typeName)>" : typeName + ".Output",
            parametersRequireArguments: parameterFields.contains { $0.isRequired }
        )
        return (.namespace(namespace), method)
    }

    private static func argument(_ field: FieldModel) -> ArgumentModel {
        ArgumentModel(
            label: field.swiftName, typeText: SwiftRenderer.propertyType(field), defaultText: field.argumentDefault)
    }

    /// The `Input` or `Output` declaration of an endpoint; `fields` when it is a JSON object.
    private func planBody(_ body: BodySchema?, name: String, typeName: String) -> (
        declaration: TypeModel, fields: [FieldModel]?
    ) {
        guard let body else {
            return (
                .alias(
                    name: name, target: .builtin("XRPCCore.XRPCEmptyBody"),
                    documentation: ["The endpoint declares no \(name.lowercased())."]), nil
            )
        }
        let encodingDoc = ["Encoding: `\(body.encoding)`."]
        guard body.isJSON else {
            return (.alias(name: name, target: .builtin("XRPCCore.XRPCRawBody"), documentation: encodingDoc), nil)
        }
        guard let schema = body.schema else {
            return (
                .alias(name: name, target: .builtin("XRPCCore.LexiconUnknownValue"), documentation: encodingDoc), nil
            )
        }
        switch schema.kind {
        case .object(let object):
            var model = planStruct(
                object, name: name, qualifiedName: typeName + "." + name, role: .object, node: schema)
            if model.documentation.isEmpty { model.documentation = encodingDoc }
            return (.structure(model), model.fields)
        case .union(let refs, let closed):
            let model = planUnion(refs, closed: closed, name: name, qualifiedName: typeName + "." + name, node: schema)
            return (.union(model), nil)
        case .ref(let reference):
            return (.alias(name: name, target: referenceType(reference), documentation: encodingDoc), nil)
        default:
            return (
                .alias(name: name, target: .builtin("XRPCCore.LexiconUnknownValue"), documentation: encodingDoc), nil
            )
        }
    }
}
