/// The names of a generated module's own module-wide declarations, derived from the module's name so
/// that two generated modules imported together never clash.
struct ModuleSymbols: Sendable {
    /// The module name as a Swift identifier.
    var moduleName: String
    /// Generated modules this one imports, whose types refs may name.
    var imports: [String]

    init(moduleName: String, imports: [String] = []) {
        self.moduleName = Self.identifier(moduleName)
        self.imports = imports
    }

    private static func identifier(_ moduleName: String) -> String {
        let identifier = SwiftNaming.typeName(moduleName)
        return identifier.isEmpty ? "Lexicons" : identifier
    }

    /// The `import` lines every generated file starts with: the runtime with its `Generated` SPI (object
    /// readers and writers, union helpers), which apps do not see.
    var importLines: [String] {
        ["@_spi(Generated) import XRPCCore"] + imports.map { "import \($0)" }
    }

    /// The catalogs of the imported modules, as expressions.
    var importedCatalogs: [String] {
        imports.map { "\($0).\(Self.identifier($0))Schemas.catalog" }
    }

    /// The namespace that holds the module's lexicon documents and their catalog.
    var schemasType: String { moduleName + "Schemas" }

    /// The validation protocol every generated type conforms to. Each type names the module's catalog
    /// itself (one getter): a module-wide protocol supplying it cost each type a further conformance
    /// (its witness table, instantiation function and accessors), more code than the getter.
    var validatableProtocol: String { "XRPCCore.LexiconValidatable" }

    /// The name of the static property holding one lexicon's document text.
    func documentSymbol(_ file: FileModel) -> String {
        // Type names are unique in a module (clashes are renamed), so this is too.
        let first = file.typeName.prefix(1).lowercased()
        return SwiftNaming.escaped(first + file.typeName.dropFirst())
    }
}
