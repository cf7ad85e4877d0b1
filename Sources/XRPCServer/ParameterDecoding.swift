import AtprotoData
import XRPCCore

/// How one endpoint's query items become its typed `Parameters`: each value converted to the kind its
/// lexicon declares (the inverse of `XRPCParameters.queryItems`), defaults filled in, the lexicon's
/// constraints checked, then the generated type decoded. Every failure is `InvalidRequest` naming the
/// parameter.
struct ParameterDecoder<Parameters: XRPCParameters>: Sendable {
    /// The kinds the lexicon declares, when `Parameters` carries its lexicon (generated types do).
    let schema: ParameterSchema?
    /// What checks the constraints (ranges, lengths, formats, required): `Parameters` as validatable,
    /// or `nil` when they are not checked. Cast once here rather than on every request (a conformance
    /// lookup in the runtime).
    let validator: (any LexiconValidatable.Type)?
    let maximumItems: Int

    init(validates: Bool, maximumItems: Int) {
        self.schema = ParameterSchema(for: Parameters.self)
        self.validator = validates ? Parameters.self as? any LexiconValidatable.Type : nil
        self.maximumItems = maximumItems
    }

    func decode(query: String) throws(XRPCServerError) -> Parameters {
        let pairs = try QueryString.parse(query, maximumItems: maximumItems)
        guard let schema else { return try decodeUntyped(Self.grouped(pairs)) }
        var fields: [String: JSONValue] = [:]
        fields.reserveCapacity(pairs.count + schema.defaults.count)
        if Self.namesAreDistinct(pairs) {
            // The usual query, each name once: no dictionary of arrays in between.
            for pair in pairs { fields[pair.name] = try schema.value(of: pair.name, from: CollectionOfOne(pair.value)) }
        } else {
            for (name, values) in Self.grouped(pairs) { fields[name] = try schema.value(of: name, from: values) }
        }
        for (name, value) in schema.defaults where fields[name] == nil { fields[name] = value }
        let json = JSONValue.object(fields)
        if let validator {
            do {
                try validator.validate(json: json)
            } catch {
                throw XRPCServerError(.invalidRequest, message: Self.describe(error.violations))
            }
        }
        return try read(json)
    }

    /// The values of each name, in the order sent.
    static func grouped(_ pairs: [(name: String, value: String)]) -> [String: [String]] {
        var grouped: [String: [String]] = [:]
        for pair in pairs { grouped[pair.name, default: []].append(pair.value) }
        return grouped
    }

    /// Whether no name repeats, for a few pairs (compared pairwise); `false` past eight, which then go
    /// through ``grouped(_:)``.
    static func namesAreDistinct(_ pairs: [(name: String, value: String)]) -> Bool {
        guard pairs.count <= 8 else { return false }
        for index in pairs.indices.dropFirst() where pairs[..<index].contains(where: { $0.name == pairs[index].name }) {
            return false
        }
        return true
    }

    /// Without a lexicon: strings as sent (repeated names as arrays), and a value that the type reads
    /// as another kind converted to an integer, a number or a boolean, one field at a time.
    private func decodeUntyped(_ grouped: [String: [String]]) throws(XRPCServerError) -> Parameters {
        var fields: [String: JSONValue] = [:]
        for (name, values) in grouped {
            fields[name] = values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
        }
        var converted: Set<String> = []
        while true {
            do {
                return try Parameters(lexiconJSON: .object(fields))
            } catch let error as LexiconDecodingError {
                guard error.code == .typeMismatch, let name = error.path.first, !converted.contains(name),
                    let value = fields[name], let scalar = ParameterSchema.guessScalar(value)
                else { throw XRPCServerError(.invalidRequest, message: Self.describe(error)) }
                converted.insert(name)
                fields[name] = scalar
            } catch {
                throw XRPCServerError(.invalidRequest, message: "the parameters do not decode: \(error)")
            }
        }
    }

    private func read(_ json: JSONValue) throws(XRPCServerError) -> Parameters {
        do {
            return try Parameters(lexiconJSON: json)
        } catch let error as LexiconDecodingError {
            throw XRPCServerError(.invalidRequest, message: Self.describe(error))
        } catch {
            throw XRPCServerError(.invalidRequest, message: "the parameters do not decode: \(error)")
        }
    }

    static func describe(_ error: LexiconDecodingError) -> String {
        let name = error.path.isEmpty ? "parameters" : error.path.joined(separator: ".")
        return "\(name): \(error.message)"
    }

