import LexGenSchema

/// `lexgen breaking`: the changes between two versions of a set of lexicons that break data already
/// written or clients already built: lexicons, defs or fields removed, fields made required or no
/// longer nullable, types changed, unions closed or losing members, `knownValues` turned into `enum`,
/// and constraints tightened (lengths, ranges, sizes, MIME types, enum values, formats).
///
/// Each change is a diagnostic at the node of the new version (or of the old one, for a removal).
public enum BreakingChanges {
    /// The breaking changes from `old` to `new`, in NSID order.
    public static func find(old: [LexiconDocument], new: [LexiconDocument]) -> [Diagnostic] {
        let newByID = Dictionary(new.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var found = Comparison()
        for oldDocument in old.sorted(by: { $0.id < $1.id }) {
            guard let newDocument = newByID[oldDocument.id] else {
                found.report(
                    "lexicon \(oldDocument.id) was removed", at: SourceLocation(file: oldDocument.path, jsonPath: "id"))
                continue
            }
            for oldDef in oldDocument.defs {
                guard let newDef = newDocument.def(named: oldDef.name) else {
                    found.report("def \(oldDocument.id)#\(oldDef.name) was removed", at: oldDef.schema.location)
                    continue
                }
                found.compare(oldDef.schema, newDef.schema)
            }
        }
        return found.diagnostics
    }
}

private struct Comparison {
    var diagnostics: [Diagnostic] = []

