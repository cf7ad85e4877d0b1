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
        if problems.isEmpty {
            let own = LexiconInstaller.unpinnedFiles(
                folder: URL(fileURLWithPath: folder), manifest: URL(fileURLWithPath: manifest))
            let note = own.isEmpty ? "" : " (and holds \(own.count) lexicons it does not pin, the project's own)"
            print("lexgen verify: \(folder)/ matches \(manifest)\(note)")
        }
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
        return LexiconInstaller.verify(
            folder: URL(fileURLWithPath: folder),
            manifest: URL(fileURLWithPath: manifest),
            fixCommand: fixCommand(folder: folder, manifest: manifest)
        ).map { "\($0.file.path): error: \($0.message)" }
    }

    /// The command that installs what the manifest pins: `install` alone (with the resolver options the
    /// manifest recorded) when it pins records, so the lexicons come back over atproto, and the folders
    /// of the others from the folder the manifest names; `install --from <folder>` for a manifest made
    /// from a folder alone.
    static func fixCommand(folder: String, manifest: String) -> String {
        let read = try? LexiconManifest(contentsOf: URL(fileURLWithPath: manifest))
        var words = ["swift", "run", "lexgen", "install"]
        if let read, read.pinsRecords {
            words += read.resolver?.arguments ?? []
        } else {
            words += ["--from", read?.source ?? "<the folder holding the lexicons>"]
        }
        if folder != "lexicons" { words += ["--to", folder] }
        if manifest != "lexicons.manifest.json" { words += ["--manifest", manifest] }
        return words.map { $0.hasPrefix("<") ? $0 : shellQuoted($0) }.joined(separator: " ")
    }
}
