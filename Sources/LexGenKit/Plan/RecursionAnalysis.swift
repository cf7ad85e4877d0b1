/// Finds the cycles of value types across all files and breaks each one: unions on a cycle become
/// `indirect`, and struct fields are boxed only where a cycle remains without passing through such a
/// union. Decided here, in one place, for the whole set.
enum RecursionAnalysis {
    static func breakCycles(in files: inout [FileModel]) {
        var index = TypeIndex()
        for file in files {
            for declaration in file.declarations { index.add(declaration, container: nil) }
        }
        index.resolveEdges()
        // First make the unions on a cycle `indirect`: invisible to users, and it breaks most cycles.
        var indirectUnions: Set<String> = []
        for component in index.stronglyConnectedComponents(skippingEdgesFrom: []) {
            let members = Set(component)
            for name in component where index.isUnion(name) {
                if (index.edges[name] ?? []).contains(where: { members.contains($0.target) }) {
                    indirectUnions.insert(name)
                }
            }
        }
        // Then box only the struct fields of the cycles that remain without those unions' edges.
        var boxedFields: Set<String> = []
        for component in index.stronglyConnectedComponents(skippingEdgesFrom: indirectUnions) {
            let members = Set(component)
            for name in component {
                for edge in index.edges[name] ?? [] where members.contains(edge.target) {
                    if let field = edge.field { boxedFields.insert(name + "/" + field) }
                }
            }
        }
        guard !boxedFields.isEmpty || !indirectUnions.isEmpty else { return }
        for fileIndex in files.indices {
            files[fileIndex].declarations = files[fileIndex].declarations.map {
                apply($0, boxedFields: boxedFields, indirectUnions: indirectUnions)
            }
        }
    }

    private static func apply(_ model: TypeModel, boxedFields: Set<String>, indirectUnions: Set<String>) -> TypeModel {
        let recurse = { (nested: [TypeModel]) in
            nested.map { apply($0, boxedFields: boxedFields, indirectUnions: indirectUnions) }
        }
        switch model {
        case .structure(var structure):
            for fieldIndex in structure.fields.indices
            where boxedFields.contains(structure.qualifiedName + "/" + structure.fields[fieldIndex].jsonKey) {
                structure.fields[fieldIndex].isBoxed = true
            }
            structure.nested = recurse(structure.nested)
            return .structure(structure)
        case .union(var union):
            union.isIndirect = indirectUnions.contains(union.qualifiedName)
            return .union(union)
        case .namespace(var namespace):
            namespace.nested = recurse(namespace.nested)
            return .namespace(namespace)
        case .token(var token):
            token.nested = recurse(token.nested)
            return .token(token)
        case .stringValues(var values):
            values.nested = recurse(values.nested)
            return .stringValues(values)
        case .alias:
            return model
        }
    }
}

/// The value-containment graph: which struct or union holds which other one inline (arrays do not count).
private struct TypeIndex {
    struct Edge {
        var target: String
        /// The JSON key of the struct field; `nil` for a union member.
        var field: String?
    }

    var edges: [String: [Edge]] = [:]
    var aliases: [String: TypeReference] = [:]
    private var rawEdges: [(from: String, target: String, field: String?)] = []
    private var nodes: [String] = []
    private var unions: Set<String> = []

    /// Whether a node is a union enum.
    func isUnion(_ name: String) -> Bool { unions.contains(name) }

    mutating func add(_ model: TypeModel, container: String?) {
        let qualify = { (name: String) in container.map { $0 + "." + name } ?? name }
        switch model {
        case .structure(let structure):
            nodes.append(structure.qualifiedName)
            for field in structure.fields {
                if case .declared(let target) = field.type {
                    rawEdges.append((structure.qualifiedName, target, field.jsonKey))
                }
            }
            for nested in structure.nested { add(nested, container: structure.qualifiedName) }
        case .union(let union):
            nodes.append(union.qualifiedName)
            unions.insert(union.qualifiedName)
            for member in union.members {
                if case .declared(let target) = member.type {
                    rawEdges.append((union.qualifiedName, target, nil))
                }
            }
        case .namespace(let namespace):
            for nested in namespace.nested { add(nested, container: qualify(namespace.name)) }
        case .token(let token):
            for nested in token.nested { add(nested, container: qualify(token.name)) }
        case .stringValues(let values):
            for nested in values.nested { add(nested, container: qualify(values.name)) }
        case .alias(let name, let target, _):
            aliases[qualify(name)] = target
        }
    }

    /// Follows aliases to a struct or union name; `nil` for arrays and builtins.
    private func resolve(_ name: String) -> String? {
        var current = name
        var hops = 0
        while let target = aliases[current], hops < 64 {
            guard case .declared(let next) = target else { return nil }
            current = next
            hops += 1
        }
        return current
    }

    /// Binds every recorded edge to its struct or union, through aliases.
    mutating func resolveEdges() {
        for edge in rawEdges {
            if let target = resolve(edge.target) {
                edges[edge.from, default: []].append(Edge(target: target, field: edge.field))
            }
        }
    }

    /// Tarjan's algorithm, iteratively, ignoring the edges out of `excluded`; returns the components
    /// that contain a cycle.
    func stronglyConnectedComponents(skippingEdgesFrom excluded: Set<String>) -> [[String]] {
        var indexOf: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var result: [[String]] = []
        var counter = 0
        for root in nodes.sorted() where indexOf[root] == nil {
            var work: [(node: String, edgeIndex: Int)] = [(root, 0)]
            indexOf[root] = counter
            lowLink[root] = counter
            counter += 1
            stack.append(root)
            onStack.insert(root)
            while let (node, edgeIndex) = work.last {
                let nodeEdges = excluded.contains(node) ? [] : edges[node] ?? []
                if edgeIndex < nodeEdges.count {
                    work[work.count - 1].edgeIndex += 1
                    let target = nodeEdges[edgeIndex].target
                    if indexOf[target] == nil {
                        indexOf[target] = counter
                        lowLink[target] = counter
                        counter += 1
                        stack.append(target)
                        onStack.insert(target)
                        work.append((target, 0))
                    } else if onStack.contains(target) {
                        lowLink[node] = min(lowLink[node] ?? 0, indexOf[target] ?? 0)
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node {
                    lowLink[parent] = min(lowLink[parent] ?? 0, lowLink[node] ?? 0)
                }
                if lowLink[node] == indexOf[node] {
                    var component: [String] = []
                    while let member = stack.popLast() {
                        onStack.remove(member)
                        component.append(member)
                        if member == node { break }
                    }
                    let selfLoop = !excluded.contains(node) && (edges[node] ?? []).contains { $0.target == node }
                    if component.count > 1 || selfLoop { result.append(component) }
                }
            }
        }
        return result
    }
}
