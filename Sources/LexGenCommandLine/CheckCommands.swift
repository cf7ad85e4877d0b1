import Foundation
import LexGenKit
import LexGenSchema

/// `lexgen lint <folder>... [--import Module=folder] [--strict]`
enum LintCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: ["--import"], flagOptions: ["--strict"])
        guard !parsed.positional.isEmpty else { throw UsageError("give at least one lexicon folder to lint") }
        let sources = try parsed.positional.flatMap { try LexiconFileSystem.sources(in: $0) }
        let imports = try (parsed.allValues["--import"] ?? []).map(importedModule)
        let log = LexiconLinter.lint(sources, imports: imports)
        for diagnostic in log.all { printError(diagnostic.description) }
        print("lexgen lint: \(sources.count) files, \(log.warningCount) warnings, \(log.errorCount) errors")
        let failed = log.hasErrors || (parsed.flags.contains("--strict") && log.warningCount > 0)
        return failed ? 1 : 0
    }
}

/// `lexgen breaking <old-folder> <new-folder>`
enum BreakingCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: [], flagOptions: [])
        guard parsed.positional.count == 2 else {
            throw UsageError("give the old and the new lexicon folder: lexgen breaking <old> <new>")
        }
        var log = DiagnosticLog()
        let versions = try parsed.positional.map { folder in
            try LexiconFileSystem.sources(in: folder).compactMap {
                LexiconLoader.load(path: $0.displayPath, bytes: $0.bytes, log: &log)
            }
        }
        for diagnostic in log.all { printError(diagnostic.description) }
        guard !log.hasErrors else {
            print("lexgen breaking: the lexicons have errors (above); nothing compared")
            return 1
        }
        let changes = BreakingChanges.find(old: versions[0], new: versions[1])
        for change in changes { printError(change.description) }
        print(
            "lexgen breaking: \(changes.count) breaking changes from \(parsed.positional[0]) to \(parsed.positional[1])"
        )
        return changes.isEmpty ? 0 : 1
    }
}

/// Reads `Module=folder`, or `Module=<path>/lexgen.json`: the lexicons that module's config names,
/// and its `include` and `exclude` (modules generated from parts of one lexicon folder).
package func importedModule(_ value: String) throws -> LexiconImport {
    guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
        throw UsageError("--import takes Module=folder, not '\(value)'")
    }
    let moduleName = String(value[..<equals])
    let path = String(value[value.index(after: equals)...])
    guard (path as NSString).lastPathComponent == "lexgen.json" else {
        return LexiconImport(moduleName: moduleName, sources: try LexiconFileSystem.sources(in: path))
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("cannot read the config file \(path) of --import \(moduleName)")
    }
    var log = DiagnosticLog()
    guard let config = LexGenConfig.parse([UInt8](data), path: path, log: &log) else {
        throw UsageError(log.all.map(\.description).joined(separator: "\n"))
    }
    let folder = (path as NSString).deletingLastPathComponent
    func relative(_ path: String) -> String { path.hasPrefix("/") || folder.isEmpty ? path : folder + "/" + path }
    let lexicons = config.lexicons.map(relative) ?? folder
    var sources = try LexiconFileSystem.sources(in: lexicons.isEmpty ? "." : lexicons)
    // With a manifest, only the module's own part of the folder is loaded (its build verifies the files).
    if let manifest = config.manifest,
        let read = try? LexiconManifest(contentsOf: URL(fileURLWithPath: relative(manifest)))
    {
        sources = read.sources(sources, selectedBy: config.include, exclude: config.exclude)
    }
    return LexiconImport(moduleName: moduleName, sources: sources, include: config.include, exclude: config.exclude)
}
