extension SwiftRenderer {
    /// A typed client method with labelled arguments, and an overload taking whole values.
    func renderMethod(_ method: ClientMethodModel, into writer: inout CodeWriter) {
        let endpoint = method.endpointType
        let call: String
        let returns: String
        // Every call throws the one error type, whatever failed.
        let throwing = "async throws(XRPCCore.XRPCCallError) -> \(method.outputType)"
        switch method.kind {
        case .query: (call, returns) = ("try await client.query", throwing)
        case .procedure: (call, returns) = ("try await client.procedure", throwing)
        case .subscription: (call, returns) = ("client.subscribe", "-> \(method.outputType)")
        }
        let parameterLabels = Set(method.parameterArguments.map(\.label))
        let inputLabels = Set((method.inputArguments ?? []).map(\.label))
        let canFlatten = parameterLabels.isDisjoint(with: inputLabels)

        if canFlatten {
            var arguments: [String] = []
            if method.hasInput, method.inputArguments == nil {
                arguments.append("_ input: \(method.inputType)")
            }
            arguments += (method.parameterArguments + (method.inputArguments ?? [])).map(Self.declaration)
            let parameters = "parameters: .init(\(Self.forwarding(method.parameterArguments)))"
            var callArguments = "\(endpoint).self, \(parameters)"
            if method.kind == .procedure {
                if let inputArguments = method.inputArguments {
                    callArguments += ", input: .init(\(Self.forwarding(inputArguments)))"
                } else {
                    callArguments += method.hasInput ? ", input: input" : ", input: .init()"
                }
            }
            writer.documentation(
                method.documentation.isEmpty ? ["Calls `\(method.endpointType)`."] : method.documentation)
            writer.block("\(access)func \(method.name)(\(arguments.joined(separator: ", "))) \(returns)") { body in
                body.line("\(call)(\(callArguments))")
            }
        }

        let wholeValueNeeded = !method.parameterArguments.isEmpty || method.inputArguments != nil || !canFlatten
        guard wholeValueNeeded else { return }
        var arguments: [String] = []
        if method.hasInput { arguments.append("_ input: \(method.inputType)") }
        if !method.parameterArguments.isEmpty {
            // A subscription's labelled form already takes no arguments: a default here would make
            // `subscribeRepos()` ambiguous.
            let defaultValue = method.parametersRequireArguments || method.kind == .subscription ? "" : " = .init()"
            let label = method.hasInput ? "parameters" : "_ parameters"
            arguments.append("\(label): \(endpoint).Parameters\(defaultValue)")
        }
        var callArguments =
            "\(endpoint).self, parameters: \(method.parameterArguments.isEmpty ? ".init()" : "parameters")"
        if method.kind == .procedure {
            callArguments += method.hasInput ? ", input: input" : ", input: .init()"
        }
        if canFlatten { writer.line("") }
        var documentation = method.documentation
        if canFlatten,
            let takes = Self.wholeValues(parameters: !method.parameterArguments.isEmpty, input: method.hasInput)
        {
            if !documentation.isEmpty { documentation.append("") }
            documentation.append("This form takes \(takes).")
        }
        writer.documentation(documentation.isEmpty ? ["Calls `\(method.endpointType)`."] : documentation)
        writer.block("\(access)func \(method.name)(\(arguments.joined(separator: ", "))) \(returns)") { body in
            body.line("\(call)(\(callArguments))")
        }
    }

    /// What the whole-value form of a method takes, as its doc comment says it: a query or a
    /// subscription has no input, a procedure may have no parameters.
    static func wholeValues(parameters: Bool, input: Bool) -> String? {
        switch (parameters, input) {
        case (true, true): return "the parameters and the input as whole values"
        case (true, false): return "the parameters as a whole value"
        case (false, true): return "the input as a whole value"
        case (false, false): return nil
        }
    }

    private static func declaration(_ argument: ArgumentModel) -> String {
        "\(argument.label): \(argument.typeText)\(argument.defaultText.map { " = \($0)" } ?? "")"
    }

    private static func forwarding(_ arguments: [ArgumentModel]) -> String {
        arguments.map { "\($0.label): \($0.label)" }.joined(separator: ", ")
    }
}
