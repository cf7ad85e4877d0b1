import Foundation
import LexGenKit

/// `lexgen verify`: check installed lexicons against their manifest.
enum VerifyCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: ["--folder", "--manifest"], flagOptions: [])
        guard parsed.positional.isEmpty else { throw UsageError("verify takes no positional arguments") }
        let folder = parsed.options["--folder"] ?? "lexicons"
        let manifest = parsed.options["--manifest"] ?? "lexicons.manifest.json"
        let problems = try ManifestCheck.problems(folders: [folder], manifest: manifest)
        for problem in problems { printError(problem) }
        if problems.isEmpty { print("lexgen verify: \(folder)/ matches \(manifest)") }
        return problems.isEmpty ? 0 : 1
    }
}

/// Verification shared by `verify` and `generate --manifest`.
enum ManifestCheck {
    /// Compiler-style lines, one per problem; empty when the folder matches the manifest.
    static func problems(folders: [String], manifest: String) throws -> [String] {
        guard folders.count == 1, let folder = folders.first else {
            throw UsageError("--manifest works with exactly one lexicon folder")
        }
        // The manifest records the folder it was installed from, so the fix is the exact command.
        let source = (try? LexiconManifest(contentsOf: URL(fileURLWithPath: manifest)))?.source
        var fix = "swift run lexgen install --from \(source ?? "<the folder holding the lexicons>")"
        if folder != "lexicons" { fix += " --to \(folder)" }
        if manifest != "lexicons.manifest.json" { fix += " --manifest \(manifest)" }
        return LexiconInstaller.verify(
            folder: URL(fileURLWithPath: folder),
            manifest: URL(fileURLWithPath: manifest),
            fixCommand: fix
        ).map { "\($0.file.path): error: \($0.message)" }
    }
}
