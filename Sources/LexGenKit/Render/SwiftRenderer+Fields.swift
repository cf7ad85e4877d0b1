/// A struct's stored fields and its initializers.
extension SwiftRenderer {
    /// A field's property. A boxed field (``OutOfLineStorage``) is a computed property over its box,
    /// stored beside it under the name a property wrapper would give it (`_post`): what
    /// `@XRPCCore._LexiconBoxed` expands to, written out because the compiler refuses a property
    /// wrapper in a type marked `nonisolated` (``GeneratedIsolation``).
    func renderProperty(_ field: FieldModel, into writer: inout CodeWriter) {
        let type = Self.propertyType(field)
        guard field.isBoxed else {
            writer.line("\(access)var \(field.swiftName): \(type)")
            return
        }
        let storage = Self.boxStorageName(field)
        let box =
            type.hasSuffix("?")
            ? "XRPCCore._LexiconBoxedOptional<\(type.dropLast())>" : "XRPCCore._LexiconBoxed<\(type)>"
        writer.line(
            "\(access)var \(field.swiftName): \(type) "
                + "{ get { \(storage).wrappedValue } set { \(storage).wrappedValue = newValue } }")
        writer.line("private var \(storage): \(box)")
    }

    /// The stored box of a boxed field: `_` and the field's name, without keyword backticks.
    static func boxStorageName(_ field: FieldModel) -> String {
        "_" + field.swiftName.filter { $0 != "`" }
    }

    /// The statement that initializes a field with `value`: through its box when it is boxed (a
    /// computed property cannot be set before every stored property is).
    static func assignment(_ field: FieldModel, _ value: String) -> String {
        field.isBoxed
            ? "self.\(boxStorageName(field)) = .init(wrappedValue: \(value))" : "self.\(field.swiftName) = \(value)"
    }

    func renderInitializers(_ model: StructModel, into writer: inout CodeWriter) {
        var arguments = model.fields.map { field in
            "\(field.swiftName): \(Self.propertyType(field))\(field.argumentDefault.map { " = \($0)" } ?? "")"
        }
        arguments.append("unknownFields: [Swift.String: XRPCCore.JSONValue] = [:]")
        writer.line("/// Creates a value from its fields.")
        writer.block("\(access)init(\(arguments.joined(separator: ", ")))") { body in
            for field in model.fields {
                body.line(Self.assignment(field, field.swiftName))
            }
            body.line("self.unknownFields = unknownFields")
        }
        let hasDefaulted = model.fields.contains(where: \.isDefaulted)
        writer.line("")
        writer.block("\(runtimeAccess)init(reading reader: inout XRPCCore.LexiconObjectReader) throws") { body in
            if hasDefaulted { body.line("var absentDefaults: Swift.Set<Swift.String> = []") }
            for field in model.fields {
                let key = field.jsonKey.swiftLiteral
                if field.isDefaulted, let literal = field.defaultLiteral {
                    body.line(
                        Self.assignment(
                            field, "try reader.optional(\(key), default: \(literal), absentKeys: &absentDefaults)"))
                    continue
                }
                let read: String
                switch (field.isRequired, field.isNullable) {
                case (true, false): read = "required"
                case (true, true): read = "requiredNullable"
                case (false, false): read = "optional"
                case (false, true): read = "optionalNullable"
                }
                body.line(Self.assignment(field, "try reader.\(read)(\(key))"))
            }
            if hasDefaulted { body.line("self.absentDefaults = absentDefaults") }
            body.line("self.unknownFields = reader.remainingFields")
        }
        writer.line("")
        writer.block("\(runtimeAccess)func write(to writer: inout XRPCCore.LexiconObjectWriter)") { body in
            for field in model.fields {
                let key = field.jsonKey.swiftLiteral
                if field.isDefaulted, let literal = field.defaultLiteral {
                    body.line(
                        "writer.write(\(key), \(field.swiftName), default: \(literal), absentKeys: absentDefaults)")
                    continue
                }
                let write = field.isRequired && field.isNullable ? "writeNullable" : "write"
                body.line("writer.\(write)(\(key), \(field.swiftName))")
            }
            body.line("writer.writeUnknown(unknownFields)")
        }
    }

}
