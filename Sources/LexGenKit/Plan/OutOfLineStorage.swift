/// Decides, in one place for the whole set of files, which values are stored out of line.
///
/// Every union is an `indirect` enum and every struct field that holds another generated struct is
/// boxed (a computed property over a stored `XRPCCore._LexiconBoxed` / `XRPCCore._LexiconBoxedOptional`).
/// Users read and write these fields as usual. Two reasons, both measured:
/// - recursion: no struct or union holds another one inline, so no cycle of types (cycles cross
///   files, e.g. `app.bsky.feed.defs#threadViewPost`) can make a type infinitely large;
/// - compile time and code size: a struct that holds other structs inline copies, assigns and
///   destroys all of their fields in its own value witnesses, so those grow with the whole tree of
///   nested types (`feedViewPost` -> `postView` -> `profileViewBasic` -> ...). Boxed, each type's
///   witnesses only touch its own fields: the generated SDK's object code halves and its debug build
///   is about 10% faster, for one allocation per nested object when decoding.
enum OutOfLineStorage {
    static func apply(to files: inout [FileModel]) {
        var structs: Set<String> = []
        var aliases: [String: TypeReference] = [:]
        for file in files {
            for declaration in file.declarations {
                collect(declaration, container: nil, structs: &structs, aliases: &aliases)
            }
        }
        let layout = Layout(structs: structs, aliases: aliases)
        for fileIndex in files.indices {
            files[fileIndex].declarations = files[fileIndex].declarations.map(layout.apply)
        }
    }

    private static func collect(
        _ model: TypeModel, container: String?, structs: inout Set<String>, aliases: inout [String: TypeReference]
    ) {
        let qualify = { (name: String) in container.map { $0 + "." + name } ?? name }
        let nested: [TypeModel]
        let nestedContainer: String
        switch model {
        case .structure(let structure):
            structs.insert(structure.qualifiedName)
            nested = structure.nested
            nestedContainer = structure.qualifiedName
        case .namespace(let namespace):
            nested = namespace.nested
            nestedContainer = qualify(namespace.name)
        case .token(let token):
            nested = token.nested
            nestedContainer = qualify(token.name)
        case .stringValues(let values):
            nested = values.nested
            nestedContainer = qualify(values.name)
        case .alias(let name, let target, _):
            aliases[qualify(name)] = target
            return
        case .union:
            return
        }
        for declaration in nested {
            collect(declaration, container: nestedContainer, structs: &structs, aliases: &aliases)
        }
    }

    private struct Layout {
        var structs: Set<String>
        var aliases: [String: TypeReference]

        /// Whether a field of this type holds a generated struct of this set (through aliases).
        func holdsStruct(_ type: TypeReference) -> Bool {
            var current = type
            for _ in 0..<64 {
                guard case .declared(let name) = current else { return false }
                if structs.contains(name) { return true }
                guard let target = aliases[name] else { return false }
                current = target
            }
            return false
        }

        func apply(_ model: TypeModel) -> TypeModel {
            switch model {
            case .structure(var structure):
                for index in structure.fields.indices where holdsStruct(structure.fields[index].type) {
                    structure.fields[index].isBoxed = true
                }
                structure.nested = structure.nested.map(apply)
                return .structure(structure)
            case .union(var union):
                union.isIndirect = true
                return .union(union)
            case .namespace(var namespace):
                namespace.nested = namespace.nested.map(apply)
                return .namespace(namespace)
            case .token(var token):
                token.nested = token.nested.map(apply)
                return .token(token)
            case .stringValues(var values):
                values.nested = values.nested.map(apply)
                return .stringValues(values)
            case .alias:
                return model
            }
        }
    }
}
