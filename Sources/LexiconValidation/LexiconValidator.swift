import AtprotoData
import Foundation

/// Checks JSON values against lexicon definitions, the way the spec's validation rules say.
///
/// Every constraint is checked: required and nullable fields, kinds, `const`, `enum`, integer ranges,
/// string lengths in UTF-8 bytes and in grapheme clusters, formats, array and bytes lengths, blob
/// `maxSize` and `accept`, union `$type`s (closed unions reject unlisted members), a record's `$type`,
/// and data-model rules for `unknown`. Fields a schema does not declare are ignored, as the spec says.
/// A violation does not stop the check: all of them are reported.
public struct LexiconValidator: Sendable {
    /// Where definitions, and the definitions they ref, are looked up.
    public let catalog: LexiconSchemaCatalog

    /// Creates a validator that resolves definitions in `catalog`.
    public init(catalog: LexiconSchemaCatalog) {
        self.catalog = catalog
    }

    /// Checks `value` against a definition.
    ///
    /// - Parameters:
    ///   - value: The value in its JSON form.
    ///   - definition: `nsid#name` (`nsid` alone means `nsid#main`), optionally followed by a path of
    ///     keys inside the definition: `com.atproto.repo.createRecord#main/input/schema`.
    /// - Throws: ``LexiconValidationError`` with every violation found.
    public func validate(_ value: JSONValue, against definition: String) throws(LexiconValidationError) {
        let found = violations(of: value, against: definition)
        if !found.isEmpty {
            throw LexiconValidationError(definition: definition, violations: found)
        }
    }

    /// The violations of `value` against `definition` (see ``validate(_:against:)``); empty when valid.
    public func violations(of value: JSONValue, against definition: String) -> [LexiconViolation] {
        var walk = ValidationWalk(catalog: catalog)
        walk.checkDefinition(value, definition: definition)
        return walk.violations
    }
}

/// One validation pass: the violations found so far and the path to the value being checked.
struct ValidationWalk {
    let catalog: LexiconSchemaCatalog
    var violations: [LexiconViolation] = []
    private var path: [PathStep] = []
    private var refDepth = 0
    private static let maximumRefDepth = 512

    enum PathStep {
        case key(String)
        case index(Int)
    }

    init(catalog: LexiconSchemaCatalog) {
        self.catalog = catalog
    }

