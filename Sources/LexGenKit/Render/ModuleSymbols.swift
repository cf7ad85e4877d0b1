/// The names of a generated module's own module-wide declarations, derived from the module's name so
/// that two generated modules imported together never clash.
struct ModuleSymbols: Sendable {
    /// The module name as a Swift identifier.
    var moduleName: String

    init(moduleName: String) {
        let identifier = SwiftNaming.typeName(moduleName)
        self.moduleName = identifier.isEmpty ? "Lexicons" : identifier
    }

    /// The namespace that holds the module's lexicon documents and their catalog.
    var schemasType: String { moduleName + "Schemas" }

    /// The protocol every generated type of the module conforms to: it supplies the module's catalog
    /// to ``XRPCRuntime/LexiconValidatable``.
    var validatableProtocol: String { "_" + moduleName + "Validatable" }

    /// The name of the static property holding one lexicon's document text.
    func documentSymbol(_ file: FileModel) -> String {
        // Type names are unique in a module (clashes are renamed), so this is too.
        let first = file.typeName.prefix(1).lowercased()
        return SwiftNaming.escaped(first + file.typeName.dropFirst())
    }
}
