import Foundation
import LexGenKit
import LexGenSchema

enum GenerateCommand {
    static let valueOptions: Set<String> = [
        "--output", "--manifest", "--access-level", "--module-name", "--config", "--import", "--include", "--exclude",
        "--invalid-lexicons",
    ]

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: valueOptions, flagOptions: ["--quiet", "--timing"])
        let start = Date()
        guard let setup = try GenerateSetup(parsed) else { return 1 }
        if let manifest = setup.manifest {
            let problems = try ManifestCheck.problems(folders: setup.folders, manifest: manifest)
            if !problems.isEmpty {
                for problem in problems { printError(problem) }
                return 1
            }
        }
        var sources: [LexiconSource] = []
        for folder in setup.folders {
            sources += try LexiconFileSystem.sources(in: folder)
        }
        // The files just matched the manifest, so its NSIDs are theirs: skip loading the excluded ones.
        if let manifest = setup.manifest, let read = try? LexiconManifest(contentsOf: URL(fileURLWithPath: manifest)) {
            sources = read.sources(sources, selectedBy: setup.options.include, exclude: setup.options.exclude)
        }
        let readSeconds = Date().timeIntervalSince(start)
        let result = LexiconGenerator.generate(sources, options: setup.options)
        for diagnostic in result.diagnostics.all { printError(diagnostic.description) }
        let log = result.diagnostics
        var report = LexiconFileSystem.WriteReport()
        if !result.files.isEmpty {
            report = try LexiconFileSystem.write(result.files, to: setup.output, removeStale: true)
        }
        let seconds = Date().timeIntervalSince(start)
        if parsed.flags.contains("--timing") {
            var stages = [("read", readSeconds)] + result.stageSeconds.map { ($0.stage, $0.seconds) }
            stages.append(("write", seconds - readSeconds - result.stageSeconds.reduce(0) { $0 + $1.seconds }))
            print(
                "lexgen timing: " + stages.map { "\($0.0) \(String(format: "%.3f", $0.1)) s" }.joined(separator: ", "))
        }
        if !parsed.flags.contains("--quiet") || log.hasErrors {
            var summary = "lexgen: \(result.fileCount) files, \(result.defCount) defs, "
            summary += "\(log.warningCount) warnings, \(log.errorCount) errors in \(String(format: "%.2f", seconds)) s"
            if !result.skippedPaths.isEmpty {
                summary += "; skipped \(result.skippedPaths.count) lexicons (their errors and refs are above)"
            }
            if result.files.isEmpty {
                summary += "; nothing written"
            } else {
                summary += "; wrote \(report.written), unchanged \(report.unchanged)"
                if report.removed > 0 { summary += ", removed \(report.removed)" }
                summary += " in \(setup.output)/"
            }
            print(summary)
        }
        return log.hasErrors ? 1 : 0
    }
}

/// The options of a `generate` run, from the command line and the optional config file (the command
/// line wins).
struct GenerateSetup {
    var folders: [String]
    var output: String
    var manifest: String?
    var options = GenerationOptions()

    /// Reads the arguments; `nil` when the config file has errors (already printed).
    init?(_ parsed: ParsedArguments) throws {
        var config = LexGenConfig()
        var configFolder = "."
        if let configPath = parsed.options["--config"] {
            guard let data = FileManager.default.contents(atPath: configPath) else {
                throw UsageError("cannot read the config file \(configPath)")
            }
            var log = DiagnosticLog()
            guard let read = LexGenConfig.parse([UInt8](data), path: configPath, log: &log) else {
                for diagnostic in log.all { printError(diagnostic.description) }
                return nil
            }
            config = read
            configFolder = (configPath as NSString).deletingLastPathComponent
        }
        func relativeToConfig(_ path: String) -> String {
            path.hasPrefix("/") || configFolder.isEmpty ? path : configFolder + "/" + path
        }
        folders = parsed.positional
        if folders.isEmpty, let lexicons = config.lexicons { folders = [relativeToConfig(lexicons)] }
        guard !folders.isEmpty else {
            throw UsageError("give at least one lexicon folder, e.g. 'lexgen lexicons'")
        }
        output = parsed.options["--output"] ?? "lexgen-output"
        manifest = parsed.options["--manifest"] ?? config.manifest.map(relativeToConfig)
        if let level = parsed.options["--access-level"] {
            guard let value = AccessLevel(rawValue: level) else {
                throw UsageError("--access-level must be public, package or internal, not '\(level)'")
            }
            options.access = value
        } else if let level = config.accessLevel {
            options.access = level
        }
        options.moduleName = parsed.options["--module-name"] ?? "Lexicons"
        if let policy = parsed.options["--invalid-lexicons"] {
            guard let value = InvalidLexiconPolicy(rawValue: policy) else {
                throw UsageError("--invalid-lexicons must be fail, skip or warn, not '\(policy)'")
            }
            options.invalidLexicons = value
        } else if let policy = config.invalidLexicons {
            options.invalidLexicons = policy
        }
        options.include = parsed.allValues["--include"] ?? config.include
        options.exclude = parsed.allValues["--exclude"] ?? config.exclude
        for pattern in options.include + options.exclude {
            if let problem = NSIDPattern.problem(in: pattern) { throw UsageError(problem) }
        }
        // With a manifest the plugin declares outputs for the included NSIDs only.
        options.writesExcludedFiles = manifest == nil
        options.imports = try Self.imports(parsed.allValues["--import"] ?? [], modules: config.modules)
    }

    /// `--import Module=folder` values, each taking the NSID patterns `modules` gives its module.
    private static func imports(_ values: [String], modules: [(pattern: String, module: String)]) throws
        -> [LexiconImport]
    {
        var imports: [LexiconImport] = []
        for value in values {
            var lexiconImport = try importedModule(value)
            let patterns = modules.filter { $0.module == lexiconImport.moduleName }.map(\.pattern)
            lexiconImport.patterns = patterns.isEmpty ? nil : patterns
            imports.append(lexiconImport)
        }
        let imported = Set(imports.map(\.moduleName))
        for entry in modules where !imported.contains(entry.module) {
            throw UsageError(
                "the config maps \(entry.pattern) to module \(entry.module), which is not imported (--import \(entry.module)=<folder>)"
            )
        }
        return imports
    }
}