    /// `limit: must be at most 100` from `$.limit`; several violations joined with `; `.
    static func describe(_ violations: [LexiconViolation]) -> String {
        violations.prefix(5).map { violation in
            var name = violation.path
            if name.hasPrefix("$.") { name.removeFirst(2) }
            return name == "$" ? violation.message : "\(name): \(violation.message)"
        }.joined(separator: "; ")
    }
}

/// The kinds of an endpoint's parameters, read from its lexicon once, at registration.
struct ParameterSchema: Sendable {
    indirect enum Kind: Sendable, Equatable {
        case string, integer, boolean, number, unknown
        case array(Kind)
    }

    var kinds: [String: Kind]
    var defaults: [String: JSONValue]

    /// The schema of `type`'s lexicon node, or `nil` when it has none (not generated, or not found).
    init?(for type: any XRPCParameters.Type) {
        guard let validatable = type as? any LexiconValidatable.Type,
            let node = Self.node(validatable.lexiconDefinition, in: validatable.lexiconCatalog),
            let properties = node["properties"]?.objectValue
        else { return nil }
        var kinds: [String: Kind] = [:]
        var defaults: [String: JSONValue] = [:]
        for (name, property) in properties {
            guard let fields = property.objectValue else { continue }
            kinds[name] = Self.kind(of: fields)
            if let value = fields["default"] { defaults[name] = value }
        }
        self.kinds = kinds
        self.defaults = defaults
    }

    private static func node(_ definition: String, in catalog: LexiconSchemaCatalog) -> [String: JSONValue]? {
        var steps = definition.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !steps.isEmpty else { return nil }
        let head = steps.removeFirst()
        let parts = head.split(separator: "#", maxSplits: 1).map(String.init)
        guard let nsid = parts.first,
            var node = catalog.definition(nsid: nsid, name: parts.count == 2 ? parts[1] : "main")
        else { return nil }
        for step in steps {
            guard let inner = node.objectValue?[step] else { return nil }
            node = inner
        }
        return node.objectValue
    }

    private static func kind(of fields: [String: JSONValue]) -> Kind {
        switch fields["type"]?.stringValue {
        case "integer": return .integer
        case "boolean": return .boolean
        case "number": return .number
        case "string": return .string
        case "array":
            guard let items = fields["items"]?.objectValue else { return .array(.unknown) }
            return .array(kind(of: items))
        default: return .unknown
        }
    }

    /// The JSON value of parameter `name` from its values as sent.
    func value(of name: String, from values: some Collection<String>) throws(XRPCServerError) -> JSONValue {
        guard let kind = kinds[name] else {
            // Not in the lexicon: kept as sent (the generated type keeps it as an unknown field).
            return values.count == 1 ? .string(values[values.startIndex]) : .array(values.map(JSONValue.string))
        }
        if case .array(let element) = kind {
            var items: [JSONValue] = []
            items.reserveCapacity(values.count)
            for (index, text) in values.enumerated() {
                items.append(try Self.scalar(text, kind: element, name: "\(name)[\(index)]"))
            }
            return .array(items)
        }
        guard values.count == 1 else {
            throw XRPCServerError(.invalidRequest, message: "\(name): given \(values.count) times; it takes one value")
        }
        return try Self.scalar(values[values.startIndex], kind: kind, name: name)
    }

    /// `name` is only built for an error message.
    private static func scalar(_ text: String, kind: Kind, name: @autoclosure () -> String) throws(XRPCServerError)
        -> JSONValue
    {
        switch kind {
        case .integer:
            guard let value = Int(text) else {
                throw XRPCServerError(.invalidRequest, message: "\(name()): \(quoted(text)) is not an integer")
            }
            return .integer(value)
        case .boolean:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw XRPCServerError(.invalidRequest, message: "\(name()): \(quoted(text)) is not true or false")
            }
        case .number:
            guard let value = Double(text), value.isFinite else {
                throw XRPCServerError(.invalidRequest, message: "\(name()): \(quoted(text)) is not a number")
            }
            return .number(value)
        case .string, .unknown, .array:
            return .string(text)
        }
    }

    /// The value shown in a message: at most 64 characters, quoted.
    static func quoted(_ text: String) -> String {
        text.count > 64 ? "\"\(text.prefix(64))...\"" : "\"\(text)\""
    }

    /// A string read as an integer, a boolean or a number, for types without a lexicon.
    static func guessScalar(_ value: JSONValue) -> JSONValue? {
        guard case .string(let text) = value else { return nil }
        if let integer = Int(text) { return .integer(integer) }
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        if let number = Double(text), number.isFinite { return .number(number) }
        return nil
    }
}