    mutating func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.error, "breaking: " + message, at: location))
    }

    mutating func compare(_ old: SchemaNode, _ new: SchemaNode) {
        let at = new.location
        switch (old.kind, new.kind) {
        case (.string(let before), .string(let after)):
            compareString(before, after, at: at)
        case (.integer(let before), .integer(let after)):
            tightened("minimum", before.minimum, after.minimum, raising: true, at: at)
            tightened("maximum", before.maximum, after.maximum, raising: false, at: at)
            removedValues(
                before.enumValues.map { $0.map(String.init) }, after.enumValues.map { $0.map(String.init) }, at: at)
            if after.constValue != nil && after.constValue != before.constValue { report("const changed", at: at) }
        case (.boolean(_, let before), .boolean(_, let after)):
            if after != nil && after != before { report("const changed", at: at) }
        case (.bytes(let minBefore, let maxBefore), .bytes(let minAfter, let maxAfter)):
            tightened("minLength", minBefore, minAfter, raising: true, at: at)
            tightened("maxLength", maxBefore, maxAfter, raising: false, at: at)
        case (.blob(let acceptBefore, let sizeBefore), .blob(let acceptAfter, let sizeAfter)):
            tightened("maxSize", sizeBefore, sizeAfter, raising: false, at: at)
            if let acceptAfter, !(acceptBefore ?? ["*/*"]).allSatisfy({ covered($0, by: acceptAfter) }) {
                report("accept narrowed from \(acceptBefore ?? ["*/*"]) to \(acceptAfter)", at: at)
            }
        case (.array(let itemsBefore, let minBefore, let maxBefore), .array(let itemsAfter, let minAfter, let maxAfter)):
            tightened("minLength", minBefore, minAfter, raising: true, at: at)
            tightened("maxLength", maxBefore, maxAfter, raising: false, at: at)
            compare(itemsBefore, itemsAfter)
        case (.object(let before), .object(let after)), (.params(let before), .params(let after)):
            compareObject(before, after, at: at)
        case (.record(let keyBefore, let before), .record(let keyAfter, let after)):
            if keyBefore != keyAfter {
                report("record key changed from \(keyBefore ?? "any") to \(keyAfter ?? "any")", at: at)
            }
            compare(before, after)
        case (.ref(let before), .ref(let after)):
            if before != after { report("ref changed from \(before) to \(after)", at: at) }
        case (.union(let refsBefore, let closedBefore), .union(let refsAfter, let closedAfter)):
            if closedAfter && !closedBefore { report("the union was closed", at: at) }
            for reference in refsBefore where !refsAfter.contains(reference) {
                report("union member \(reference) was removed", at: at)
            }
        case (.query(let before), .query(let after)), (.procedure(let before), .procedure(let after)),
            (.subscription(let before), .subscription(let after)):
            compareEndpoint(before, after, at: at)
        default:
            if old.kind.typeName != new.kind.typeName {
                report("type changed from \(old.kind.typeName) to \(new.kind.typeName)", at: at)
            }
        }
    }

    private mutating func compareString(_ before: StringSchema, _ after: StringSchema, at: SourceLocation) {
        if before.enumValues == nil, let values = after.enumValues {
            report("knownValues became a closed enum (\(values.joined(separator: ", ")))", at: at)
        } else {
            removedValues(before.enumValues, after.enumValues, at: at)
        }
        if after.format != nil && after.format != before.format {
            report("format changed from \(before.format ?? "none") to \(after.format ?? "none")", at: at)
        }
        if after.constValue != nil && after.constValue != before.constValue { report("const changed", at: at) }
        tightened("minLength", before.minLength, after.minLength, raising: true, at: at)
        tightened("maxLength", before.maxLength, after.maxLength, raising: false, at: at)
        tightened("minGraphemes", before.minGraphemes, after.minGraphemes, raising: true, at: at)
        tightened("maxGraphemes", before.maxGraphemes, after.maxGraphemes, raising: false, at: at)
    }

    private mutating func compareObject(_ before: ObjectSchema, _ after: ObjectSchema, at: SourceLocation) {
        let newProperties = Dictionary(
            after.properties.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first })
        for (name, schema) in before.properties {
            guard let newSchema = newProperties[name] else {
                report("field \"\(name)\" was removed", at: schema.location)
                continue
            }
            if after.required.contains(name) && !before.required.contains(name) {
                report("field \"\(name)\" was made required", at: newSchema.location)
            }
            if before.nullable.contains(name) && !after.nullable.contains(name) {
                report("field \"\(name)\" is no longer nullable", at: newSchema.location)
            }
            compare(schema, newSchema)
        }
        let oldNames = Set(before.properties.map(\.name))
        for (name, schema) in after.properties where !oldNames.contains(name) && after.required.contains(name) {
            report("required field \"\(name)\" was added", at: schema.location)
        }
    }

    private mutating func compareEndpoint(_ before: EndpointSchema, _ after: EndpointSchema, at: SourceLocation) {
        if let old = before.parameters, let new = after.parameters { compare(old, new) }
        for (name, old, new) in [("input", before.input, after.input), ("output", before.output, after.output)] {
            guard let old else { continue }
            guard let new else {
                report("the \(name) was removed", at: at)
                continue
            }
            if old.encoding != new.encoding {
                report("\(name) encoding changed from \(old.encoding) to \(new.encoding)", at: at)
            }
            if let oldSchema = old.schema, let newSchema = new.schema { compare(oldSchema, newSchema) }
        }
        if let old = before.message, let new = after.message { compare(old, new) }
    }

    /// A limit added, or moved the strict way (`raising`: a minimum going up).
    private mutating func tightened(_ name: String, _ before: Int?, _ after: Int?, raising: Bool, at: SourceLocation) {
        guard let after else { return }
        guard let before else {
            report("\(name) \(after) was added", at: at)
            return
        }
        if raising ? after > before : after < before { report("\(name) tightened from \(before) to \(after)", at: at) }
    }

    private mutating func removedValues(_ before: [String]?, _ after: [String]?, at: SourceLocation) {
        guard let after else { return }
        for value in before ?? [] where !after.contains(value) {
            report("allowed value \"\(value)\" was removed", at: at)
        }
    }

    private func covered(_ pattern: String, by patterns: [String]) -> Bool {
        patterns.contains { $0 == "*/*" || $0 == pattern || ($0.hasSuffix("/*") && pattern.hasPrefix($0.dropLast())) }
    }
}