    var pathDescription: String {
        var text = "$"
        for step in path {
            switch step {
            case .key(let key): text += "." + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    mutating func report(_ rule: LexiconRule, _ message: String) {
        violations.append(LexiconViolation(path: pathDescription, rule: rule, message: message))
    }

    mutating func checkDefinition(_ value: JSONValue, definition: String) {
        if let (schema, owner) = catalog.resolvedNode(definition) {
            check(value, schema: schema, in: owner)
            return
        }
        var steps = definition.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            String(Substring($0))
        }
        let reference = LexiconReference(steps.removeFirst(), relativeTo: "")
        guard var schema = catalog.definition(nsid: reference.nsid, name: reference.name) else {
            report(.unresolvedReference, "no definition \(reference) in the lexicon catalog")
            return
        }
        for step in steps {
            guard let inner = schema.objectValue?[step] else {
                report(.unresolvedReference, "definition \(definition) has no \"\(step)\"")
                return
            }
            schema = inner
        }
        catalog.keepResolvedNode(definition, schema, owner: reference)
        check(value, schema: schema, in: reference)
    }

    /// Checks `value` against `schema`, a node of the definition `owner` (refs in it are relative to it).
    mutating func check(_ value: JSONValue, schema: JSONValue, in owner: LexiconReference) {
        guard let fields = schema.objectValue, let type = fields["type"]?.stringValue else {
            report(.unresolvedReference, "the schema of \(owner) has no type here")
            return
        }
        switch type {
        case "record":
            checkRecord(value, schema: fields, in: owner)
        case "object", "params":
            checkObject(value, schema: fields, in: owner)
        case "string": checkString(value, schema: fields)
        case "integer": checkInteger(value, schema: fields)
        case "boolean": checkBoolean(value, schema: fields)
        case "bytes": checkBytes(value, schema: fields)
        case "cid-link": checkLink(value)
        case "blob": checkBlob(value, schema: fields)
        case "unknown": checkUnknown(value)
        case "array": checkArray(value, schema: fields, in: owner)
        case "union": checkUnion(value, schema: fields, in: owner)
        case "ref": checkRef(value, schema: fields, in: owner)
        case "token":
            if value.stringValue == nil { report(.type, "expected a token string, found \(value.kindName)") }
        default:
            report(.type, "\(owner) is a \(type) definition, which has no data form")
        }
    }

    mutating func at(_ step: PathStep, _ body: (inout ValidationWalk) -> Void) {
        path.append(step)
        body(&self)
        path.removeLast()
    }

    private mutating func checkRecord(_ value: JSONValue, schema: [String: JSONValue], in owner: LexiconReference) {
        guard let fields = value.objectValue else {
            report(.type, "expected a record object, found \(value.kindName)")
            return
        }
        if fields["$type"]?.stringValue != owner.nsid {
            let found = fields["$type"].map { $0.stringValue.map { "\"\($0)\"" } ?? $0.kindName } ?? "none"
            report(.recordType, "a record's $type must be \"\(owner.nsid)\"; found \(found)")
        }
        guard let body = schema["record"] else {
            report(.unresolvedReference, "record \(owner) has no \"record\" schema")
            return
        }
        check(value, schema: body, in: owner)
    }

    private mutating func checkObject(_ value: JSONValue, schema: [String: JSONValue], in owner: LexiconReference) {
        guard let fields = value.objectValue else {
            report(.type, "expected an object, found \(value.kindName)")
            return
        }
        let properties = schema["properties"]?.objectValue ?? [:]
        // Arrays, not sets: a schema lists a few names, and a set cost a hashed copy on every check.
        let required = schema["required"]?.stringArray ?? []
        let nullable = schema["nullable"]?.stringArray ?? []
        for (key, property) in properties.sorted(by: { $0.key < $1.key }) {
            at(.key(key)) { walk in
                switch fields[key] {
                case nil:
                    if required.contains(key) { walk.report(.required, "required field \"\(key)\" is missing") }
                case .null?:
                    if !nullable.contains(key) { walk.report(.nullable, "\"\(key)\" is null but not nullable") }
                case let item?:
                    walk.check(item, schema: property, in: owner)
                }
            }
        }
        for key in Set(required.filter { properties[$0] == nil && fields[$0] == nil }).sorted() {
            at(.key(key)) { $0.report(.required, "required field \"\(key)\" is missing") }
        }
    }

    private mutating func checkArray(_ value: JSONValue, schema: [String: JSONValue], in owner: LexiconReference) {
        guard case .array(let items) = value else {
            report(.type, "expected an array, found \(value.kindName)")
            return
        }
        checkLength(items.count, schema: schema, unit: "items")
        guard let itemSchema = schema["items"] else { return }
        for (index, item) in items.enumerated() {
            at(.index(index)) { $0.check(item, schema: itemSchema, in: owner) }
        }
    }

    private mutating func checkUnion(_ value: JSONValue, schema: [String: JSONValue], in owner: LexiconReference) {
        guard let fields = value.objectValue else {
            report(.type, "expected a union member object, found \(value.kindName)")
            return
        }
        guard let type = fields["$type"]?.stringValue else {
            report(.unionType, "a union member needs a string $type")
            return
        }
        let member = LexiconReference(type, relativeTo: owner.nsid)
        let listed = (schema["refs"]?.stringArray ?? []).map { LexiconReference($0, relativeTo: owner.nsid) }
        if listed.contains(member) {
            resolve(member) { walk, definition in walk.check(value, schema: definition, in: member) }
        } else if schema["closed"] == .bool(true) {
            let allowed = listed.map(\.description).joined(separator: ", ")
            report(.closedUnion, "the closed union does not allow $type \"\(type)\"; allowed: \(allowed)")
        } else {
            checkDataModel(value)
        }
    }

    private mutating func checkRef(_ value: JSONValue, schema: [String: JSONValue], in owner: LexiconReference) {
        guard let target = schema["ref"]?.stringValue else {
            report(.unresolvedReference, "a ref in \(owner) has no \"ref\" string")
            return
        }
        let reference = LexiconReference(target, relativeTo: owner.nsid)
        resolve(reference) { walk, definition in walk.check(value, schema: definition, in: reference) }
    }

    private mutating func resolve(
        _ reference: LexiconReference,
        _ body: (inout ValidationWalk, JSONValue) -> Void
    ) {
        guard let definition = catalog.definition(nsid: reference.nsid, name: reference.name) else {
            report(.unresolvedReference, "no definition \(reference) in the lexicon catalog")
            return
        }
        guard refDepth < Self.maximumRefDepth else {
            report(.unresolvedReference, "refs nest deeper than \(Self.maximumRefDepth) at \(reference)")
            return
        }
        refDepth += 1
        body(&self, definition)
        refDepth -= 1
    }
}

/// A definition named by a ref: `nsid#name`, with `main` for a bare NSID.
struct LexiconReference: Hashable, CustomStringConvertible {
    var nsid: String
    var name: String

    /// Reads `#name`, `nsid` or `nsid#name`; a local `#name` belongs to `base`.
    init(_ text: String, relativeTo base: String) {
        if let hash = text.firstIndex(of: "#") {
            let prefix = String(text[..<hash])
            nsid = prefix.isEmpty ? base : prefix
            name = String(text[text.index(after: hash)...])
        } else {
            nsid = text
            name = "main"
        }
    }

    var description: String { name == "main" ? nsid : "\(nsid)#\(name)" }
}

extension JSONValue {
    /// The strings of an array of strings; other items are skipped. `nil` when not an array.
    var stringArray: [String]? {
        guard case .array(let items) = self else { return nil }
        return items.compactMap(\.stringValue)
    }
}
